// What a call threw, for tests that look at the error itself.

/** The error `run` throws or rejects with; a test failure if it returns. */
export const caught = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
};

/** The error `promise` rejects with, or undefined if it resolves. */
export const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);
