#!/usr/bin/env bash
# Installs the Python frameworks the Python test hubs (test/e2e/framework-hubs/python/) are written
# on, from Debian's own packages (bookworm: Django 3.2 + Django REST framework 3.14, FastAPI 0.92 on
# pydantic 1.10 and uvicorn, Flask 2.2 + Flask-Limiter 3.3, gunicorn). They go into Debian's
# /usr/bin/python3, which is what the hubs and scripts/record-framework-answers.mjs run (not a
# pyenv or venv python3 that may come first on PATH). Idempotent: a no-op once every package is
# installed; `apt-get update` only when an install fails (a fresh machine's empty index). Needs
# root, or sudo without a password (CI).
set -euo pipefail
packages=(
  python3-django
  python3-djangorestframework
  gunicorn
  python3-fastapi
  python3-pydantic
  python3-starlette
  python3-uvicorn
  python3-flask
  python3-flask-limiter
)
missing=()
for package in "${packages[@]}"; do
  if [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)" != "install ok installed" ]; then missing+=("$package"); fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
export DEBIAN_FRONTEND=noninteractive
install() { "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; }
if ! install; then
  "${sudo[@]}" apt-get update -qq
  install
fi
/usr/bin/python3 -c 'import django, rest_framework, fastapi, flask, flask_limiter, uvicorn'
