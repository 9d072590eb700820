#!/usr/bin/env bash
# Regenerates the dynamokeys_sharded_table and dynamokeys_keydesign plan fixtures in internal/policy/testdata/plans with the real
# Terraform CLI and this provider: `terraform plan -out` then `terraform show -json`, against a local
# dynoxide for the update case. Run: go run ./internal/cmd/with-dynamodb -- bash scripts/plan-fixtures.sh
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${DYNAMODB_ENDPOINT:?run me through: go run ./internal/cmd/with-dynamodb -- bash scripts/plan-fixtures.sh}"
out_dir="${repo_root}/internal/policy/testdata/plans"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# shellcheck source=scripts/lib.sh
source "${repo_root}/scripts/lib.sh"
use_dev_provider "${work}"
use_local_aws

header() {
  cat <<HCL
terraform {
  required_providers {
    dynamokeys = { source = "dynamokeys/dynamokeys" }
  }
}
provider "dynamokeys" {
  # The endpoint comes from AWS_ENDPOINT_URL_DYNAMODB, set by with-dynamodb.
}
HCL
}

# table NAME PK_TEMPLATE SHARDING TRAFFIC [EXTRA]
table() {
  cat <<HCL
resource "dynamokeys_sharded_table" "$1" {
  name                = "$1"
  deletion_protection = false
  enforce             = false
  partition_key       = { name = "pk", template = "$2" }
  sort_key            = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id", max_length = 36 }
  }
  sharding = $3
  traffic  = $4
  global_secondary_indexes = {
    by_customer = { partition_key = [{ name = "customerId", cardinality = 1000000 }], sort_key = [{ name = "createdAt" }] }
  }
  ${5:-}
}
HCL
}

# snapshot CASE: plan the working directory and write the plan JSON fixture.
snapshot() {
  "${tf}" plan -no-color -out="${work}/plan.bin" >"${work}/plan.log" 2>&1 || { cat "${work}/plan.log"; exit 1; }
  "${tf}" show -json "${work}/plan.bin" | python3 -m json.tool --indent 1 > "${out_dir}/$1.json"
  echo "wrote internal/policy/testdata/plans/$1.json"
}

good_sharding='{ strategy = "calculated", source = "event_id" }'
traffic='{ writes_per_second = 2500, reads_per_second = 400, item_size_bytes = 800 }'

mkdir -p "${work}/create" && cd "${work}/create"
{ header; table events_good 'DAY#{day}#SHARD#{shard}' "${good_sharding}" "${traffic}"
  table events_hot 'DAY#{day}' '{ strategy = "none" }' "${traffic}"
  # A data source read while planning: the plan carries it in prior_state, not in resource_changes.
  cat <<'HCL'
data "dynamokeys_keydesign" "orders_by_status" {
  enforce       = false
  partition_key = { name = "pk", template = "STATUS#{status}" }
  segments      = { status = { kind = "enum", values = ["open", "shipped"] } }
  traffic       = { writes_per_second = 50 }
}
HCL
} > main.tf
snapshot sharded_create

mkdir -p "${work}/unknown" && cd "${work}/unknown"
{ header; cat <<'HCL'
resource "terraform_data" "measured" {
  input = 2500
}
HCL
  table events_unknown 'DAY#{day}#SHARD#{shard}' "${good_sharding}" '{ writes_per_second = terraform_data.measured.output }'; } > main.tf
snapshot sharded_unknown

mkdir -p "${work}/update" && cd "${work}/update"
{ header; table events_live 'DAY#{day}#SHARD#{shard}' '{ strategy = "calculated", source = "event_id", count = 4 }' "${traffic}"; } > main.tf
"${tf}" apply -auto-approve -no-color >"${work}/apply.log" 2>&1 || { cat "${work}/apply.log"; exit 1; }
{ header; table events_live 'DAY#{day}#SHARD#{shard}' '{ strategy = "calculated", source = "event_id", count = 8 }' "${traffic}" 'tags = { team = "data" }'; } > main.tf
snapshot sharded_update
"${tf}" destroy -auto-approve -no-color >/dev/null 2>&1
