#!/usr/bin/env bash
# The main job: builds the provider, points Terraform at it with a dev_overrides CLI config in a temp dir,
# and runs apply/output/destroy on examples/quickstart against a local DynamoDB server
# (started and stopped by internal/cmd/with-dynamodb, which sets DYNAMODB_ENDPOINT).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${DYNAMODB_ENDPOINT:?run me through: go run ./internal/cmd/with-dynamodb -- bash scripts/demo.sh}"

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

echo "==> building the provider"
# shellcheck source=scripts/lib.sh
source "${repo_root}/scripts/lib.sh"
use_dev_provider "${work}" # dev_overrides: the fresh build, without a registry or `terraform init`
use_local_aws

color=()
[[ -t 1 ]] || color=(-no-color)
run() { echo; echo "==> $(basename "${tf}") $*"; "${tf}" "$@" "${color[@]}"; }
say() { printf '\n### %s\n' "$*"; }

say "1. A hot design: every event of a day under one partition key (examples/scenarios/daily-event-log)"
cp -r "${repo_root}/examples/scenarios/daily-event-log" "${work}/hot"
cd "${work}/hot"
if run plan -compact-warnings; then
  echo "demo: the hot design was expected to fail its plan" >&2
  exit 1
fi
say "   The plan failed before any API call, naming the rules, the numbers and the remedies."

say "2. The fixed design: calculated sharding (examples/quickstart), applied to a local DynamoDB at ${DYNAMODB_ENDPOINT}"
cp -r "${repo_root}/examples/quickstart" "${work}/quickstart"
cd "${work}/quickstart"
run apply -auto-approve -compact-warnings -var "endpoint=${DYNAMODB_ENDPOINT}"

say "3. The report: key layout, capacity, and per-shard demand against the partition limits"
run output -raw report
run output routing
run output example_key

say "4. Clean up"
echo; echo "==> $(basename "${tf}") destroy -auto-approve"
"${tf}" destroy -auto-approve -compact-warnings -var "endpoint=${DYNAMODB_ENDPOINT}" "${color[@]}" >"${work}/destroy.log" 2>&1 ||
  { cat "${work}/destroy.log"; exit 1; }
grep -E "Destruction complete|Destroy complete" "${work}/destroy.log"
say "Demo finished; the local DynamoDB server is stopped next."
