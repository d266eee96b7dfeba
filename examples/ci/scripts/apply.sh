#!/usr/bin/env bash
# Merge: apply exactly the saved plan that was reviewed (lockstep refuses it, exit 1, when the
# manifests or any object it read changed since). Destructive steps need
# LOCKSTEP_ALLOW_DESTRUCTIVE=1, set on purpose for the run that should do them.
#   apply.sh PLANFILE [MANIFEST_PATH...]
# With MANIFEST_PATHs, a plan refused as stale (main moved after the review, or the servers did)
# is handed to replan.sh: planned again here, applied only when it makes exactly the reviewed
# changes. Writes $LOCKSTEP_OUT (default .lockstep)/apply.md, the result as a comment; exits as
# apply did.
set -uo pipefail
plan="$1"
shift
out="${LOCKSTEP_OUT:-.lockstep}"
mkdir -p "$out"
flags=()
[ "${LOCKSTEP_ALLOW_DESTRUCTIVE:-}" = 1 ] && flags+=(--allow-destructive)
lockstep apply "$plan" "${flags[@]}" > "$out/apply.log" 2>&1
status=$?
cat "$out/apply.log"
# lockstep's refusals of a stale plan all begin so; any other failure is reported as it is.
if [ "$status" != 0 ] && [ "$#" -gt 0 ] && grep -q '^error: the saved plan is stale' "$out/apply.log"; then
  exec "$(dirname "$0")/replan.sh" "$plan" "$@"
fi
if [ "$status" = 0 ]; then title='lockstep apply: done'; else title="lockstep apply failed (exit $status)"; fi
# As lockstep writes markdown: what the log quotes stays in code that it cannot close.
lockstep log-comment "$out/apply.log" --title "$title" > "$out/apply.md"
exit "$status"
