/**
 * The names the SDK records, in one place: OpenTelemetry's HTTP semantic conventions where one
 * exists, `public_hub.*` for the rest. docs/observability.md explains each.
 */
// @ts-nocheck

export const ATTR = {
  method: "http.request.method",
  serverAddress: "server.address",
  serverPort: "server.port",
  urlTemplate: "url.template",
  urlFull: "url.full",
  statusCode: "http.response.status_code",
  errorType: "error.type",
  resendCount: "http.request.resend_count",
  operation: "public_hub.operation",
  hub: "public_hub.hub",
  ref: "public_hub.ref",
  wallet: "public_hub.wallet",
  mayHaveBeenApplied: "public_hub.may_have_been_applied",
  outcome: "public_hub.outcome",
  retryReason: "public_hub.retry.reason",
  waitMs: "public_hub.wait_ms",
} as const;

/** Span event names. */
export const EVENT = {
  retry: "public_hub.retry",
  pause: "public_hub.rate_gate.pause",
  progress: "public_hub.campaign.progress",
} as const;

/** Metric names (no hub, ref or wallet on them: their cardinality has no bound). */
export const METRIC = {
  duration: "public_hub.client.operation.duration",
  retries: "public_hub.client.retries",
  pauses: "public_hub.client.rate_gate.pauses",
} as const;

/** The instrumentation scope: the package's name. */
export const SCOPE = "public-hub-sdk";
