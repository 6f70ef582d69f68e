// @ts-nocheck
import { HttpResponse } from "msw";
import { createHub, type HubError, type HubOptions } from "./hub";

const TYPES: Record<HubError["kind"], [type: string, code: string]> = {
  unauthorized: ["authentication_error", "api_key_invalid"],
  "bad-signature": ["authentication_error", "signature_invalid"],
  forbidden: ["permission_error", "hub_forbidden"],
  "not-found": ["invalid_request_error", "resource_missing"],
  "invalid-award": ["invalid_request_error", "parameter_invalid"],
  "invalid-query": ["invalid_request_error", "parameter_missing"],
  "rate-limited": ["rate_limit_error", "rate_limit"],
};

/**
 * A hub in Stripe's manner: objects with `object`, lists `{ object: "list", data, has_more }`,
 * errors `{ error: { type, code, message, param } }`, a replayed `ref` answered 200 with the first
 * answer's body and `Idempotent-Replayed: true`, a `ref` reused with other parameters answered
 * 400 `idempotency_error` (as Stripe does), `Request-Id`, and `X-RateLimit-Limit/-Remaining/-Reset`
 * (reset as epoch seconds).
 */
export function stripeHub(options: HubOptions = {}) {
  return createHub(
    {
      baseUrl: "https://stripe.hub.test/api/v1",
      requestIdHeader: "Request-Id",
      success: (data, { kind }) => (kind === "object" && "ref" in data ? { object: "award", ...data } : data),
      list: (rows, _limit, total) => ({ object: "list", data: rows, has_more: rows.length < total }),
      error: ({ kind, status, detail, fields }, _requestId) => {
        const [type, code] = TYPES[kind];
        return HttpResponse.json({ error: { type, code, message: detail, ...(fields?.[0] && { param: fields[0].field }) } }, { status });
      },
      duplicate: (original) => HttpResponse.json(original as Record<string, unknown>, { headers: { "Idempotent-Replayed": "true" } }),
      conflict: () =>
        HttpResponse.json(
          { error: { type: "idempotency_error", message: "Keys for idempotent requests can only be used with the same parameters they were first used with.", param: "ref" } },
          { status: 400 },
        ),
      rateHeaders: ({ limit, remaining, resetAt }) => ({
        "X-RateLimit-Limit": String(limit),
        "X-RateLimit-Remaining": String(remaining),
        "X-RateLimit-Reset": String(resetAt),
      }),
    },
    options,
  );
}
