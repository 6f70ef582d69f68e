import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getResponse } from "msw";
import type { HubProfile, HubSignal } from "public-hub-sdk";
import { CORS_HEADERS, createHubMock, demoHubs, demoKeys, type HubMock, type HubMockOptions, type MockHub, type MockKey } from "public-hub-sdk/mock";
import { isPositiveInteger, numberFlag, parseFlags } from "../args";
import { readProfile } from "../credentials";
import { unreadable } from "../files";
import { EXIT, println, UsageError, type CliIo } from "../io";

export const mockOptions = {
  port: { type: "string" },
  host: { type: "string" },
  seed: { type: "string" },
  latency: { type: "string" },
  "rate-limit": { type: "string" },
  "failure-rate": { type: "string" },
  "clock-offset": { type: "string" },
  envelope: { type: "string" },
  "duplicate-style": { type: "string" },
  "error-format": { type: "string" },
  "rate-limit-headers": { type: "string" },
  "request-id-header": { type: "string" },
  "signature-status": { type: "string" },
  responses: { type: "string" },
  profile: { type: "string" },
  quiet: { type: "boolean" },
  json: { type: "boolean" },
} as const;

interface Seed {
  hubs: Record<string, MockHub>;
  keys: Record<string, MockKey>;
}

/** Faults from flags, applied to API requests (not to preflights or /_mock). */
export interface MockFaults {
  latencyMs: number;
  ratePerSecond: number | undefined;
  failureRate: number;
  clockOffsetMs: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

async function readJson(flag: string, path: string): Promise<unknown> {
  const text = await readFile(path, "utf8").catch((error: unknown) => {
    throw unreadable(`${flag} ${path}`, error);
  });
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${flag} ${path} is not JSON: ${(error as Error).message}`);
  }
}

/** A flag whose value is one of a few words, checked like a number flag: a usage error naming them. */
function choiceFlag<const C extends string>(flag: string, value: string | undefined, choices: readonly C[]): C | undefined {
  if (value === undefined || (choices as readonly string[]).includes(value)) return value as C | undefined;
  throw new UsageError(`${flag} must be one of ${choices.join(", ")}, not "${value}"`);
}

/** The hub's dialect from flags: the same settings as `createHubMock`'s (fixtures only from a file); a flag wins over the `--profile`'s field, as an option does. */
async function dialectOf(values: Record<string, string | boolean | undefined>): Promise<HubMockOptions> {
  const text = (name: string) => values[name] as string | undefined;
  const responses = text("responses") === undefined ? undefined : await readJson("--responses", text("responses")!);
  const operations = ["discovery", "hub", "leaderboard", "holder", "stakeStatus", "award"];
  if (responses !== undefined && (!isObject(responses) || Object.keys(responses).some((key) => !operations.includes(key)))) {
    throw new UsageError(`--responses ${text("responses")} needs { operation: fixture } with operations among ${operations.join(", ")}`);
  }
  const status = choiceFlag("--signature-status", text("signature-status"), ["400", "401", "403"]);
  const profile = text("profile") === undefined ? undefined : await readProfile(text("profile")!);
  const options: HubMockOptions = {
    ...(profile && { profile }),
    ...(text("envelope") !== undefined && { envelope: text("envelope")! }),
    ...(responses !== undefined && { responses: responses as HubMockOptions["responses"] & object }),
    ...(status !== undefined && { signatureFailureStatus: Number(status) as 400 | 401 | 403 }),
    ...(text("request-id-header") !== undefined && { requestIdHeader: text("request-id-header")! }),
  };
  const duplicateStyle = choiceFlag("--duplicate-style", text("duplicate-style"), ["flag", "replay-header", "409", "208"]);
  const errorFormat = choiceFlag("--error-format", text("error-format"), ["nested", "flat", "error-string", "problem", "problem+json", "error-object", "errors-array", "graphql", "nestjs", "fastify", "fastapi", "text", "html"]);
  const rateLimitHeaders = choiceFlag("--rate-limit-headers", text("rate-limit-headers"), ["none", "ietf", "ietf-draft7", "ietf-legacy", "x-ratelimit"]);
  return { ...options, ...(duplicateStyle && { duplicateStyle }), ...(errorFormat && { errorFormat }), ...(rateLimitHeaders && { rateLimitHeaders }) };
}

async function readSeed(path: string | undefined): Promise<Seed> {
  if (path === undefined) return { hubs: demoHubs(), keys: demoKeys() };
  const seed = (await readJson("--seed", path)) as Partial<Seed>;
  if (!isObject(seed) || !isObject(seed.hubs) || !isObject(seed.keys)) throw new UsageError(`--seed ${path} needs { "hubs": { … }, "keys": { … } }`);
  for (const [slug, hub] of Object.entries(seed.hubs!)) {
    if (!isObject(hub) || !Array.isArray(hub.stakers)) throw new UsageError(`--seed ${path}: hub "${slug}" needs "config" and a "stakers" array`);
    hub.config ??= {};
  }
  for (const [clientId, key] of Object.entries(seed.keys!)) {
    if (!isObject(key) || typeof key.secret !== "string" || typeof key.hub !== "string") throw new UsageError(`--seed ${path}: key "${clientId}" needs "secret" and "hub" strings`);
    if (!(key.hub in seed.hubs!)) throw new UsageError(`--seed ${path}: key "${clientId}" is scoped to hub "${key.hub}", which the seed does not have`);
  }
  return seed as Seed;
}

/** The node:http side of the mock: each request made a fetch Request, answered by the MSW handlers. */
export function mockServer(mock: HubMock, faults: MockFaults, log: ((text: string) => void) | undefined, random: () => number = Math.random) {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const url = new URL(req.url ?? "/", "http://mock.invalid");
    res.on("finish", () => log?.(`${req.method} ${url.pathname}${url.search} ${res.statusCode} ${Math.round(performance.now() - started)} ms`));
    if (url.pathname.startsWith("/_mock/")) return control(url.pathname, req, res);
    const api = req.method !== "OPTIONS";
    if (api && faults.failureRate > 0 && random() < faults.failureRate) mock.failNext(1);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.entries(req.headers).flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v]) : value === undefined ? [] : [[name, value]])) as [string, string][];
    const request = new Request(new URL(req.url ?? "/", mock.baseUrl), {
      method: req.method ?? "GET",
      headers,
      ...(req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    if (api && faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
    const response = await getResponse(mock.handlers, request);
    if (!response) {
      res.writeHead(404, { "content-type": "application/json", ...CORS_HEADERS }).end(JSON.stringify({ error: { code: "no_such_route", message: `No such route: ${req.method} ${url.pathname}` } }));
      return;
    }
    if (response.type === "error") return void req.socket.destroy(); // the mock asked for a network error
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });

  const control = (path: string, req: IncomingMessage, res: ServerResponse) => {
    const json = (status: number, value: unknown) => res.writeHead(status, { "content-type": "application/json", ...CORS_HEADERS }).end(`${JSON.stringify(value, null, 2)}\n`);
    if (req.method === "OPTIONS") return void res.writeHead(204, CORS_HEADERS).end();
    if (path === "/_mock/ledger" && req.method === "GET") return json(200, mock.ledger);
    if (path === "/_mock/requests" && req.method === "GET") return json(200, mock.requests.map(({ method, url }) => ({ method, url })));
    if (path === "/_mock/reset" && req.method === "POST") return mock.reset(), json(200, { reset: true });
    return json(404, { error: { code: "no_such_route", message: "GET /_mock/ledger, GET /_mock/requests, POST /_mock/reset" } });
  };
  return server;
}

/** `public-hub mock`: the spec mock as a local HTTP API, until Ctrl-C (SIGINT or SIGTERM). */
export async function mockCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags("mock", args, mockOptions);
  const port = numberFlag("--port", values.port, 4010, (n) => Number.isInteger(n) && n >= 0 && n < 65536, "a port number (0 for any free one)");
  const faults: MockFaults = {
    latencyMs: numberFlag("--latency", values.latency, 0, (n) => Number.isFinite(n) && n >= 0, "milliseconds ≥ 0"),
    ratePerSecond: values["rate-limit"] === undefined ? undefined : numberFlag("--rate-limit", values["rate-limit"], 0, isPositiveInteger, "an integer ≥ 1 (requests per second)"),
    failureRate: numberFlag("--failure-rate", values["failure-rate"], 0, (n) => n >= 0 && n <= 1, "a share between 0 and 1"),
    clockOffsetMs: 1000 * numberFlag("--clock-offset", values["clock-offset"], 0, Number.isFinite, "seconds"),
  };
  const seed = await readSeed(values.seed);
  const dialect = await dialectOf(values);
  // Checked before the port is taken: a profile the mock cannot speak (a bare-array board paged by cursor) is a usage error.
  createHubMock(dialect);
  const host = values.host ?? "127.0.0.1";
  // The handlers need the base URL before the port is known (--port 0): bound after listen.
  let mock: HubMock | undefined;
  const log = values.quiet ? undefined : (text: string) => println(io.stdout, text);
  const proxy = { get: (_: unknown, name: string | symbol) => (mock as unknown as Record<string | symbol, unknown>)[name] } as ProxyHandler<HubMock>;
  const server = mockServer(new Proxy({} as HubMock, proxy), faults, log);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new UsageError(`port ${port} is in use: choose another with --port (0 picks a free one)`) : error),
    );
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
  mock = createHubMock({
    ...dialect,
    baseUrl: `${origin}/api/v1`,
    hubs: seed.hubs,
    keys: seed.keys,
    clockOffsetMs: faults.clockOffsetMs,
    ...(faults.ratePerSecond !== undefined && { rateLimit: faults.ratePerSecond }),
  });
  printBanner(io, origin, seed, faults, dialect.profile && profileLine(values.profile!, dialect.profile, values));

  await new Promise<void>((resolve) => {
    const stop = () => {
      server.closeAllConnections();
      server.close(() => resolve());
    };
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener("abort", stop, { once: true });
  });
  println(io.stdout, `mock stopped (${mock.ledger.length} awards were applied).`);
  return EXIT.ok;
}

const said = (signal: HubSignal | "indistinguishable") =>
  signal === "indistinguishable" ? signal : [signal.status, signal.code, signal.header && `${signal.header.name}: ${signal.header.value}`, signal.field && `${signal.field.name}=${signal.field.value}`].filter(Boolean).join(" ");

/** The banner's line of a `--profile`: the file, what it sets, and which flag given beside it wins. */
function profileLine(path: string, profile: HubProfile, values: Record<string, unknown>): string {
  const { award, rateLimit, leaderboard } = profile;
  const set: Array<[string | undefined | false, string?]> = [
    [profile.errors && `errors ${profile.errors}`, "error-format"],
    [profile.envelope && `envelope ${profile.envelope}`, "envelope"],
    [profile.requestIdHeader !== undefined && `request id ${profile.requestIdHeader ?? "none"}`, "request-id-header"],
    [award?.status !== undefined && `award ${award.status}`],
    [award?.duplicate && `duplicate ${said(award.duplicate)}`, "duplicate-style"],
    [award?.conflict && `conflict ${said(award.conflict)}`, "duplicate-style"],
    [rateLimit && `rate limit announced by ${rateLimit.headers}${rateLimit.reset ? ` (${rateLimit.reset})` : ""}${rateLimit.resetLagSeconds ? ` +${rateLimit.resetLagSeconds} s` : ""}`, "rate-limit-headers"],
    [leaderboard && `leaderboard ${leaderboard.rows || "a bare array"} paged by ${leaderboard.pages ?? "none"}`],
  ];
  const fields = set.flatMap(([text, flag]) => (text ? [flag && values[flag] !== undefined ? `${text} (--${flag} wins)` : text] : []));
  return `Profile: ${path}${fields.length > 0 ? ` — ${fields.join(", ")}` : ""}`;
}

function printBanner(io: CliIo, origin: string, seed: Seed, faults: MockFaults, profile: string | undefined): void {
  const keys = Object.entries(seed.keys);
  const width = Math.max(9, ...keys.map(([id]) => id.length)) + 2;
  const hubWidth = Math.max(3, ...keys.map(([, key]) => key.hub.length)) + 2;
  const on = [
    faults.latencyMs > 0 && `latency ${faults.latencyMs} ms`,
    faults.ratePerSecond !== undefined && `429 above ${faults.ratePerSecond} requests/s`,
    faults.failureRate > 0 && `${Math.round(faults.failureRate * 100)} % answered 503`,
    faults.clockOffsetMs !== 0 && `server clock ${faults.clockOffsetMs > 0 ? "+" : ""}${faults.clockOffsetMs / 1000} s`,
  ].filter(Boolean);
  const [firstId, firstKey] = keys[0] ?? ["pk_alpha_demo", { hub: "alpha", secret: "" }];
  println(
    io.stdout,
    [
      `Public Hub API mock listening on ${origin}/api/v1 (CORS: any origin). Ctrl-C stops it.`,
      `Hubs: ${Object.entries(seed.hubs).map(([slug, hub]) => `${slug}${typeof hub.config.name === "string" ? ` (${hub.config.name})` : ""}`).join(", ")}`,
      "Keys (fake secrets, known only to this mock):",
      `  ${"client id".padEnd(width)}${"hub".padEnd(hubWidth)}secret`,
      ...keys.map(([id, key]) => `  ${id.padEnd(width)}${key.hub.padEnd(hubWidth)}${key.secret}`),
      `Faults: ${on.length > 0 ? on.join(", ") : "none"}`,
      ...(profile ? [profile] : []),
      `Ledger: GET ${origin}/_mock/ledger   Requests: GET ${origin}/_mock/requests   Reset: POST ${origin}/_mock/reset`,
      `Try: HUB_BASE_URL=${origin}/api/v1 HUB_CLIENT_ID=${firstId} HUB_SLUG=${firstKey.hub} public-hub leaderboard`,
      "",
    ].join("\n"),
  );
}
