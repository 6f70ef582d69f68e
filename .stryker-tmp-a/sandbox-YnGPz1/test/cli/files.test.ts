// @ts-nocheck
import { describe, expect, it } from "vitest";
import { unreadable } from "../../cli/src/files";
import { useHubMock } from "../helpers/mock-server";
import { envFor, file, runCli, tmpPath } from "./run-cli";

const { mock } = useHubMock();
const env = () => envFor(mock.baseUrl);

describe("public-hub award: files", () => {
  it.each([
    ["an empty CSV", "csv", ""],
    ["a header-only CSV", "csv", "wallet,amount,reason,ref\n"],
    ["an empty JSON Lines file", "jsonl", "\n\n"],
  ])("%s: says there was nothing to send, exit 2 (0 with --allow-empty), sends nothing", async (_name, ext, text) => {
    const path = file(ext, text);
    const { code, stdout, stderr } = await runCli(["award", "--file", path], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^Nothing to send: ${path} has no award rows`));
    expect(stdout).toBe("");
    const allowed = await runCli(["award", "--file", path, "--allow-empty", "--json"], { env: env() });
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ nothingToSend: true, total: 0 });
    expect(mock.requests).toHaveLength(0);
  });

  it("a missing file says why (ENOENT), a directory too (EISDIR)", async () => {
    const missing = tmpPath("missing.csv");
    const { code, stderr } = await runCli(["award", "--file", missing], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toContain(`cannot read ${missing}: no such file (ENOENT)`);
    const dir = tmpPath("dir.csv");
    await import("node:fs").then((fs) => fs.mkdirSync(dir));
    expect((await runCli(["award", "--file", dir], { env: env() })).stderr).toContain(`cannot read ${dir}: it is a directory (EISDIR)`);
    expect((await runCli(["sign", "--body", "{}", "--secret-file", missing], { env: { ...env(), HUB_SECRET: undefined } })).stderr).toContain(
      `cannot read --secret-file ${missing}: no such file (ENOENT)`,
    );
  });

  it("permission denied is named (EACCES)", () => {
    // Tests may run as root, for whom no file is unreadable: the wording is tested on the error itself.
    const error = Object.assign(new Error("EACCES: permission denied, open 'x.csv'"), { code: "EACCES" });
    expect(unreadable("x.csv", error).message).toBe("cannot read x.csv: permission denied (EACCES)");
  });
});
