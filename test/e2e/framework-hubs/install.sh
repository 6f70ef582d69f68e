#!/usr/bin/env bash
# Installs the server frameworks the Node test hubs are written on (test/e2e/framework-hubs/*.mjs)
# from the npm registry into .tmp/framework-hubs, pinned to the versions
# scripts/record-framework-answers.mjs records. The hubs resolve them with createRequire from that
# directory. Runs again only when the list below changes. npm blocks install scripts by default;
# none of these needs one.
set -euo pipefail
cd "$(dirname "$0")/../../.."
dir=.tmp/framework-hubs
packages=(
  express@5.3.0
  express-rate-limit@7.5.1
  fastify@5.12.8
  @fastify/rate-limit@11.2.0
  @nestjs/core@11.2.10
  @nestjs/common@11.2.10
  @nestjs/platform-express@11.2.10
  reflect-metadata@0.2.2
  rxjs@7.8.2
  class-validator@0.15.1
  class-transformer@0.5.1
  hono@4.13.19
  @hono/node-server@2.1.9
  @hono/zod-validator@0.9.1
  zod@4.6.7
)
mkdir -p "$dir"
if [ ! -f "$dir/.done" ] || [ "$(cat "$dir/.done")" != "${packages[*]}" ]; then
  printf '{"private":true,"allowScripts":{}}\n' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error --save-exact "${packages[@]}")
  echo "${packages[*]}" > "$dir/.done"
fi
