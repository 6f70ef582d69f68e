// @ts-nocheck
import { HttpResponse } from "msw";
import { createHub, type HubOptions } from "./hub";

/**
 * A hub as a Rails app would write it: bare objects, the leaderboard as `{ items, total }`, bad
 * input 422 `{ errors: [{ code, detail, source: { pointer } }] }` (a missing query parameter 400),
 * other errors flat `{ code, message }`, a used `ref` answered `409 { code: "ref_already_used",
 * message: "ref already exists" }` and one reused with other parameters 409 `ref_conflict` (whose
 * message says "already used" too: a conflict stays a conflict whatever else it says),
 * `X-Request-Id`, and the older `RateLimit-Limit/-Remaining/-Reset` (reset in seconds).
 */
export function railsHub(options: HubOptions = {}) {
  return createHub(
    {
      baseUrl: "https://rails.hub.test/api/v1",
      requestIdHeader: "X-Request-Id",
      success: (data) => data,
      list: (rows, _limit, total) => ({ items: rows, total }),
      error: ({ kind, status, detail, fields }) => {
        if (!fields) return HttpResponse.json({ code: kind.replace(/-/g, "_"), message: detail }, { status });
        const errors = fields.map((f) => ({ code: "invalid", detail: f.detail, source: { pointer: `/${f.field}` } }));
        return HttpResponse.json({ errors }, { status: kind === "invalid-award" ? 422 : status });
      },
      duplicate: () => HttpResponse.json({ code: "ref_already_used", message: "ref already exists" }, { status: 409 }),
      conflict: (ref) => HttpResponse.json({ code: "ref_conflict", message: `ref ${ref} already used with different parameters` }, { status: 409 }),
      rateHeaders: ({ limit, remaining, resetSeconds }) => ({
        "RateLimit-Limit": String(limit),
        "RateLimit-Remaining": String(remaining),
        "RateLimit-Reset": String(resetSeconds),
      }),
    },
    options,
  );
}
