import { HubApiError, HubResponseError } from "public-hub-sdk";

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
  // The SDK names its client option; on a terminal, name the CLI's.
  if (error instanceof HubResponseError && error.problem === "unexpected-shape") described.message += " (public-hub: --unwrap <key> or PUBLIC_HUB_UNWRAP)";
  // The fields the error classes declare, whatever the class: an answer's status, the server's or
  // the system's code (ECONNREFUSED), the fields named (`issues`, {path, message, code}).
  const { status, code, issues } = error as { status?: unknown; code?: unknown; issues?: unknown };
  if (typeof status === "number") described.status = status;
  if (typeof code === "string") described.code = code;
  if (Array.isArray(issues)) described.issues = issues;
  if (error instanceof HubApiError && error.requestId !== undefined) described.requestId = error.requestId;
  return described;
}

/**
 * What a failure is grouped under: its class, status and code, and the fields its issues name with
 * their codes. Never its message, which holds a row's details and each call's attempts and time.
 */
export function causeOf(error: Record<string, unknown>): string {
  const issues = Array.isArray(error.issues) ? (error.issues as Array<{ path: unknown[]; code: string }>).map((issue) => `${issue.path.join(".")}:${issue.code}`) : [];
  return [error.name, error.status, error.code, ...issues].filter((part) => part !== undefined).join(" ");
}
