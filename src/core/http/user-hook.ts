/**
 * An error thrown by a user's hook (`onRequest`). It travels through ky wrapped so that it is
 * neither retried nor mistaken for a network failure, and is rethrown unchanged to the caller.
 */
export class UserHookError extends Error {
  override name = "UserHookError" as const;
}

export function callUserHook<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    hook(event);
  } catch (error) {
    // Stryker disable next-line StringLiteral: the wrapper never reaches a caller or a log line: its cause is rethrown
    throw new UserHookError("onRequest hook failed", { cause: error });
  }
}
