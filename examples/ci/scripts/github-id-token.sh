#!/usr/bin/env bash
# GitHub Actions: the job's OIDC identity token, for lockstep's JWT login (no service token is
# kept in the repository's secrets). Needs the job's `permissions: id-token: write`, which makes
# GitHub set ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN.
#   github-id-token.sh [AUDIENCE]   (default: lockstep, the role's bound_audiences)
# Writes the token to $RUNNER_TEMP/lockstep-id-token (owner-only; the runner empties RUNNER_TEMP
# after the job) and SERVICE_AUTH_JWT_FILE naming it to $GITHUB_ENV, for the steps after this
# one. Prints nothing of the token. The token is short-lived: request it just before lockstep runs.
set -euo pipefail
audience="${1:-lockstep}"
[ -n "${ACTIONS_ID_TOKEN_REQUEST_URL:-}" ] && [ -n "${ACTIONS_ID_TOKEN_REQUEST_TOKEN:-}" ] || {
  echo 'github-id-token.sh: no ID token to request: give the job `permissions: id-token: write` (pull requests from forks get none)' >&2
  exit 1
}
[[ "$audience" =~ ^[A-Za-z0-9._:/-]+$ ]] || { echo 'github-id-token.sh: the audience may hold letters, digits and . _ : / - only' >&2; exit 1; }
file="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/lockstep-id-token"
umask 077
# The request token goes in a header read from a file descriptor, never on a command line.
curl --silent --show-error --fail -H @<(printf 'Authorization: bearer %s\n' "$ACTIONS_ID_TOKEN_REQUEST_TOKEN") \
  "$ACTIONS_ID_TOKEN_REQUEST_URL&audience=$audience" |
  node -e '
    let text = "";
    process.stdin.on("data", (d) => (text += d)).on("end", () => {
      let value;
      try { value = JSON.parse(text).value; } catch {}
      if (typeof value !== "string" || value.split(".").length !== 3) {
        console.error("github-id-token.sh: the ID token service answered without a token");
        process.exit(1);
      }
      require("node:fs").writeFileSync(process.argv[1], value, { mode: 0o600 });
    });' "$file"
echo "SERVICE_AUTH_JWT_FILE=$file" >> "${GITHUB_ENV:?GITHUB_ENV is not set (not on GitHub Actions)}"
echo "an ID token for audience $audience is in $file (SERVICE_AUTH_JWT_FILE)"
