// Starts one of the Python test hubs (serve.py drf|fastapi|flask) from Node, for
// scripts/record-framework-answers.mjs and the e2e scripts: `/usr/bin/python3` (Debian's, where
// test/e2e/framework-hubs/install-python.sh installs the frameworks; not a pyenv python3 first on
// PATH), a free port, its own sqlite directory. Its output is kept, not printed (`output()`), and
// `stop()` ends it by its pid (SIGTERM, then SIGKILL after 10 s) and removes the directory.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
export const PYTHON = "/usr/bin/python3";
export const PYTHON_HUBS = ["drf", "fastapi", "flask"];

/** `start("drf", { env: { HUB_AWARD_RATE: "10/minute" } })` → `{ url, origin, pid, stop, output }` once it listens. */
export async function startPythonHub(name, { env = {}, timeoutMs = 60_000 } = {}) {
  const dbDir = mkdtempSync(join(tmpdir(), `public-hub-${name}-`));
  const child = spawn(PYTHON, [join(here, "serve.py"), name, "--port", "0"], {
    cwd: here,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1", HUB_DB_DIR: dbDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const closed = new Promise((resolve) => child.on("close", (code, signal) => resolve(code ?? signal)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await closed;
      clearTimeout(timer);
    }
    rmSync(dbDir, { recursive: true, force: true });
  };
  try {
    const origin = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the ${name} hub did not listen within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
      child.stdout.on("data", () => {
        const match = /listening on (http:\/\/\S+?)\/api\/v1/.exec(output);
        if (match) clearTimeout(timer), resolve(match[1]);
      });
      child.on("error", (error) => (clearTimeout(timer), reject(error)));
      closed.then((code) => (clearTimeout(timer), reject(new Error(`the ${name} hub exited (${code}) before listening:\n${output}`))));
    });
    return { url: `${origin}/api/v1`, origin, pid: child.pid, stop, output: () => output };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The installed versions of the Python frameworks, by distribution name. */
export function pythonVersions() {
  const script = `import json
from importlib.metadata import version
print(json.dumps({name: version(name) for name in ["Django", "djangorestframework", "fastapi", "pydantic", "starlette", "uvicorn", "Flask", "Flask-Limiter", "limits", "Werkzeug", "gunicorn"]}))`;
  return JSON.parse(execFileSync(PYTHON, ["-c", script], { encoding: "utf8" }));
}
