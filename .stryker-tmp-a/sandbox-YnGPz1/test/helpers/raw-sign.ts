// @ts-nocheck
import { createHash, createHmac } from "node:crypto";

/**
 * A third, test-only signer used to drive the mock with raw fetch, so mock tests do not depend on
 * the SDK's signer. Checked against the shared vectors in test/mock/verify-signature.test.ts.
 */
export function rawSign(secret: string, timestamp: string, method: string, path: string, body: string): string {
  const key = createHash("sha256").update(secret, "utf8").digest("hex");
  return createHmac("sha256", key).update(`${timestamp}.${method.toUpperCase()}.${path}.${body}`, "utf8").digest("hex");
}
