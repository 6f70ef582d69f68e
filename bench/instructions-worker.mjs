// Runs one signer N times, for `valgrind --tool=callgrind` to count instructions (see run.mjs).
// Every variant awaits each call, so the SDK and the baseline pay the same loop cost.
import { webcrypto } from "node:crypto";
import { signRequest } from "../dist/server/index.js";

const [variant, count] = [process.argv[2], Number(process.argv[3])];
const KEY = "91ee6a067442e07ac0984926504d93fc4a3c00277745d27cc9be451133ad65ec";
const PATH = "/api/v1/hub/alpha/bits/earn";
const BODY = JSON.stringify({ wallet: "0x5e5bd2a4c89737010ede2ecf8bca2388637e5e89", amount: 797141, reason: "quest complete", ref: "quest-42:0x5e5bd2a4c8" });
const input = { timestamp: "1751007723", method: "POST", path: PATH, body: BODY, signingKey: KEY };
// Built per call, as any signer must: the timestamp changes with every request.
const payload = () => `${input.timestamp}.POST.${input.path}.${input.body}`;
const importKey = () => webcrypto.subtle.importKey("raw", new TextEncoder().encode(KEY), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
const subtleKey = await importKey();
const rawSign = async (key) => Buffer.from(await webcrypto.subtle.sign("HMAC", key, new TextEncoder().encode(payload()))).toString("hex");

const variants = {
  "web-sdk": () => signRequest(input),
  "web-raw": async () => rawSign(await importKey()),
  "web-raw-imported": () => rawSign(subtleKey),
};
const run = variants[variant];
for (let i = 0; i < count; i++) await run();
