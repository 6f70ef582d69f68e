// @ts-nocheck
import { describe, expect, it } from "vitest";
import { useHubMock } from "../helpers/mock-server";
import { rawSign } from "../helpers/raw-sign";
import { SECRET, SIGNING_KEY } from "../helpers/server-client";
import { envFor, file, runCli } from "./run-cli";

const { mock } = useHubMock();
const env = () => envFor(mock.baseUrl);

describe("public-hub reads", () => {
  it("hub, leaderboard, holder, stake: human and --json", async () => {
    const hub = await runCli(["hub", "--json"], { env: env() });
    expect(hub.code).toBe(0);
    expect(JSON.parse(hub.stdout)).toMatchObject({ slug: "alpha" });
    const board = await runCli(["leaderboard", "--limit", "2"], { env: env() });
    expect(board.code).toBe(0);
    expect(board.stdout.trim().split("\n")).toHaveLength(3); // a header and two rows
    const boardJson = JSON.parse((await runCli(["leaderboard", "--limit", "3", "--json"], { env: env() })).stdout);
    expect(boardJson.entries).toHaveLength(3);
    const holder = await runCli(["holder", "0xabc"], { env: env() });
    expect(holder.stdout).toContain("wallet: 0xabc");
    const config = await runCli(["hub"], { env: env() });
    expect(config.stdout).toContain("token.symbol: ALP");
    expect(config.stdout).not.toContain("[object Object]");
    const stake = JSON.parse((await runCli(["stake", "0xabc", "--json"], { env: env() })).stdout);
    expect(stake).toMatchObject({ wallet: "0xabc" });
    expect(mock.requests.every((r) => r.headers["x-api-key"] === "pk_alpha_demo")).toBe(true);
  });

  it("flags override the environment; an API error exits 1 with its typed name", async () => {
    const { code, stderr, stdout } = await runCli(["hub", "--hub", "nosuch", "--json"], { env: env() });
    expect(code).toBe(1);
    expect(stderr).toContain("public-hub:");
    expect(JSON.parse(stdout).error).toMatchObject({ name: "NotFoundError", status: 404 });
  });

  it("usage errors exit 2", async () => {
    expect((await runCli(["holder"], { env: env() })).code).toBe(2);
    expect((await runCli(["leaderboard", "--limit", "x"], { env: env() })).code).toBe(2);
    expect((await runCli(["hub", "extra"], { env: env() })).code).toBe(2);
    expect((await runCli(["hub"], { env: {} })).stderr).toContain("missing HUB_BASE_URL (or --base-url), HUB_CLIENT_ID (or --client-id), HUB_SLUG (or --hub)");
    expect(mock.requests).toHaveLength(0);
  });
});

describe("public-hub sign", () => {
  it("prints the signed payload and the signature an independent signer computes", async () => {
    const body = '{"wallet":"0xabc","amount":10,"ref":"r1"}';
    const { code, stdout } = await runCli(["sign", "--body", body, "--timestamp", "1751007723", "--json"], { env: env() });
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    const path = "/api/v1/hub/alpha/bits/earn";
    expect(out.payload).toBe(`1751007723.POST.${path}.${body}`);
    expect(out.signature).toBe(rawSign(SECRET, "1751007723", "POST", path, body));
    const fromKey = await runCli(["sign", "--body", body, "--timestamp", "1751007723"], { env: { ...env(), HUB_SECRET: undefined, HUB_SIGNING_KEY: SIGNING_KEY } });
    expect(fromKey.stdout).toContain(`x-api-signature: ${out.signature}`);
    expect(fromKey.stdout).not.toContain(SIGNING_KEY);
  });

  it("reads the secret from --secret-file; refuses a bad timestamp", async () => {
    const secretFile = file("txt", `${SECRET}\n`);
    const { code, stdout } = await runCli(["sign", "--body", "{}", "--timestamp", "1", "--secret-file", secretFile, "--json"], { env: { ...env(), HUB_SECRET: undefined } });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).signature).toBe(rawSign(SECRET, "1", "POST", "/api/v1/hub/alpha/bits/earn", "{}"));
    expect((await runCli(["sign", "--body", "{}", "--timestamp", "soon"], { env: env() })).code).toBe(2);
  });
});
