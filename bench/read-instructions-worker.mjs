// Runs N reads for `valgrind --tool=callgrind` to count instructions (see run.mjs): the SDK's
// `getHolder` against ky alone with its defaults (`ky.get(url).json()`, the same headers), both on
// the same canned `fetch`, so the count is each client's own work, without the network or the load.
// `read-sdk-zod` is the same read validated by a small zod object (the client's `schemas.holder`).
import ky from "ky";
import * as z from "zod";
import { HubClient } from "../dist/index.js";

const body = JSON.stringify({ hub: "alpha", wallet: "0x1", holder: true, tokens: 3 });
const fetch = async () => new Response(body, { status: 200, headers: { "content-type": "application/json" } });
const base = "http://127.0.0.1:9/api/v1";
const sdk = new HubClient({ baseUrl: base, clientId: "pk_bench", hub: "alpha", fetch });
const holderSchema = z.object({ hub: z.string(), wallet: z.string(), holder: z.boolean(), tokens: z.number() });
const validated = new HubClient({ baseUrl: base, clientId: "pk_bench", hub: "alpha", fetch, schemas: { holder: holderSchema } });
const headers = { "x-api-key": "pk_bench" };
let n = 0; // every read asks for another wallet: nothing is shared
const variants = {
  "read-sdk": () => sdk.getHolder(`0x${n++}`),
  "read-sdk-zod": () => validated.getHolder(`0x${n++}`),
  "read-ky": () => ky.get(`${base}/hub/alpha/holder/0x${n++}`, { fetch, headers }).json(),
};
const [variant, count] = [process.argv[2], Number(process.argv[3])];
for (let i = 0; i < count; i++) await variants[variant]();
