#!/usr/bin/env bash
# Schedule: keeps one open issue (label lockstep-drift) while the servers drift.
#   gitlab-drift-issue.sh open FILE   opens the issue with FILE as its description, or updates it
#   gitlab-drift-issue.sh close       closes it (the drift is gone), if there is one
# See gitlab-lib.sh for what it needs.
set -euo pipefail
. "$(dirname "$0")/gitlab-lib.sh"
label=lockstep-drift
iid=$(gl GET "issues?labels=$label&state=opened&per_page=1" | json_pick "it[0]?.iid")
case "$1" in
  open)
    if [ -n "$iid" ]; then
      gl PUT "issues/$iid" --data-urlencode "description@$2" > /dev/null
      echo "updated drift issue #$iid"
    else
      gl POST issues --data-urlencode 'title=lockstep: the servers drift from the manifests' --data-urlencode "labels=$label" --data-urlencode "description@$2" > /dev/null
      echo "opened a drift issue"
    fi
    ;;
  close)
    if [ -n "$iid" ]; then
      gl POST "issues/$iid/notes" --data-urlencode 'body=The servers match the manifests again.' > /dev/null
      gl PUT "issues/$iid" --data-urlencode 'state_event=close' > /dev/null
      echo "closed drift issue #$iid"
    fi
    ;;
  *) echo "usage: gitlab-drift-issue.sh open FILE | close" >&2; exit 1 ;;
esac
