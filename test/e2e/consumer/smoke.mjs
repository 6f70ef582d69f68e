// Node, Bun and Deno run this file from the consumer project, importing the packed package by
// name through each runtime's own resolution of its `exports`.
import * as sdk from "public-hub-sdk";
import * as server from "public-hub-sdk/server";
import { runChecks } from "./checks.mjs";

const env = globalThis.process?.env ?? globalThis.Deno?.env.toObject();
const results = await runChecks({ sdk, server, baseUrl: env.HUB_E2E_BASE_URL, runtime: env.HUB_E2E_RUNTIME, expectSigner: "webcrypto" });

console.log(JSON.stringify(results));
