// `public-hub award --profile FILE`: the client reads the hub's declared signals, and against a hub
// whose repeats look like fresh awards the summary says so instead of claiming them applied.
import { describe, expect, it } from "vitest";
import { useHubMock } from "../helpers/mock-server";
import { envFor, file, runCli } from "./run-cli";

const { mock } = useHubMock({ profile: { version: 1, award: { duplicate: "indistinguishable" } } });
const csv = (refs: string[]) => ["wallet,amount,reason,ref", ...refs.map((ref) => `0xw,1,season,${ref}`)].join("\n") + "\n";
const profile = (json: object) => file("json", JSON.stringify(json));

describe("public-hub award --profile", () => {
  it("an indistinguishable hub: 'Applied or already credited', and --json says applied may include duplicates", async () => {
    const awards = file("csv", csv(["p-1", "p-2"]));
    const indistinguishable = profile({ version: 1, award: { duplicate: "indistinguishable" } });
    expect((await runCli(["award", "--file", awards, "--profile", indistinguishable], { env: envFor(mock.baseUrl) })).stdout).toMatch(/^Applied or already credited 2, skipped 0, failed 0, of 2 awards/);
    const again = await runCli(["award", "--file", awards, "--profile", indistinguishable, "--json"], { env: envFor(mock.baseUrl) });
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: 2, duplicates: 0, appliedMayIncludeDuplicates: true });
    expect(mock.ledger).toHaveLength(2);
    // Without the profile, the same hub's repeats read as applied: the claim the profile corrects.
    expect((await runCli(["award", "--file", awards], { env: envFor(mock.baseUrl) })).stdout).toMatch(/^Applied 2, skipped 0/);
  });

  it("PUBLIC_HUB_PROFILE is read when --profile is not given; a bad profile is a usage error naming the field", async () => {
    const awards = file("csv", csv(["p-3"]));
    const indistinguishable = profile({ version: 1, award: { duplicate: "indistinguishable" } });
    expect((await runCli(["award", "--file", awards], { env: { ...envFor(mock.baseUrl), PUBLIC_HUB_PROFILE: indistinguishable } })).stdout).toMatch(/^Applied or already credited 1/);
    const bad = await runCli(["award", "--file", awards, "--profile", profile({ version: 1, award: { duplicat: "indistinguishable" } })], { env: envFor(mock.baseUrl) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--profile .* is not a hub profile: award\.duplicat: unknown field "duplicat"/);
    const missing = await runCli(["award", "--file", awards, "--profile", "/nonexistent/profile.json"], { env: envFor(mock.baseUrl) });
    expect(missing.stderr).toContain("cannot read --profile /nonexistent/profile.json: no such file (ENOENT)");
    expect(mock.ledger.map((award) => award.ref)).toEqual(["p-3"]);
  });
});
