#!/usr/bin/env bash
# The demo: start the embedded server, then validate, plan and apply examples/ against it, and
# show that a second plan finds nothing to do. Needs only `npm ci && npm run build` before.
set -euo pipefail
cd "$(dirname "$0")/.."
cli() { node dist/cli.js "$@"; }

port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
data=$(mktemp -d)
token="demo-root-$(node -e 'console.log(require("crypto").randomBytes(12).toString("hex"))')"
cli serve --port "$port" --token "$token" --data "$data" > "$data/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do
  node -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "http://127.0.0.1:$port/v1/sys/health" && break
  sleep 0.1
done

export SERVICE_ADDR="http://127.0.0.1:$port/v1" SERVICE_TOKEN="$token"
export LDAP_BINDPASS="demo-bindpass-$RANDOM"

echo "== lockstep serve: embedded server on $SERVICE_ADDR"
echo "== lockstep validate examples"; cli validate examples
echo "== lockstep plan examples";     cli plan examples
echo "== lockstep apply examples";    cli apply examples --auto-approve
echo "== lockstep plan examples (again: expect no changes)"
cli plan examples --detailed-exitcode
echo "== demo done: the server matches the manifests"
