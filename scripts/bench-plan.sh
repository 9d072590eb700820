#!/usr/bin/env bash
# Measures what the policies cost a real `terraform plan`: a configuration of 100 dynamokeys_keydesign
# data sources, planned with every rule on and with every rule disabled (evaluation skipped). Prints
# the median wall time of each and their ratio (target: at most 1.10).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-11}"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# shellcheck source=scripts/lib.sh
source "${repo_root}/scripts/lib.sh"
use_dev_provider "${work}"

all_rules="$(all_rule_ids)"

write_config() { # $1: dir, $2: provider policy block
  mkdir -p "$1"
  {
    echo "terraform {"
    echo "  required_providers {"
    echo "    dynamokeys = { source = \"dynamokeys/dynamokeys\" }"
    echo "  }"
    echo "}"
    echo "provider \"dynamokeys\" {"
    echo "  $2"
    echo "}"
    for i in $(seq 1 100); do
      cat <<HCL
data "dynamokeys_keydesign" "t${i}" {
  partition_key = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key      = { name = "sk", template = "EVENT#{event_id}" }
  segments = {
    day      = { kind = "time", granularity = "day" }
    event_id = { kind = "id" }
  }
  sharding = { strategy = "calculated", source = "event_id" }
  traffic  = { writes_per_second = $((1000 + i * 20)), reads_per_second = 400, max_items_per_partition_key = 100000 }
  local_secondary_indexes = { by_created = { sort_key = { name = "created", type = "N" }, projection_type = "KEYS_ONLY" } }
  global_secondary_indexes = {
    by_customer = { partition_key = [{ name = "customerId", cardinality = 1000000 }] }
    by_region   = { partition_key = [{ name = "region", cardinality = 20 }, { name = "customerId", cardinality = 1000000 }] }
  }
}
HCL
    done
  } > "$1/main.tf"
}

write_config "${work}/on" ""
write_config "${work}/off" "policy = { disabled_rules = [${all_rules}] }"

warm_up "${work}/on" # fail on a broken config
# Alternate the two configurations so that drift in machine load hits both alike.
for _ in $(seq 1 "${runs}"); do
  plan_ms "${work}/on" >>"${work}/on.times"
  plan_ms "${work}/off" >>"${work}/off.times"
done
on=$(median <"${work}/on.times")
off=$(median <"${work}/off.times")
echo "terraform plan, 100 dynamokeys_keydesign data sources, median of ${runs}:"
echo "  rules on:           ${on} ms"
echo "  all rules disabled: ${off} ms"
awk -v on="${on}" -v off="${off}" 'BEGIN { printf "  ratio on/off:       %.3f (target <= 1.10)\n", on / off }'
