import type { CAMPAIGN_DEFAULTS } from "public-hub-sdk/server";

type FlagHelp = { flag: string; text: string };
/**
 * A command's own help: what it does, its flags with their defaults, and an example. Flags whose
 * defaults are the SDK's are a function of them, so that `--help` does not load the SDK.
 */
type CommandHelp = { usage: string; summary: string; flags: FlagHelp[] | ((defaults: typeof CAMPAIGN_DEFAULTS) => FlagHelp[]); example: string };

const CONNECTION: FlagHelp[] = [
  { flag: "--base-url <url>", text: "the API's base address with its /api/v1 prefix (default: $HUB_BASE_URL)" },
  { flag: "--client-id <id>", text: "the key's public client id (default: $HUB_CLIENT_ID)" },
  { flag: "--hub <slug>", text: "the hub (default: $HUB_SLUG)" },
];
const SECRET: FlagHelp = { flag: "--secret-file <file>", text: "a file holding the secret (default: $HUB_SECRET, else $HUB_SIGNING_KEY); never printed" };
const JSON_FLAG: FlagHelp = { flag: "--json", text: "machine-readable output on stdout" };
const UNWRAP: FlagHelp = { flag: "--unwrap <key>", text: "the key of the payload in the hub's envelope, as in { <key>: …, meta } (default: $PUBLIC_HUB_UNWRAP, else none)" };

export const COMMANDS: Record<string, CommandHelp> = {
  award: {
    usage: "public-hub award --file <awards.csv|awards.jsonl|-> [flags]",
    summary: "Award points to many wallets from a file: validated, signed, sent concurrently, resumable with a journal.",
    flags: (defaults) => [
      { flag: "-f, --file <path>", text: "CSV with a header (wallet,amount,reason,ref or wallet,kind,ref) or JSON Lines; - reads stdin (needs --format)" },
      { flag: "--format csv|jsonl", text: "the file's format (default: from the extension)" },
      { flag: "--journal <file>", text: "resumable: a run again skips what this file records as applied (default: none)" },
      { flag: "--concurrency <n>", text: `awards in flight at once (default: ${defaults.concurrency})` },
      { flag: "--outage-timeout <s>", text: `how long a campaign waits for a hub that stopped answering (no connection, a timeout, 502/503/504), probing it, before it stops (default: ${defaults.outageTimeout / 1000})` },
      { flag: "--max-failures <n>", text: `stop after n awards in a row refused for a cause no later award escapes: unknown key, wrong secret, key of another hub, no such hub, no server at the address (default: ${defaults.maxFailures})` },
      { flag: "--dry-run", text: "validate rows, find ref conflicts, read the journal; send nothing, needs no key, checks no credentials" },
      { flag: "--check", text: "with --dry-run: run doctor's checks first (needs the connection and the key)" },
      { flag: "--allow-empty", text: "a file without award rows exits 0 instead of 2" },
      { flag: "--verbose", text: "show each line of the SDK's log (retries, clock corrections) above the progress; without it they are counted and summarised at the end" },
      JSON_FLAG,
      ...CONNECTION,
      SECRET,
    ],
    example: "public-hub award --file season-7.csv --journal season-7.journal --concurrency 8",
  },
  hub: {
    usage: "public-hub hub [flags]",
    summary: "The hub's public configuration.",
    flags: [JSON_FLAG, ...CONNECTION, UNWRAP],
    example: "public-hub hub --hub alpha",
  },
  leaderboard: {
    usage: "public-hub leaderboard [--limit <n>] [--all [--max-pages <n>]] [flags]",
    summary: "The hub's top stakers, as a table.",
    flags: [
      { flag: "--limit <n>", text: "rows to ask for; with --all, rows per page (default: the server's)" },
      { flag: "--all", text: "every row across the hub's pages (Relay, cursor, page numbers or Link: as --profile declares, else as each answer shows), printed once all are read; --json prints them as one array" },
      { flag: "--max-pages <n>", text: "with --all: the most pages read; a hub with more is an error, and no row is printed (default: 100)" },
      JSON_FLAG,
      ...CONNECTION,
      UNWRAP,
    ],
    example: "public-hub leaderboard --all --limit 100",
  },
  holder: {
    usage: "public-hub holder <wallet> [flags]",
    summary: "A wallet's holder status and reward-point balance.",
    flags: [JSON_FLAG, ...CONNECTION, UNWRAP],
    example: "public-hub holder 0x1111111111111111111111111111111111111111",
  },
  stake: {
    usage: "public-hub stake <wallet> [flags]",
    summary: "A wallet's staking summary.",
    flags: [JSON_FLAG, ...CONNECTION, UNWRAP],
    example: "public-hub stake 0x1111111111111111111111111111111111111111",
  },
  doctor: {
    usage: "public-hub doctor [--profile <file> [--probe-wallet <wallet>]] [flags]",
    summary:
      "Checks the setup without awarding anything: the base URL answers, the key reads the hub, the secret signs a write the server accepts (with a body no server can apply), the clock. ✓ only for what was checked. With --profile, then learns how the hub speaks (envelope, request id header, rate-limit headers, leaderboard rows and pages, error format; with --probe-wallet, how awards, duplicates and conflicts are answered) and writes it as a hub profile for --profile of the other commands, the clients and the mock.",
    flags: [
      { flag: "--profile <file>", text: "write the hub's profile to this file (JSON), learned from reads and two signed writes no hub can credit; what it cannot learn goes in its notes. Here it is the output: neither it nor $PUBLIC_HUB_PROFILE is read" },
      { flag: "--probe-wallet <wallet>", text: "with --profile and a key: CHANGES THE HUB by one award of 1 point to this wallet, sent again and then with amount 2 under the same ref, to learn the duplicate and conflict answers (default: no award)" },
      JSON_FLAG,
      ...CONNECTION,
      SECRET,
      UNWRAP,
    ],
    example: "HUB_SECRET=… public-hub doctor --profile hub-profile.json --probe-wallet 0xYourTestWallet",
  },
  sign: {
    usage: "public-hub sign --body '<json>' [flags]",
    summary: "Prints the exact signed payload and its signature (compare with what a server expects when it answers 401).",
    flags: [
      { flag: "--body <json>", text: "the exact request body (required)" },
      { flag: "--timestamp <s>", text: "Unix seconds (default: now)" },
      { flag: "--method <m>", text: "HTTP method (default: POST)" },
      { flag: "--path <p>", text: "the signed path (default: the award path of --hub under --base-url)" },
      JSON_FLAG,
      ...CONNECTION,
      SECRET,
    ],
    example: `public-hub sign --body '{"wallet":"0xabc","amount":10,"ref":"r1"}' --timestamp 1751007723`,
  },
  mock: {
    usage: "public-hub mock [flags]",
    summary:
      "Serves the Public Hub API mock on a local port: demo hubs and keys (fake secrets), signatures checked, refs idempotent, CORS for any origin, one log line per request, the ledger at GET /_mock/ledger. Ctrl-C stops it.",
    flags: [
      { flag: "--port <n>", text: "port to listen on, 0 for any free one (default: 4010)" },
      { flag: "--host <addr>", text: "address to listen on (default: 127.0.0.1)" },
      { flag: "--seed <file.json>", text: "hubs, keys and balances: { hubs: { slug: { config, stakers, holders, balances } }, keys: { clientId: { secret, hub } } } (default: the demo data)" },
      { flag: "--latency <ms>", text: "delay every answer by this many milliseconds (default: 0)" },
      { flag: "--rate-limit <n>", text: "allow n requests per second, announced on every answer; 429 with Retry-After beyond (default: no limit)" },
      { flag: "--failure-rate <0..1>", text: "answer this share of requests with a 503 proxy page (default: 0)" },
      { flag: "--clock-offset <s>", text: "the server clock's offset in seconds, to try clock-skew handling (default: 0)" },
      { flag: "--profile <file.json>", text: "speak a hub as its profile describes it (public-hub doctor --profile writes one): its envelope, error format, request-id header, award answers, rate-limit fields, leaderboard rows and pages; a flag given beside it wins over the field it sets (default: none)" },
      { flag: "--envelope <key>", text: "wrap every success in { <key>: payload, meta } (default: none)" },
      { flag: "--responses <file.json>", text: "your hub's fixtures: { operation: body } for discovery, hub, leaderboard, holder, stakeStatus, award (default: the mock's shapes)" },
      { flag: "--duplicate-style <s>", text: "a used ref: flag (200 duplicate: true), replay-header (Idempotent-Replayed), 409, 208 (default: flag)" },
      { flag: "--error-format <f>", text: "nested, flat, error-string, problem, problem+json, error-object, errors-array, graphql, nestjs, fastify, fastapi, text, html (default: nested)" },
      { flag: "--rate-limit-headers <s>", text: "how --rate-limit is announced: ietf, ietf-draft7, ietf-legacy, x-ratelimit, none (default: ietf)" },
      { flag: "--request-id-header <name>", text: "the request id's header (default: x-request-id)" },
      { flag: "--signature-status <n>", text: "status of a refused signature: 400, 401, 403 (default: 401)" },
      { flag: "--quiet", text: "no log line per request" },
    ],
    example: "public-hub mock --port 4010 --latency 50 --rate-limit 20",
  },
};

export const USAGE = `Usage: public-hub [global flags] <command> [flags]

Commands:
${Object.entries(COMMANDS)
  .map(([name, help]) => `  ${name.padEnd(12)}${help.summary.split(/(?<=\.) /)[0]}`)
  .join("\n")}

Global flags (before or after the command; flags override the environment):
  --base-url <url>   $HUB_BASE_URL     --client-id <id>  $HUB_CLIENT_ID     --hub <slug>  $HUB_SLUG
  --secret-file <file>  or  $HUB_SECRET  or  $HUB_SIGNING_KEY   (never printed)
  --unwrap <key>   $PUBLIC_HUB_UNWRAP (the key of the payload in the hub's envelope)
  --json   --help, -h   --version, -V

public-hub <command> --help shows a command's flags, defaults and an example.
Exit status: 0 done, 1 some awards or checks failed (or a campaign stopped early), 2 usage or invalid input, 130 interrupted.
`;

/** A command's help text. */
export async function commandHelp(name: string): Promise<string> {
  const help = COMMANDS[name]!;
  const list = typeof help.flags === "function" ? help.flags((await import("public-hub-sdk/server")).CAMPAIGN_DEFAULTS) : help.flags;
  const width = Math.max(...list.map((f) => f.flag.length)) + 2;
  const flags = list.map((f) => `  ${f.flag.padEnd(width)}${f.text}`).join("\n");
  return `Usage: ${help.usage}\n\n${help.summary}\n\nFlags:\n${flags}\n\nExample:\n  ${help.example}\n`;
}
