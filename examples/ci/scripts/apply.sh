#!/usr/bin/env bash
# Merge: apply exactly the saved plan that was reviewed (lockstep refuses it, exit 1, when the
# manifests or any object it read changed since). Destructive steps need
# LOCKSTEP_ALLOW_DESTRUCTIVE=1, set on purpose for the run that should do them.
#   apply.sh PLANFILE
# Writes $LOCKSTEP_OUT (default .lockstep)/apply.md, the result as a comment; exits as apply did.
set -uo pipefail
plan="$1"
out="${LOCKSTEP_OUT:-.lockstep}"
mkdir -p "$out"
flags=()
[ "${LOCKSTEP_ALLOW_DESTRUCTIVE:-}" = 1 ] && flags+=(--allow-destructive)
lockstep apply "$plan" "${flags[@]}" > "$out/apply.log" 2>&1
status=$?
cat "$out/apply.log"
if [ "$status" = 0 ]; then title='lockstep apply: done'; else title="lockstep apply failed (exit $status)"; fi
# As lockstep writes markdown: what the log quotes stays in code that it cannot close.
lockstep log-comment "$out/apply.log" --title "$title" > "$out/apply.md"
exit "$status"
