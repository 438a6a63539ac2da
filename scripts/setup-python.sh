#!/usr/bin/env bash
# The reference values several unit tests compare against come from Debian's Python with numpy,
# pandas, scikit-learn and scipy (/usr/bin/python3). `npm test` runs this first: on a fresh
# Debian machine it installs them with apt-get (as root, or with passwordless sudo); elsewhere it
# names the packages to install and fails, so the tests that need them do not fail one by one.
set -uo pipefail
PY=/usr/bin/python3
check() { "$PY" -c 'import numpy, pandas, sklearn, scipy' >/dev/null 2>&1; }
check && exit 0
PACKAGES="python3-sklearn python3-pandas python3-scipy"
if command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif sudo -n true >/dev/null 2>&1; then SUDO="sudo -n"; else SUDO="none"; fi
  if [ "$SUDO" != "none" ]; then
    echo "[setup-python] installing Debian's $PACKAGES (reference values for the unit tests)"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq >/dev/null && $SUDO apt-get install -y -qq $PACKAGES >/dev/null
    check && exit 0
    echo "[setup-python] apt-get ran, but $PY still cannot import numpy, pandas, sklearn and scipy" >&2
    exit 1
  fi
fi
echo "[setup-python] $PY cannot import numpy, pandas, sklearn and scipy, which the unit tests' reference values need: install Debian's $PACKAGES (apt-get install $PACKAGES) and run the tests again" >&2
exit 1
