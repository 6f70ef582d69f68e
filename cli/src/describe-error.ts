import { HubApiError } from "../core/errors/hub-api-error";

/** An error as plain data for `--json` and for the failure list: name, message, and what the server said. */
export function describeError(error: Error): Record<string, unknown> {
  const described: Record<string, unknown> = { name: error.name, message: error.message };
  if (error instanceof HubApiError) {
    described.status = error.status;
    if (error.code !== undefined) described.code = error.code;
    if (error.requestId !== undefined) described.requestId = error.requestId;
  }
  return described;
}
