// @ts-nocheck
import { main } from "../../cli/src/main";

/**
 * `public-hub mock --port 0 …` in this process, on a real loopback port: resolves once it printed
 * where it listens, with its output so far and a `stop` that aborts it as Ctrl-C does.
 */
export async function startMock(args: string[] = []) {
  const controller = new AbortController();
  let stdout = "";
  let stderr = "";
  let listening: (origin: string) => void;
  const ready = new Promise<string>((resolve) => (listening = resolve));
  const exit = main(["mock", "--port", "0", ...args], {
    env: {},
    isTTY: false,
    signal: controller.signal,
    stdout: {
      write: (text: string) => {
        stdout += text;
        const origin = /listening on (http:\/\/[^/]+)\/api\/v1/.exec(stdout)?.[1];
        if (origin) listening(origin);
      },
    },
    stderr: { write: (text: string) => (stderr += text) },
  });
  const origin = await Promise.race([ready, exit.then((code) => Promise.reject(new Error(`mock exited ${code}: ${stderr}`)))]);
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    output: () => stdout,
    errors: () => stderr,
    stop: async () => {
      controller.abort(new Error("SIGINT"));
      return exit;
    },
  };
}
