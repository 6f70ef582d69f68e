// @ts-nocheck
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

// The file journal's module is loaded by the campaign on first use, as in an application.
const { mock } = useHubMock();
const dir = mkdtempSync(join(tmpdir(), "hub-journal-path-"));

describe("awardMany with a journal path", () => {
  it("writes a journal whose first line names its kind, version and hub", async () => {
    const path = join(dir, "season.journal");
    await serverClient(mock.baseUrl).awardMany([{ wallet: "0xabc", amount: 1, reason: "season", ref: "jp-1" }], { journal: path });
    expect(readFileSync(path, "utf8").split("\n")[0]).toBe('{"journal":"public-hub-sdk/campaign-journal","version":1,"hub":"alpha"}');
  });
});
