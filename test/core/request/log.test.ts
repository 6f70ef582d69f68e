import { afterEach, describe, expect, it, vi } from "vitest";
import { createLog, where } from "../../../src/core/request";
import { defineTelemetry, type HubTelemetry, type Logger } from "public-hub-sdk";
import { HubClient, HubConnectionError } from "public-hub-sdk";
import { useHubMock } from "../../helpers/mock-server";
import { client, run, scripted } from "../../helpers/scripted-fetch";
import { SECRET, SIGNING_KEY, serverClient } from "../../helpers/server-client";

const { mock, server } = useHubMock();

/** A logger that keeps every line, by level. */
function capture() {
  const lines: Array<[string, string]> = [];
  const logger: Logger = {
    debug: (line) => lines.push(["debug", line]),
    info: (line) => lines.push(["info", line]),
    warn: (line) => lines.push(["warn", line]),
    error: (line) => lines.push(["error", line]),
  };
  return { lines, logger };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

describe("pauses and retries, as the README shows them", () => {
  it("a pause a 429 asked for is one debug line, rounded, however many calls wait it out; each retry an info line", async () => {
    const { lines, logger } = capture();
    // Three calls at once, each answered 429 with the same wait.
    const throttled = { status: 429, headers: { "retry-after": "2" } };
    const script = scripted([throttled, throttled, throttled, {}]);
    const hub = client(script.fetch, { logLevel: "debug", logger, maxConcurrency: 3 });
    await run([() => hub.getHub(), () => hub.getHub(), () => hub.getHub()]);
    expect(lines.filter(([, line]) => line.startsWith("[public-hub] pause"))).toEqual([["debug", "[public-hub] pause waitMs=2000 status=429"]]);
    expect(lines.filter(([, line]) => line === '[public-hub] retry call="GET https://h.test/api/v1/hub/alpha" after=429 waitMs=2000')).toHaveLength(3);
  });
});

describe("log levels", () => {
  it("writes at and above the level, and builds nothing below it", () => {
    const { lines, logger } = capture();
    const log = createLog("warn", logger);
    const fields = vi.fn(() => ({ a: 1 }));
    log("info", "quiet", fields);
    log("warn", "loud", () => ({ call: "GET https://h.test/x", n: 2, gone: undefined, text: 'a "b"' }));
    expect(fields).not.toHaveBeenCalled();
    expect(lines).toEqual([["warn", '[public-hub] loud call="GET https://h.test/x" n=2 text="a \\"b\\""']]);
  });

  it('"off" writes nothing, not even errors', () => {
    const { lines, logger } = capture();
    createLog("off", logger)("error", "x", () => ({}));
    expect(lines).toEqual([]);
  });

  it("PUBLIC_HUB_LOG sets the level when the option does not; the option wins", () => {
    vi.stubEnv("PUBLIC_HUB_LOG", "debug");
    const { lines, logger } = capture();
    createLog(undefined, logger)("debug", "from-env", () => ({}));
    createLog("error", logger)("debug", "option-wins", () => ({}));
    expect(lines.map(([, line]) => line)).toEqual(["[public-hub] from-env"]);
  });

  it('an environment that cannot be read (Deno without --allow-env) means the default, "warn"', () => {
    const env = Object.getOwnPropertyDescriptor(process, "env")!;
    Object.defineProperty(process, "env", {
      configurable: true,
      get() {
        throw new Error("Requires env access");
      },
    });
    try {
      const { lines, logger } = capture();
      const log = createLog(undefined, logger);
      log("info", "no", () => ({}));
      log("warn", "yes", () => ({}));
      expect(lines.map(([, line]) => line)).toEqual(["[public-hub] yes"]);
    } finally {
      Object.defineProperty(process, "env", env);
    }
  });

  it('an unknown PUBLIC_HUB_LOG value is ignored: the default is "warn"', () => {
    vi.stubEnv("PUBLIC_HUB_LOG", "verbose");
    const { lines, logger } = capture();
    const log = createLog(undefined, logger);
    log("info", "no", () => ({}));
    log("warn", "yes", () => ({}));
    expect(lines.map(([, line]) => line)).toEqual(["[public-hub] yes"]);
  });
});

describe("log lines", () => {
  it("quotes string values holding whitespace, quotes or =, and writes others bare", () => {
    const { lines, logger } = capture();
    createLog("debug", logger)("debug", "e", () => ({ plain: "GET", tab: "a\tb", eq: "a=b", quote: 'say"', n: 0, ok: false, none: null }));
    expect(lines).toEqual([["debug", '[public-hub] e plain=GET tab="a\\tb" eq="a=b" quote="say\\"" n=0 ok=false none=null']]);
  });

  it.each([
    ["error", ["error"]],
    ["warn", ["error", "warn"]],
    ["info", ["error", "warn", "info"]],
    ["debug", ["error", "warn", "info", "debug"]],
  ] as const)("level %s writes %j, each to its own method", (level, written) => {
    const { lines, logger } = capture();
    const log = createLog(level, logger);
    for (const at of ["error", "warn", "info", "debug"] as const) log(at, at, () => ({}));
    expect(lines).toEqual(written.map((at) => [at, `[public-hub] ${at}`]));
  });

  it("quotes any value whose text holds whitespace, as JSON", () => {
    const { lines, logger } = capture();
    createLog("debug", logger)("debug", "e", () => ({ list: ["a b"] }));
    expect(lines).toEqual([["debug", '[public-hub] e list=["a b"]']]);
  });

  it("writes to console by default", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    createLog("warn")("warn", "to-console", () => ({}));
    expect(warn).toHaveBeenCalledWith("[public-hub] to-console");
  });

  it("where() shows origin and path, never the query or fragment", () => {
    expect(where("https://h.test:8443/api/v1/hub/alpha/stake-status?wallet=0xabc#x")).toBe("https://h.test:8443/api/v1/hub/alpha/stake-status");
    expect(where(new URL("http://h.test/"))).toBe("http://h.test/");
  });
});

describe("what the client logs", () => {
  it("debug: every attempt with method, origin + path, status, attempt, duration, request id; info: retries", async () => {
    const { lines, logger } = capture();
    mock.rateLimitNext(1, 0);
    await serverClient(mock.baseUrl, { logLevel: "debug", logger }).getStakeStatus("0xwallet");
    const text = lines.map(([level, line]) => `${level} ${line}`);
    expect(text[0]).toMatch(/^debug \[public-hub\] attempt method=GET url=https:\/\/hub\.example\.com\/api\/v1\/hub\/alpha\/stake-status attempt=1 ms=\d+ status=429 requestId=req_mock_000001$/);
    expect(text).toContainEqual(expect.stringMatching(/^info \[public-hub\] retry call="GET https:\/\/hub\.example\.com\/api\/v1\/hub\/alpha\/stake-status" after=429 waitMs=\d+$/));
    expect(text).toContainEqual(expect.stringMatching(/attempt=2 ms=\d+ status=200 requestId=req_mock_000002$/));
    expect(text.join("\n")).not.toContain("0xwallet"); // the query may hold a wallet
  });

  it("clock corrections are logged at info; a write refused for the clock at warn", async () => {
    const { lines, logger } = capture();
    mock.setClockOffset(3_600_000);
    await serverClient(mock.baseUrl, { logLevel: "info", logger }).awardPoints({ wallet: "0xabc", amount: 1, ref: "log-clock" });
    expect(lines).toContainEqual(["warn", expect.stringMatching(/^\[public-hub\] clock-retry offsetMs=3[56]\d{5}$/)]);
    expect(lines).toContainEqual(["info", expect.stringMatching(/^\[public-hub\] clock offsetMs=3[56]\d{5}$/)]);
  });

  it("a write whose outcome is unknown is a warning, once per cause and client (what ends failed is the caller's to say)", async () => {
    const { lines, logger } = capture();
    mock.loseNextWrites(6, "network-error");
    const client = serverClient(mock.baseUrl, { logger, logLevel: "warn" });
    await client.awardPoints({ wallet: "0xabc", amount: 1, ref: "log-lost" }).catch(() => undefined);
    await client.awardPoints({ wallet: "0xabc", amount: 1, ref: "log-lost-2" }).catch(() => undefined);
    expect(lines).toEqual([["warn", '[public-hub] outcome-unknown call="POST https://hub.example.com/api/v1/hub/alpha/bits/earn" error=HubConnectionError']]);
  });

  it("a write the caller aborted is logged at info, not error", async () => {
    const { lines, logger } = capture();
    const controller = new AbortController();
    const { http, HttpResponse, delay } = await import("msw");
    server.use(http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, async () => (await delay(200), HttpResponse.json({}))));
    const pending = serverClient(mock.baseUrl, { logger, logLevel: "info" }).awardPoints({ wallet: "0xabc", amount: 1, ref: "abort-log" }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await pending.catch(() => undefined);
    expect(lines).toEqual([["info", '[public-hub] outcome-unknown call="POST https://hub.example.com/api/v1/hub/alpha/bits/earn" error=HubAbortError']]);
  });

  it("a failure that was not applied (a read, a refused write) logs no outcome-unknown", async () => {
    const { lines, logger } = capture();
    mock.failNext(1, { status: 503 });
    await serverClient(mock.baseUrl, { logger, logLevel: "warn", retry: 0 }).getHub().catch(() => undefined);
    await serverClient(mock.baseUrl, { logger, logLevel: "warn", secret: "wrong" }).awardPoints({ wallet: "0xabc", amount: 1, ref: "log-refused" }).catch(() => undefined);
    expect(lines.filter(([level]) => level === "error")).toEqual([]);
  });

  it("with every level on, no line holds the secret, the signing key, a signature or the client id", async () => {
    const { lines, logger } = capture();
    const hub = serverClient(mock.baseUrl, { logLevel: "debug", logger, secret: SECRET });
    mock.rateLimitNext(1, 0);
    mock.loseNextWrites(1, 502);
    await hub.awardPoints({ wallet: "0xabc", amount: 1, ref: "log-secret" });
    await serverClient(mock.baseUrl, { logLevel: "debug", logger, secret: "wrong-secret" }).awardPoints({ wallet: "0xabc", amount: 1, ref: "x" }).catch(() => undefined);
    const signatures = mock.requests.map((r) => r.headers["x-api-signature"]).filter(Boolean) as string[];
    const text = lines.map(([, line]) => line).join("\n");
    expect(lines.length).toBeGreaterThan(5);
    for (const secret of [SECRET, SIGNING_KEY, "wrong-secret", "pk_alpha_demo", ...signatures]) expect(text).not.toContain(secret);
  });
});

describe("attempts that fail", () => {
  it("a failed attempt is logged with its error and no status, and the call still fails with the SDK's error", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_800_000_000_000 });
    const { lines, logger } = capture();
    const hub = new HubClient({
      baseUrl: "https://h.test/api/v1",
      clientId: "pk",
      hub: "alpha",
      retry: 0,
      logLevel: "debug",
      logger,
      fetch: () => Promise.reject(new TypeError("fetch failed")),
    });
    await expect(hub.getHub()).rejects.toBeInstanceOf(HubConnectionError);
    const attempt = lines.find(([, line]) => line.startsWith("[public-hub] attempt "));
    expect(attempt?.[1]).toBe('[public-hub] attempt method=GET url=https://h.test/api/v1/hub/alpha attempt=1 ms=0 error="fetch failed"');
  });
});

describe("a retry's log line names how the attempt ended", () => {
  const retries = (lines: Array<[string, string]>) => lines.filter(([, line]) => line.includes(" retry ")).map(([, line]) => /after=("[^"]*"|\S+)/.exec(line)![1]);

  it("a status, a network error's message, and a timeout, each as its attempt ended", async () => {
    const { lines, logger } = capture();
    let n = 0;
    // 503; then a refused connection; then headers whose body never ends (cut by the timeout); then a 200.
    const fetch = (_url: unknown, init?: RequestInit): Promise<Response> => {
      n++;
      if (n === 1) return Promise.resolve(new Response("{}", { status: 503 }));
      if (n === 2) return Promise.reject(new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }));
      if (n === 3) {
        const body = new ReadableStream({ start: (controller) => init?.signal?.addEventListener("abort", () => controller.error(init.signal!.reason)) });
        return Promise.resolve(new Response(body, { status: 200 }));
      }
      return Promise.resolve(Response.json({ slug: "alpha" }));
    };
    const hub = new HubClient({ baseUrl: "https://hub.example.com", clientId: "pk_alpha_demo", hub: "alpha", fetch, timeout: 100, retry: { limit: 3, backoff: 1 }, logLevel: "info", logger });
    await expect(hub.getHub()).resolves.toEqual({ slug: "alpha" });
    expect(retries(lines)).toEqual(["503", '"fetch failed"', "timeout"]);
  });

  it("an attempt whose fetch never settles, not even on the abort, is retried after a timeout", async () => {
    const { lines, logger } = capture();
    let n = 0;
    const fetch = (): Promise<Response> => (++n === 1 ? new Promise<Response>(() => undefined) : Promise.resolve(Response.json({ slug: "alpha" })));
    const hub = new HubClient({ baseUrl: "https://hub.example.com", clientId: "pk_alpha_demo", hub: "alpha", fetch, timeout: 50, retry: { limit: 1, backoff: 1 }, logLevel: "info", logger });
    await expect(hub.getHub()).resolves.toEqual({ slug: "alpha" });
    expect(retries(lines)).toEqual(["timeout"]);
  });
});

describe("an observer that throws is logged; a telemetry hears a failed attempt", () => {
  it("an observer that throws null is logged as null; the call ends as it would have", async () => {
    const lines: string[] = [];
    const keep = (line: string) => void lines.push(line);
    const script = scripted([{}]);
    const hub = client(script.fetch, {
      logLevel: "warn",
      logger: { error: keep, warn: keep, info: keep, debug: keep },
      onRequest: () => {
        throw null;
      },
    });
    const [result] = await run([() => hub.getHub()]);
    expect(result).toMatchObject({ status: "fulfilled", value: { slug: "alpha" } });
    expect(lines).toEqual(["[public-hub] observer-failed error=null", "[public-hub] observer-failed error=null"]);
  });

  it("a telemetry hears a failed attempt's end with no status and the failure", async () => {
    const heard: unknown[][] = [];
    const failure = new TypeError("fetch failed");
    const telemetry: HubTelemetry = defineTelemetry({
      name: "test",
      startCall: () => ({ run: (call) => call(), attempt: () => (status, error) => void heard.push([status, error]), end: () => {} }),
    });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const hub = client((async () => Promise.reject(failure)) as typeof globalThis.fetch, { telemetry, retry: 0 });
    await run([() => hub.getHub()]);
    expect(heard).toEqual([[undefined, failure]]);
  });
});
