#!/usr/bin/env bash
# The demo: start the embedded server, then validate, plan and apply examples/ against it, and
# show that a second plan finds nothing to do; then rehearse a DR bootstrap (examples/dr) on
# three emulated clusters. Needs only `npm ci && npm run build` before.
set -euo pipefail
cd "$(dirname "$0")/.."
cli() { node dist/cli.js "$@"; }

port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
data=$(mktemp -d)
token="demo-root-$(node -e 'console.log(require("crypto").randomBytes(12).toString("hex"))')"
# Managed keys: SoftHSM2 stands in for an HSM where it is installed (a token in the temp dir,
# named to the server as kms_library "softhsm"); elsewhere the pkcs11 example is left out. The
# cloud examples are only configured, never signed with (they would need real credentials).
export HSM_PIN="demo-pin-$RANDOM$RANDOM" PROVA_SECRET_KEY="demo-placeholder" PROVB_CLIENT_SECRET="demo-placeholder"
kms_flags=()
example_paths=(examples/policies examples/ldap examples/snapshots examples/managed-keys)
softhsm_lib=$(ls /usr/lib/softhsm/libsofthsm2.so /usr/lib/*/softhsm/libsofthsm2.so /usr/lib64/softhsm/libsofthsm2.so /usr/local/lib/softhsm/libsofthsm2.so 2>/dev/null | head -n 1 || true)
if command -v softhsm2-util > /dev/null 2>&1 && [ -n "$softhsm_lib" ]; then
  export SOFTHSM2_CONF="$data/softhsm2.conf" LOCKSTEP_KMS_LIBRARIES="softhsm=$softhsm_lib"
  mkdir -p "$data/softhsm-tokens"
  printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$data/softhsm-tokens" > "$SOFTHSM2_CONF"
  softhsm2-util --init-token --free --label lockstep-demo --so-pin "so-$RANDOM$RANDOM" --pin "$HSM_PIN" > /dev/null
  kms_flags=(--kms-library "softhsm=$softhsm_lib")
else
  echo "== skipping examples/managed-keys/pkcs11 (softhsm2 not installed)"
  example_paths=(examples/policies examples/ldap examples/snapshots examples/managed-keys/cloud)
fi
# node itself in the background (not the cli function's subshell), so $! is the server's PID.
node dist/cli.js serve --port "$port" --token "$token" --data "$data" "${kms_flags[@]}" > "$data/serve.log" 2>&1 &
server=$!
# Keeps the demo's own exit status (the stopped server's 143 must not become the demo's).
dr_server=""
trap 'status=$?; kill $server $dr_server 2>/dev/null || true; wait $server $dr_server 2>/dev/null || true; rm -rf "$data"; exit $status' EXIT
# Waits (up to a minute) until a command succeeds; fails with the server's log if it exits first.
wait_for() { # PID LOG COMMAND...
  local pid=$1 log=$2; shift 2
  for _ in $(seq 1 600); do
    "$@" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { echo "the server stopped:"; cat "$log"; return 1; }
    sleep 0.1
  done
  echo "the server did not answer in time:"; cat "$log"; return 1
}
healthy() { node -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$1/sys/health"; }
wait_for "$server" "$data/serve.log" healthy "http://127.0.0.1:$port/v1"

export SERVICE_ADDR="http://127.0.0.1:$port/v1" SERVICE_TOKEN="$token"
export LDAP_BINDPASS="demo-bindpass-$RANDOM"
export SNAPSHOT_DIR="$data/snapshots"   # where examples/snapshots has the server write snapshots

echo "== lockstep serve: embedded server on $SERVICE_ADDR"
echo "== lockstep validate ${example_paths[*]}"; cli validate "${example_paths[@]}"
echo "== lockstep plan examples";     cli plan "${example_paths[@]}"
echo "== lockstep apply examples";    cli apply "${example_paths[@]}" --auto-approve
echo "== lockstep plan examples (again: expect no changes)"
cli plan "${example_paths[@]}" --detailed-exitcode
echo "== lockstep check examples/snapshots (the destination, and the policy's health on the server)"
cli check examples/snapshots
if [ ${#kms_flags[@]} -gt 0 ]; then
  echo "== lockstep check examples/managed-keys/pkcs11 (the HSM's token, PIN and key, straight from lockstep)"
  cli check examples/managed-keys/pkcs11
fi

# DR: three emulated clusters; east's root key shares (from --init-out) generate the DR operation
# tokens a step needs. Bootstrap enables east as primary and wipes west and south to follow it.
dr_port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
node dist/cli.js serve --clusters east,west,south --port "$dr_port" --key-shares 3 --key-threshold 2 \
  --init-out "$data/dr-init.json" --data "$data/dr" > "$data/dr-serve.log" 2>&1 &
dr_server=$!
wait_for "$dr_server" "$data/dr-serve.log" test -s "$data/dr-init.json"
eval "$(node -e '
  const init = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).clusters;
  for (const [name, c] of Object.entries(init)) {
    const N = name.toUpperCase();
    console.log(`export ${N}_ADDR=${c.address} ${N}_TOKEN=${c.root_token}`);
  }
  init.east.key_shares.forEach((s, i) => console.log(`export DR_KEY_SHARE_${i + 1}=${s}`));
' "$data/dr-init.json")"
for addr in "$EAST_ADDR" "$WEST_ADDR" "$SOUTH_ADDR"; do wait_for "$dr_server" "$data/dr-serve.log" healthy "$addr"; done
echo "== DR rehearsal: lockstep serve --clusters east,west,south"
echo "== lockstep plan examples/dr";   cli plan examples/dr
echo "== lockstep apply examples/dr --allow-destructive (enabling a secondary wipes it)"
cli apply examples/dr --auto-approve --allow-destructive
echo "== lockstep plan examples/dr (again: expect no changes)"
cli plan examples/dr --detailed-exitcode
echo "== demo done: the servers match the manifests (a failover rehearsal is in docs/dr-runbook.md)"
