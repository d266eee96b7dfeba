#!/usr/bin/env bash
# Schedule: keeps one open issue (label lockstep-drift) while the servers drift.
#   github-drift-issue.sh open FILE   opens the issue with FILE as its body, or updates it
#   github-drift-issue.sh close       closes it (the drift is gone), if there is one
# Needs `gh` with GH_TOKEN (issues: write) and GH_REPO.
set -euo pipefail
label=lockstep-drift
number=$(gh issue list --repo "$GH_REPO" --label "$label" --state open --limit 1 --json number --jq '.[0].number // empty')
case "$1" in
  open)
    if [ -n "$number" ]; then
      gh issue edit "$number" --repo "$GH_REPO" --body-file "$2" > /dev/null
      echo "updated drift issue #$number"
    else
      gh label create "$label" --repo "$GH_REPO" --force --color d93f0b --description 'lockstep found the servers drifting from the manifests' > /dev/null
      gh issue create --repo "$GH_REPO" --title 'lockstep: the servers drift from the manifests' --label "$label" --body-file "$2"
    fi
    ;;
  close)
    if [ -n "$number" ]; then
      gh issue close "$number" --repo "$GH_REPO" --comment 'The servers match the manifests again.' > /dev/null
      echo "closed drift issue #$number"
    fi
    ;;
  *) echo "usage: github-drift-issue.sh open FILE | close" >&2; exit 1 ;;
esac
