// @ts-nocheck
import { HubApiError } from "public-hub-sdk";

/** An error as plain data for `--json` and for the failure list: name, message, and what the server said. */
export function describeError(error: Error): Record<string, unknown> {
  const described: Record<string, unknown> = { name: error.name, message: error.message };
  if (error instanceof HubApiError && error.signing) {
    // "See error.signing." is for code; on a terminal, say how to look at what was signed.
    described.message = error.message.replace(
      "See error.signing.",
      `To see the exact string signed and its signature: public-hub sign --timestamp ${error.signing.timestamp} --body '<the award as JSON>'.`,
    );
  }
  if (error instanceof HubApiError) {
    described.status = error.status;
    if (error.code !== undefined) described.code = error.code;
    if (error.requestId !== undefined) described.requestId = error.requestId;
  }
  return described;
}

/** What a failure is grouped under: its kind and the server's status and code, not its row's details. */
export function causeOf(error: Record<string, unknown>): string {
  return [error.name, error.status, error.code].filter((part) => part !== undefined).join(" ");
}
