// A real nginx (Debian's nginx-light) in the foreground on a loopback port, with a temporary
// prefix holding its config, pid, logs and temp paths, so it needs nothing of /etc or /var.
// Reusable: extra config snippets go into the `http`, `server` and `location` blocks.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CANDIDATES = ["/usr/sbin/nginx", "/usr/bin/nginx"];

/** The nginx binary and its version line, or undefined when it is not installed. */
export function findNginx() {
  const bin = CANDIDATES.find((path) => existsSync(path));
  if (!bin) return undefined;
  const { stderr } = spawnSync(bin, ["-v"], { encoding: "utf8" });
  return { bin, version: stderr.trim().replace(/^nginx version: /, "") };
}

/** A port free on 127.0.0.1 right now (nginx cannot report the port it got for port 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The access log line format: `method uri status content-encoding upstream-status`. */
const LOG_FORMAT = "'$request_method $request_uri $status $sent_http_content_encoding $upstream_status'";

function config({ prefix, port, upstream, http, server, location }) {
  return `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log info;
events { worker_connections 256; }
http {
  log_format e2e ${LOG_FORMAT};
  access_log ${prefix}/access.log e2e;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  gzip on;
  gzip_proxied any;
  gzip_min_length 0;
  gzip_types application/json application/problem+json;
${http}
  server {
    listen 127.0.0.1:${port};
${server}
    location / {
      proxy_pass ${upstream};
      proxy_http_version 1.1;
${location}
    }
  }
}
`;
}

/**
 * Starts nginx proxying to `upstream` (an origin such as "http://127.0.0.1:4321").
 * Returns `{ origin, port, prefix, pid, version, accessLog(), errorLog(), stop() }`.
 */
export async function startNginx({ upstream, http = "", server = "", location = "" }) {
  const nginx = findNginx();
  if (!nginx) throw new Error("nginx is not installed (bash test/e2e/install-runtimes.sh installs nginx-light)");
  const prefix = mkdtempSync(join(tmpdir(), "hub-nginx-"));
  chmodSync(prefix, 0o755); // workers run as an unprivileged user when the master is root
  let lastError = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    writeFileSync(join(prefix, "nginx.conf"), config({ prefix, port, upstream, http, server, location }));
    const child = spawn(nginx.bin, ["-p", prefix, "-e", join(prefix, "error.log"), "-c", join(prefix, "nginx.conf"), "-g", "daemon off;"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    const ready = await Promise.race([waitForPort(port), exited.then(() => false)]);
    if (ready) {
      const read = (file) => (existsSync(join(prefix, file)) ? readFileSync(join(prefix, file), "utf8") : "");
      return {
        origin: `http://127.0.0.1:${port}`,
        port,
        prefix,
        pid: child.pid,
        version: nginx.version,
        accessLog: () => read("access.log").trim().split("\n").filter(Boolean),
        errorLog: () => read("error.log"),
        stop: async () => {
          if (child.exitCode === null) {
            child.kill("SIGQUIT"); // graceful: the master stops its workers
            const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
            await exited;
            clearTimeout(timer);
          }
          rmSync(prefix, { recursive: true, force: true });
        },
      };
    }
    const log = join(prefix, "error.log");
    lastError = `${stderr}${existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : ""}`;
    child.kill("SIGKILL");
    await exited;
  }
  rmSync(prefix, { recursive: true, force: true });
  throw new Error(`nginx did not start: ${lastError}`);
}

/** Resolves true once something accepts connections on the port (polled for up to 10 s). */
async function waitForPort(port) {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
