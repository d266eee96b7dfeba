#!/usr/bin/env bash
# Schedule: the drift check. Plans against the live servers and writes the plan as markdown to
# $LOCKSTEP_OUT (default .lockstep)/drift.md when the servers moved away from the manifests.
#   drift.sh MANIFEST_PATH...
# Prints `drift=true|false`, writes it to $LOCKSTEP_OUT/drift and, when set, $GITHUB_OUTPUT. Exits 0 either way, 1
# when the check could not be made (an unreachable server, a DR member down, bad manifests).
set -uo pipefail
out="${LOCKSTEP_OUT:-.lockstep}"
mkdir -p "$out"
rm -f "$out/drift.md"
lockstep plan "$@" --detailed-exitcode --format markdown > "$out/drift.plan.md"
status=$?
case "$status" in
  0) drift=false ;;
  2)
    drift=true
    { echo '<!-- lockstep: drift -->'; echo "The servers no longer match the manifests (checked $(date -u +%Y-%m-%dT%H:%MZ))."; echo; cat "$out/drift.plan.md"; } > "$out/drift.md"
    ;;
  *) exit 1 ;;
esac
echo "drift=$drift"
echo "$drift" > "$out/drift"
[ -n "${GITHUB_OUTPUT:-}" ] && echo "drift=$drift" >> "$GITHUB_OUTPUT"
exit 0
