import { describe, expect, it } from "vitest";
import type { HubErrorFormat } from "public-hub-sdk";
import { errorFormat, errorFormatOf } from "../../cli/src/error-format";
import corpus from "../fixtures/framework-answers.json";

// One body per format, as the type's JSDoc shows it (parsed JSON, or the text when it is not JSON).
const BODIES: Array<[HubErrorFormat, unknown]> = [
  ["nested", { error: { code: "invalid_award", message: "wallet is required" } }],
  ["flat", { code: "invalid_award", message: "wallet is required" }],
  ["error-string", { error: "invalid_award", message: "wallet is required" }],
  ["problem", { type: "about:blank", title: "Bad Request", status: 400, detail: "wallet is required" }],
  ["problem", { title: "Bad Request", status: 400, detail: "no type: about:blank by default" }],
  ["problem+json", { type: "https://hub.example.com/problems/invalid-award", title: "Bad Request", status: 400, detail: "…", errors: [{ pointer: "#/wallet", detail: "is required" }] }],
  ["problem+json", { type: "https://hub.example.com/problems/not-found", title: "Not Found", status: 404, detail: "No such endpoint." }],
  ["error-object", { error: { type: "invalid_request_error", code: "invalid_award", message: "wallet is required", param: "wallet" } }],
  ["errors-array", { errors: [{ code: "invalid_award", detail: "is required", source: { pointer: "/wallet" } }] }],
  ["graphql", { errors: [{ message: "wallet is required", extensions: { code: "BAD_USER_INPUT" } }] }],
  ["nestjs", { statusCode: 400, error: "Bad Request", message: ["wallet should not be empty"] }],
  ["fastify", { statusCode: 400, code: "FST_ERR_VALIDATION", error: "Bad Request", message: "body must have required property 'wallet'" }],
  ["fastapi", { detail: "Not Found" }],
  ["fastapi", { detail: [{ loc: ["body", "wallet"], msg: "Field required", type: "missing" }] }],
  ["text", "wallet is required"],
  ["html", "<!doctype html><html><body><h1>400 Bad Request</h1></body></html>"],
  ["html", "<html>\r\n<head><title>502 Bad Gateway</title></head></html>"],
];

const recorded = (framework: string, name: string) => {
  const answer = corpus.answers.find((entry) => entry.framework.startsWith(framework) && entry.name === name);
  if (!answer) throw new Error(`no recorded answer "${name}" of ${framework}`);
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    return answer.body;
  }
};

describe("errorFormat: the shape of an error body, as a HubErrorFormat names it", () => {
  it.each(BODIES)("%s: %j", (format, body) => {
    expect(errorFormat(body)).toBe(format);
  });

  it("a body of no known shape, an empty text or a non-object is no format", () => {
    for (const body of [{ ok: false }, "", "  ", null, 42, [{ code: "x" }], { errors: [] }]) expect(errorFormat(body)).toBeUndefined();
  });

  it("the recorded framework answers: Fastify's validation error is fastify, NestJS's are nestjs, express's and Hono's texts are text", () => {
    expect(errorFormat(recorded("fastify", "validation error"))).toBe("fastify");
    // Fastify's 404 and 429 carry no `code`: alone, they are NestJS's shape.
    expect(errorFormat(recorded("fastify", "no such route"))).toBe("nestjs");
    for (const name of ["ValidationPipe 400", "ConflictException 409", "no such route"]) expect(errorFormat(recorded("@nestjs/core", name))).toBe("nestjs");
    // express-rate-limit sends its text as text/html: the body is read, not the content-type.
    for (const mode of ["draft-6", "draft-7", "draft-8", "legacy"]) expect(errorFormat(recorded(`express-rate-limit@7.5.1 ${mode}`, "over the limit"))).toBe("text");
    expect(errorFormat(recorded("hono", "HTTPException 409"))).toBe("text");
  });
});

describe("errorFormatOf: the hub's format from several of its error bodies", () => {
  it("Fastify's 404 without a code is still Fastify's when its validation error is among the answers", () => {
    expect(errorFormatOf([recorded("fastify", "no such route"), recorded("fastify", "validation error")])).toBe("fastify");
    expect(errorFormatOf([recorded("@nestjs/core", "no such route"), recorded("@nestjs/core", "ValidationPipe 400")])).toBe("nestjs");
  });

  it("a JSON shape wins over a router's text or HTML page, whatever the order", () => {
    expect(errorFormatOf(["404 Not Found", { error: { code: "invalid_award", message: "…" } }])).toBe("nested");
    expect(errorFormatOf(["<html><body>404</body></html>", "404 Not Found"])).toBe("html");
  });

  it("a plain problem is problem+json when another answer has a type of its own; otherwise the first shape is the hub's", () => {
    const plain = { type: "about:blank", title: "Not Found", status: 404 };
    expect(errorFormatOf([plain, { type: "https://x/problems/invalid-award", title: "Bad Request", status: 400 }])).toBe("problem+json");
    expect(errorFormatOf([plain])).toBe("problem");
    expect(errorFormatOf([{ code: "a", message: "b" }, { error: "a" }])).toBe("flat");
    expect(errorFormatOf([{ ok: false }])).toBeUndefined();
  });
});

describe("the Python and Hono hubs' recorded answers", () => {
  it("zod-validator's body is no format the mock writes; DRF's and FastAPI's detail is fastapi's; Flask's pages are html; Hono's own refusals are text", () => {
    expect(errorFormat(recorded("hono@4.13.19 @hono/zod-validator", "field error (bad wallet)"))).toBeUndefined();
    expect(errorFormatOf([recorded("hono@4.13.19 @hono/zod-validator", "bad signature"), recorded("hono@4.13.19 @hono/zod-validator", "field error (bad wallet)"), recorded("hono@4.13.19 @hono/zod-validator", "unknown path")])).toBe("text");
    expect(errorFormatOf([recorded("djangorestframework", "bad signature"), recorded("djangorestframework", "field error (bad wallet)"), recorded("djangorestframework", "unknown path")])).toBe("fastapi");
    expect(errorFormatOf([recorded("flask", "bad signature"), recorded("flask", "unknown path")])).toBe("html");
  });
});
