// What every real-world check asks of a failed write that may have reached the server.
export const WALLET = "0x1111111111111111111111111111111111111111";
export const credentials = { clientId: "pk_alpha_demo", hub: "alpha" };
export const secret = "demo-secret-alpha";

/** The error says the write may have been applied and that retrying with the same ref is safe. */
export function saysMaybeApplied(error) {
  return error?.mayHaveBeenApplied === true && /retry/i.test(error.message) && /same\W+ref/i.test(error.message);
}
