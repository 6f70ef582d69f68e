import { createHash, createHmac, createSecretKey } from "node:crypto";
import type { HmacBackend } from "./backend";

/** `node:crypto`: synchronous and much faster than WebCrypto for small payloads on Node. */
export const nodeBackend: HmacBackend = {
  sha256Hex: (text) => createHash("sha256").update(text, "utf8").digest("hex"),
  signerFor: (key) => {
    // A KeyObject is prepared once; every signature reuses it.
    const keyObject = createSecretKey(Buffer.from(key, "utf8"));
    return (payload) => createHmac("sha256", keyObject).update(payload, "utf8").digest("hex");
  },
};
