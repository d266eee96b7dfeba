# Shared by the gitlab-*.sh scripts (sourced): GitLab's REST API with curl, JSON read with node
# (which lockstep needs anyway, so the job image has it). Needs CI_API_V4_URL and CI_PROJECT_ID
# (GitLab sets both) and GITLAB_TOKEN (a project access token with the api scope: the job token
# may not write notes or issues).
project_api="$CI_API_V4_URL/projects/$CI_PROJECT_ID"

# gl METHOD PATH [curl args...]: one API call, the answer on stdout; fails on an error status.
gl() {
  local method="$1" path="$2"
  shift 2
  curl --silent --show-error --fail-with-body -X "$method" -H "PRIVATE-TOKEN: $GITLAB_TOKEN" "$@" "$project_api/$path"
}

# json_pick EXPRESSION: evaluates a JavaScript expression over the JSON on stdin (bound to `it`)
# and prints the result, or nothing for undefined/null.
json_pick() {
  node -e '
    let text = "";
    process.stdin.on("data", (d) => (text += d)).on("end", () => {
      const it = JSON.parse(text);
      const v = new Function("it", `return (${process.argv[1]});`)(it);
      if (v !== undefined && v !== null) console.log(String(v));
    });' "$1"
}
