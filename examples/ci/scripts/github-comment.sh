#!/usr/bin/env bash
# Posts FILE as the pull request's lockstep comment, or updates the one posted before (found by
# its first line, a hidden marker), so a pull request has one plan comment however often it is
# pushed to. Needs `gh` with GH_TOKEN (pull-requests: write), GH_REPO (owner/name), PR_NUMBER.
#   github-comment.sh FILE [MARKER]   (MARKER default: plan)
set -euo pipefail
file="$1"
marker="<!-- lockstep: ${2:-plan} -->"
body=$(mktemp)
trap 'rm -f "$body"' EXIT
{ echo "$marker"; cat "$file"; } > "$body"
id=$(gh api --paginate "repos/$GH_REPO/issues/$PR_NUMBER/comments" \
  --jq "[.[] | select(.body | startswith(\"$marker\"))][0].id // empty" | head -n 1)
if [ -n "$id" ]; then
  gh api -X PATCH "repos/$GH_REPO/issues/comments/$id" -F "body=@$body" > /dev/null
  echo "updated comment $id on #$PR_NUMBER"
else
  gh api -X POST "repos/$GH_REPO/issues/$PR_NUMBER/comments" -F "body=@$body" > /dev/null
  echo "commented on #$PR_NUMBER"
fi
