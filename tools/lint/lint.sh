#!/usr/bin/env bash
# `npm run lint`: typescript-eslint over src/ and test/, then knip for files and exports in src/
# that nothing uses. Both come from tools/lint's own node_modules (TypeScript 5.9: see package.json).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=tools/lint/node_modules/.bin
if [ ! -x "$bin/eslint" ] || [ ! -x "$bin/knip" ]; then
  echo "lint: tools/lint has no node_modules; run: bash test/setup/install-deps.sh" >&2
  exit 2
fi
"$bin/eslint" --config tools/lint/eslint.config.js src test
# knip reads test/ too (what tests import is used) but reports only src/ (knip.json: ignore).
"$bin/knip" --config tools/lint/knip.json --no-progress
