// Node, Bun and Deno run this file from the consumer project, importing the packed package by
// name through each runtime's own resolution of its `exports`.
import { tracingChannel } from "node:diagnostics_channel";
import * as sdk from "public-hub-sdk";
import * as server from "public-hub-sdk/server";
import { runChecks } from "./checks.mjs";

const env = globalThis.process?.env ?? globalThis.Deno?.env.toObject();
const results = await runChecks({ sdk, server, baseUrl: env.HUB_E2E_BASE_URL, runtime: env.HUB_E2E_RUNTIME, expectSigner: "node:crypto" });

// The public-hub-sdk:call TracingChannel (issue 26), as a tool that knows only its name hears it:
// `end` is published when the call has started (its promise returned), the rest when it settles.
try {
  const events = [];
  const handlers = Object.fromEntries(["start", "end", "asyncStart", "asyncEnd", "error"].map((kind) => [kind, (call) => events.push({ kind, operation: call.operation, urlTemplate: call.urlTemplate, attempts: call.attempts, status: call.status, error: call.error?.name, verdict: call.mayHaveBeenApplied })]));
  const channel = tracingChannel("public-hub-sdk:call");
  channel.subscribe(handlers);
  const options = { baseUrl: env.HUB_E2E_BASE_URL, clientId: "pk_alpha_demo", hub: "alpha" };
  await new sdk.HubClient(options).getHub();
  await new server.HubServerClient({ ...options, clientId: "pk_beta_demo", secret: "demo-secret-alpha" }).awardPoints({ wallet: "0x1", amount: 1, reason: "r", ref: `channel:${Date.now()}` }).catch(() => undefined);
  channel.unsubscribe(handlers);
  const seen = JSON.stringify(events);
  const expected = JSON.stringify([
    { kind: "start", operation: "getHub", urlTemplate: "/hub/{slug}", attempts: 0 },
    { kind: "end", operation: "getHub", urlTemplate: "/hub/{slug}", attempts: 0 },
    { kind: "asyncStart", operation: "getHub", urlTemplate: "/hub/{slug}", attempts: 1, status: 200 },
    { kind: "asyncEnd", operation: "getHub", urlTemplate: "/hub/{slug}", attempts: 1, status: 200 },
    { kind: "start", operation: "awardPoints", urlTemplate: "/hub/{slug}/bits/earn", attempts: 0 },
    { kind: "end", operation: "awardPoints", urlTemplate: "/hub/{slug}/bits/earn", attempts: 0 },
    { kind: "error", operation: "awardPoints", urlTemplate: "/hub/{slug}/bits/earn", attempts: 1, status: 403, error: "ForbiddenError", verdict: false },
    { kind: "asyncStart", operation: "awardPoints", urlTemplate: "/hub/{slug}/bits/earn", attempts: 1, status: 403, error: "ForbiddenError", verdict: false },
    { kind: "asyncEnd", operation: "awardPoints", urlTemplate: "/hub/{slug}/bits/earn", attempts: 1, status: 403, error: "ForbiddenError", verdict: false },
  ]);
  results.push(seen === expected ? { name: "diagnostics channel public-hub-sdk:call", ok: true } : { name: "diagnostics channel public-hub-sdk:call", ok: false, error: `heard ${seen}` });
} catch (error) {
  results.push({ name: "diagnostics channel public-hub-sdk:call", ok: false, error: String(error?.stack ?? error) });
}
console.log(JSON.stringify(results));
