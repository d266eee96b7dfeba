#!/usr/bin/env bash
# Installs lockstep from a release tarball, checked against its SHA-256, with exactly the
# dependency releases its lockfile pins:
#   install.sh TARBALL_URL SHA256 [PREFIX]     (PREFIX default: $HOME/.lockstep)
# The tarball is unpacked into PREFIX/lib/lockstep and its dependencies installed there with
# `npm ci` from the npm-shrinkwrap.json it carries (`npm install -g TARBALL` would resolve them
# anew: npm ignores a tarball's shrinkwrap, npm/cli#5349). PREFIX/bin/lockstep is linked, and
# PREFIX/bin added to $GITHUB_PATH when set (GitHub Actions). npm's cache is used as usual:
# cache ~/.npm between jobs, keyed on SHA256.
set -euo pipefail
url="${1:?usage: install.sh TARBALL_URL SHA256 [PREFIX]}"
sum="${2:?usage: install.sh TARBALL_URL SHA256 [PREFIX]}"
prefix="${3:-$HOME/.lockstep}"
[[ "$sum" =~ ^[0-9a-f]{64}$ ]] || { echo "install.sh: the SHA-256 must be 64 lower-case hex digits" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
curl -fsSL --proto '=https,file' -o "$work/lockstep.tgz" "$url"
echo "$sum  $work/lockstep.tgz" | sha256sum --check --quiet || { echo "install.sh: $url does not have SHA-256 $sum: not installed" >&2; exit 1; }
mkdir -p "$work/package"
tar -xzf "$work/lockstep.tgz" -C "$work/package" --strip-components=1
[ -f "$work/package/npm-shrinkwrap.json" ] || { echo "install.sh: the tarball has no npm-shrinkwrap.json: not installed" >&2; exit 1; }
# The package.json's allowScripts lets the native addon (pkcs11js) build, nothing else.
(cd "$work/package" && npm ci --omit=dev --no-audit --no-fund ${LOCKSTEP_NPM_FLAGS:-} >&2)
# Into place once complete: an install that stopped half way leaves the previous one working.
mkdir -p "$prefix/lib" "$prefix/bin"
rm -rf "$prefix/lib/lockstep.old"
[ -d "$prefix/lib/lockstep" ] && mv "$prefix/lib/lockstep" "$prefix/lib/lockstep.old"
mv "$work/package" "$prefix/lib/lockstep"
rm -rf "$prefix/lib/lockstep.old"
ln -sfn ../lib/lockstep/dist/cli.js "$prefix/bin/lockstep"
[ -n "${GITHUB_PATH:-}" ] && echo "$prefix/bin" >> "$GITHUB_PATH"
"$prefix/bin/lockstep" --version >&2
echo "$prefix/bin/lockstep"
