#!/usr/bin/env bash
# Installs redis-server from Debian for the queue e2e (test/e2e/queue-campaign.mjs), when missing.
# The test starts its own redis-server in the foreground on a free loopback port; the service the
# package sets up is not used (and is not started in containers without an init system).
set -euo pipefail
if ! command -v redis-server > /dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server > /dev/null
fi
redis-server --version
