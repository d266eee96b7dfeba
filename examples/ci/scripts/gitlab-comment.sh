#!/usr/bin/env bash
# Posts FILE as the merge request's lockstep note, or updates the one posted before (found by
# its first line, a hidden marker): one plan note per merge request however often it is pushed.
# Needs CI_MERGE_REQUEST_IID (set in merge request pipelines) and see gitlab-lib.sh.
#   gitlab-comment.sh FILE [MARKER]   (MARKER default: plan)
set -euo pipefail
. "$(dirname "$0")/gitlab-lib.sh"
file="$1"
marker="<!-- lockstep: ${2:-plan} -->"
body=$(mktemp)
trap 'rm -f "$body"' EXIT
{ echo "$marker"; cat "$file"; } > "$body"
notes="merge_requests/$CI_MERGE_REQUEST_IID/notes"
id=$(gl GET "$notes?per_page=100&sort=asc&order_by=created_at" | MARKER="$marker" json_pick "it.find((n) => typeof n.body === 'string' && n.body.startsWith(process.env.MARKER))?.id")
if [ -n "$id" ]; then
  gl PUT "$notes/$id" --data-urlencode "body@$body" > /dev/null
  echo "updated note $id on !$CI_MERGE_REQUEST_IID"
else
  gl POST "$notes" --data-urlencode "body@$body" > /dev/null
  echo "commented on !$CI_MERGE_REQUEST_IID"
fi
