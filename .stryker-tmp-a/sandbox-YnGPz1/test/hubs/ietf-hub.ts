// @ts-nocheck
import { HttpResponse } from "msw";
import { createHub, type HubError, type HubOptions } from "./hub";

export interface IetfHubOptions extends HubOptions {
  /** How a used `ref` (same parameters) is answered: a 409 `duplicate-ref` problem, or `208 Already Reported` with the first answer. @default "409" */
  duplicateAs?: "409" | "208";
}

/**
 * A hub that follows the standards: every success in `{ data, meta }`, snake_case fields, errors as
 * RFC 9457 `application/problem+json` with `errors[]` of `pointer`/`detail`, a used `ref` answered
 * 409 `…/problems/duplicate-ref` (other parameters: 409 `…/problems/ref-conflict`), `Request-Id`,
 * and the IETF RateLimit fields (`RateLimit-Policy: "default";q=20;w=1`, `RateLimit: "default";r=…;t=…`).
 */
export function ietfHub(options: IetfHubOptions = {}) {
  const problems = "https://ietf.hub.test/problems";
  const problem = (status: number, body: Record<string, unknown>, requestId: string) =>
    HttpResponse.json({ ...body, status, instance: `/requests/${requestId}` }, { status, headers: { "content-type": "application/problem+json" } });
  return createHub(
    {
      baseUrl: "https://ietf.hub.test/api/v1",
      requestIdHeader: "Request-Id",
      success: (data, { requestId }) => ({ data, meta: { request_id: requestId } }),
      list: (rows, limit, total) => ({ rows, limit, total }),
      error: ({ kind, status, title, detail, fields }: HubError, requestId) =>
        problem(status, { type: `${problems}/${kind}`, title, detail, ...(fields && { errors: fields.map((f) => ({ pointer: `#/${f.field}`, detail: f.detail })) }) }, requestId),
      duplicate: (original, award, requestId) =>
        options.duplicateAs === "208"
          ? HttpResponse.json(original as Record<string, unknown>, { status: 208 })
          : problem(409, { type: `${problems}/duplicate-ref`, title: "Duplicate ref", detail: `ref ${award.ref} was already credited (award ${award.id})` }, requestId),
      conflict: (ref, requestId) =>
        problem(409, { type: `${problems}/ref-conflict`, title: "Conflict", detail: `ref ${ref} is already used by another award with different parameters` }, requestId),
      rateHeaders: ({ limit, remaining, resetSeconds, windowSeconds }) => ({
        "RateLimit-Policy": `"default";q=${limit};w=${windowSeconds}`,
        RateLimit: `"default";r=${remaining};t=${resetSeconds}`,
      }),
    },
    options,
  );
}
