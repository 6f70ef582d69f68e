// @ts-nocheck
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

/**
 * The signing vectors from an independent implementation, in the repository's own copy
 * (test/fixtures): a clone of this repository has nothing outside its tree.
 */
export const vectors: SigningVector[] = JSON.parse(
  readFileSync(fileURLToPath(new URL("../fixtures/signing-vectors.json", import.meta.url)), "utf8"),
);
