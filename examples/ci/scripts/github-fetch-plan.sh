#!/usr/bin/env bash
# Merge: downloads the plan the pull request's last successful plan run saved for the commit
# that was reviewed (the artifact `lockstep-plan`), into $LOCKSTEP_OUT (default .lockstep).
# Needs `gh` with GH_TOKEN (actions: read), GH_REPO, HEAD_SHA (the pull request's head commit),
# PLAN_WORKFLOW (the plan workflow's file name, default lockstep-plan.yml).
set -euo pipefail
out="${LOCKSTEP_OUT:-.lockstep}"
run=$(gh run list --repo "$GH_REPO" --workflow "${PLAN_WORKFLOW:-lockstep-plan.yml}" --commit "$HEAD_SHA" \
  --status success --limit 1 --json databaseId --jq '.[0].databaseId // empty')
if [ -z "$run" ]; then
  echo "no successful plan run for $HEAD_SHA: nothing reviewed to apply" >&2
  exit 1
fi
mkdir -p "$out"
gh run download "$run" --repo "$GH_REPO" --name lockstep-plan --dir "$out"
[ -f "$out/plan.json" ] || { echo "run $run saved no plan.json" >&2; exit 1; }
echo "fetched the plan of run $run ($HEAD_SHA)"
