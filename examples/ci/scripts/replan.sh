#!/usr/bin/env bash
# Merge, when lockstep refused the reviewed plan as stale (apply.sh hands it here): `main` moved
# after the review (another merge), or the servers did. Plans again on this commit and applies
# that plan only when it makes exactly the reviewed changes (`lockstep show --same-as`: the same
# addresses, actions, values and order, on the same servers): an unrelated change on main is
# no reason to stop. Otherwise nothing is changed: the new plan, with what differs from the
# reviewed one, becomes the comment, and the job fails asking for a review of it.
#   replan.sh REVIEWED_PLANFILE MANIFEST_PATH...
# Writes $LOCKSTEP_OUT (default .lockstep)/replan.json (the new plan) and apply.md (the comment);
# exits 0 when applied, 1 otherwise.
set -uo pipefail
reviewed="$1"
shift
out="${LOCKSTEP_OUT:-.lockstep}"
fresh="$out/replan.json"
flags=()
[ "${LOCKSTEP_ALLOW_DESTRUCTIVE:-}" = 1 ] && flags+=(--allow-destructive)
comment() { lockstep log-comment "$1" --title "$2" > "$out/apply.md"; }

echo 'The reviewed plan is stale: planning again on this commit.'
lockstep plan "$@" --out "$fresh" > "$out/replan.log" 2>&1
status=$?
cat "$out/replan.log"
if [ "$status" != 0 ]; then
  comment "$out/replan.log" 'lockstep apply: the reviewed plan is stale, and planning again failed (nothing changed)'
  exit 1
fi

lockstep show "$fresh" --same-as "$reviewed" --format markdown > "$out/replan.md" 2> "$out/replan.diff"
status=$?
case "$status" in
  0)
    echo 'The new plan makes exactly the reviewed changes: applying it.'
    lockstep apply "$fresh" "${flags[@]}" > "$out/apply.log" 2>&1
    status=$?
    cat "$out/apply.log"
    if [ "$status" = 0 ]; then title='lockstep apply: done (planned again on the merge commit: exactly the reviewed changes)'; else title="lockstep apply failed (exit $status)"; fi
    comment "$out/apply.log" "$title"
    exit "$status"
    ;;
  2)
    cat "$out/replan.diff" >&2
    comment "$out/replan.diff" 'lockstep apply: not applied, the plan on the merge commit is not the reviewed one'
    {
      echo
      echo 'Nothing was changed. `main` moved after the review (or the servers did), and planned on the'
      echo 'merge commit the changes are no longer exactly those reviewed. This is the plan now: have it'
      echo 'reviewed in a new pull request (its plan job shows it again), which applies it when merged.'
      echo
      cat "$out/replan.md"
    } >> "$out/apply.md"
    echo 'Not applied: the new plan is not the reviewed one (see the comment).' >&2
    exit 1
    ;;
  *)
    cat "$out/replan.diff" >&2
    comment "$out/replan.diff" 'lockstep apply: the reviewed plan is stale, and comparing the new plan with it failed (nothing changed)'
    exit 1
    ;;
esac
