#!/usr/bin/env bash
# Pull request: plan once, save it, print it in the log, and write the comment to post.
#   plan.sh MANIFEST_PATH...
# Writes $LOCKSTEP_OUT (default .lockstep)/plan.json (the saved plan: no secret in it) and
# comment.md (the markdown comment, or the error when planning failed), and `changes=true|false`
# to $GITHUB_OUTPUT when set. Exits 0 whether or not there are changes, 1 when planning failed.
set -uo pipefail
out="${LOCKSTEP_OUT:-.lockstep}"
mkdir -p "$out"
rm -f "$out/plan.json" "$out/comment.md"
lockstep plan "$@" --out "$out/plan.json" --detailed-exitcode 2> "$out/plan.err"
status=$?
cat "$out/plan.err" >&2
case "$status" in
  0 | 2)
    lockstep show "$out/plan.json" --format markdown > "$out/comment.md" || exit 1
    changes=$([ "$status" = 2 ] && echo true || echo false)
    [ -n "${GITHUB_OUTPUT:-}" ] && echo "changes=$changes" >> "$GITHUB_OUTPUT"
    exit 0
    ;;
  *)
    # lockstep's diagnostics hold no secret (file:line:column and addresses): show them to the
    # reviewer, as lockstep writes markdown (what they quote stays in code that it cannot close).
    lockstep log-comment "$out/plan.err" --title 'lockstep plan failed' > "$out/comment.md"
    exit 1
    ;;
esac
