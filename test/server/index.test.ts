// The one signing build of public-hub-sdk/server, where the runtime has no file system (an edge
// worker): there is no `process.getBuiltinModule("node:fs/promises")`, so a journal path is a bad option.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as server from "../../src/server/index";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const { mock } = useHubMock();
const awards = [{ wallet: "0xabc", amount: 1, reason: "season", ref: "nofs-0" }];
const NO_FS = "Invalid campaign options: journal: a journal path needs a file system (node:fs: Node, Bun, Deno); pass a CampaignJournal object here";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a runtime without node:fs", () => {
  // A worker without Node compatibility: a process without its built-in modules. The SDK looks for
  // them when a journal is opened, so the module needs no reload (a reload inside a test would make
  // every module-scope line of the server entry count as covered by this test, for Stryker).
  const withoutFs = () => {
    vi.stubGlobal("process", { ...process, getBuiltinModule: () => undefined });
    return server;
  };

  it("refuses a journal path as a bad option, before anything is sent", async () => {
    withoutFs();
    const error = await server.dryRunAwards(awards, { journal: "./season.journal" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(server.HubValidationError);
    expect((error as Error).message).toBe(NO_FS);
    const client = new server.HubServerClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", secret: "s", logLevel: "off" });
    await expect(client.awardMany(awards, { journal: "./season.journal" })).rejects.toThrow(NO_FS);
    expect(mock.requests).toHaveLength(0);
  });

  it("runs a campaign with a journal object", async () => {
    withoutFs();
    const recorded: string[] = [];
    const journal = { load: () => [], record: (entry: { ref: string }) => void recorded.push(entry.ref) };
    const client = new server.HubServerClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", secret: "demo-secret-alpha", logLevel: "off" });
    await expect(client.awardMany(awards, { journal })).resolves.toMatchObject({ applied: 1 });
    expect(recorded).toEqual(["nofs-0"]);
  });
});

describe("a runtime with node:fs", () => {
  it("opens a journal path (the file is created on the first record)", async () => {
    const journal = join(mkdtempSync(join(tmpdir(), "hub-index-")), "season.journal");
    await expect(serverClient(mock.baseUrl).awardMany(awards, { journal })).resolves.toMatchObject({ applied: 1 });
    expect(readFileSync(journal, "utf8")).toContain('"ref":"nofs-0"');
  });
});
