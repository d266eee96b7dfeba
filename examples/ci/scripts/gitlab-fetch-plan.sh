#!/usr/bin/env bash
# Merge (a pipeline on the default branch): downloads the plan that the merge request's last
# successful pipeline saved for the commit that was reviewed (job lockstep-plan, artifact
# .lockstep/plan.json) into $LOCKSTEP_OUT (default .lockstep), and the merge request's number
# into merge-request there (for the note with the result). Needs CI_COMMIT_SHA (the merge
# commit) and see gitlab-lib.sh. PLAN_JOB names the plan job (default lockstep-plan).
set -euo pipefail
. "$(dirname "$0")/gitlab-lib.sh"
out="${LOCKSTEP_OUT:-.lockstep}"
read -r iid head < <(gl GET "repository/commits/$CI_COMMIT_SHA/merge_requests" | json_pick "(m => m && m.iid + ' ' + m.sha)(it.find((m) => m.state === 'merged'))")  || true
[ -n "${iid:-}" ] || { echo "no merged merge request for $CI_COMMIT_SHA: nothing reviewed to apply" >&2; exit 1; }
# The newest pipeline first: the last one that planned the reviewed head commit.
pipeline=$(gl GET "merge_requests/$iid/pipelines" | HEAD_SHA="$head" json_pick "it.find((p) => p.sha === process.env.HEAD_SHA && p.status === 'success')?.id")
[ -n "$pipeline" ] || { echo "no successful pipeline of !$iid for its head $head" >&2; exit 1; }
job=$(gl GET "pipelines/$pipeline/jobs?scope%5B%5D=success&per_page=100" | PLAN_JOB="${PLAN_JOB:-lockstep-plan}" json_pick "it.find((j) => j.name === process.env.PLAN_JOB)?.id")
[ -n "$job" ] || { echo "pipeline $pipeline has no successful ${PLAN_JOB:-lockstep-plan} job" >&2; exit 1; }
mkdir -p "$out"
gl GET "jobs/$job/artifacts/.lockstep/plan.json" -o "$out/plan.json"
echo "$iid" > "$out/merge-request"
echo "fetched the plan of job $job (pipeline $pipeline, !$iid at $head)"
