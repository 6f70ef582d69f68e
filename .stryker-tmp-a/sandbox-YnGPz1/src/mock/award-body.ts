/**
 * The mock's reading of an award body. The spec shows two shapes for this one endpoint:
 * `{ wallet, amount, reason, ref }` and `{ wallet, kind, ref }`. Plain checks, independent of the
 * SDK's schemas, so a too-lenient SDK is caught by the mock's 400.
 */
// @ts-nocheck

export type AwardBody =
  | { wallet: string; ref: string; amount: number; reason?: string }
  | { wallet: string; ref: string; kind: string };

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

export function readAwardBody(json: unknown): AwardBody | string {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return "the body must be a JSON object";
  const body = json as Record<string, unknown>;
  const problems: string[] = [];
  if (!nonEmpty(body.wallet)) problems.push("wallet must be a non-empty string");
  if (!nonEmpty(body.ref)) problems.push("ref must be a non-empty string");
  const hasAmount = body.amount !== undefined;
  const hasKind = body.kind !== undefined;
  if (hasAmount && hasKind) problems.push("send either amount or kind, not both");
  if (!hasAmount && !hasKind) problems.push("amount or kind is required");
  // Number.isFinite is false for anything but a finite number: it does not coerce.
  if (hasAmount && !(Number.isFinite(body.amount) && (body.amount as number) > 0)) {
    problems.push("amount must be a finite number greater than 0");
  }
  if (hasKind && !nonEmpty(body.kind)) problems.push("kind must be a non-empty string");
  if (body.reason !== undefined && typeof body.reason !== "string") problems.push("reason must be a string");
  if (problems.length > 0) return problems.join("; ");
  const { wallet, ref } = body as { wallet: string; ref: string };
  if (hasKind) return { wallet, ref, kind: body.kind as string };
  return { wallet, ref, amount: body.amount as number, ...(typeof body.reason === "string" ? { reason: body.reason } : {}) };
}
