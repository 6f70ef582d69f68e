import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface SigningVector {
  secret: string;
  timestamp: string;
  method: string;
  path: string;
  body: string;
  signature: string;
}

/** The shared signing vectors, from an independent implementation (../shared/vectors). */
export const vectors: SigningVector[] = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../shared/vectors/signing.json", import.meta.url)), "utf8"),
);
