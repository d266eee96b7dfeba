#!/usr/bin/env bash
# Prints the directory of an unpacked Node 24 (bin/node, include/node), fetched once from the npm
# registry (`node-linux-<arch>` ships the binary and headers) and kept in a cache outside the
# repository, so CI's second run and every later one start at once. Usage: node24.sh [MAJOR]
set -euo pipefail
major="${1:-24}"
cache_root="${LOCKSTEP_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lockstep}"
dir="$cache_root/node$major"
if [ ! -x "$dir/bin/node" ] || [ ! -d "$dir/include/node" ]; then
  arch=$(node -p process.arch)
  mkdir -p "$cache_root"
  work=$(mktemp -d "$cache_root/.node$major.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-$arch@$major" >/dev/null)
  tar -xzf "$work"/node-linux-"$arch"-*.tgz -C "$work"
  got=$("$work/package/bin/node" --version)
  case "$got" in
    "v$major".*) ;;
    *) echo "node$major.sh: the package gave Node $got, not $major" >&2; exit 1 ;;
  esac
  # Into place in one rename: a run that stopped half way leaves no half-unpacked Node behind.
  rm -rf "$dir"
  mv "$work/package" "$dir"
fi
echo "$dir"
