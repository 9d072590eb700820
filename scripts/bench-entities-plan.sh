#!/usr/bin/env bash
# Measures what single-table designs cost a real `terraform plan`: 40 dynamokeys_keydesign data sources of
# 10 entities each (two overloaded GSIs, 20 access patterns), planned with every rule on and with every rule
# disabled, against 40 one-entity designs with the same indexes. Prints the median wall time of each and the
# two ratios (targets: rules on/off at most 1.10; entities/one entity at most 2).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-11}"
designs="${DESIGNS:-40}"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# shellcheck source=scripts/lib.sh
source "${repo_root}/scripts/lib.sh"
use_dev_provider "${work}"

all_rules="$(all_rule_ids)"

common() { # the table's keys, segments and indexes, shared by both shapes
  cat <<HCL
  partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  segments = {
    customer_id = { kind = "id", max_length = 26 }
    item_id     = { kind = "id", max_length = 26 }
    day         = { kind = "time", granularity = "day" }
    status      = { kind = "enum", values = ["new", "open", "done"] }
  }
  global_secondary_indexes = {
    GSI1 = { partition_key = [{ name = "GSI1PK" }], sort_key = [{ name = "GSI1SK" }] }
    GSI2 = { partition_key = [{ name = "GSI2PK" }], sort_key = [{ name = "GSI2SK" }], projection_type = "KEYS_ONLY" }
  }
HCL
}

entities() { # ten entities in one CUSTOMER#{customer_id} collection, writing both GSIs, two patterns each
  local gsi1=("DAY#{day}" "STATUS#{status}" "ITEM#{item_id}") e
  echo "  entities = {"
  for e in $(seq 0 9); do
    printf '    kind%02d = {\n' "${e}"
    printf '      keys = { PK = "CUSTOMER#{customer_id}", SK = "KIND%02d#{item_id}", GSI1PK = "%s", GSI1SK = "KIND%02d#{item_id}", GSI2PK = "KIND%02d#{customer_id}", GSI2SK = "{item_id}" }\n' \
      "${e}" "${gsi1[$((e % 3))]}" "${e}" "${e}"
    printf '      traffic = { writes_per_second = %d, reads_per_second = 20, item_size_bytes = %d, max_items_per_partition_key = 100 }\n' \
      "$((10 * (e + 1)))" "$((500 + 100 * e))"
    echo "    }"
  done
  echo "  }"
  echo "  access_patterns = {"
  for e in $(seq 0 9); do
    printf '    kind%02d_of_customer = { entities = ["kind%02d"], equals = ["customer_id"], sort = { on = "item_id", condition = "begins_with" }, reads_per_second = 5 }\n' "${e}" "${e}"
    printf '    kind%02d_by_customer = { entities = ["kind%02d"], index = "GSI2", equals = ["customer_id"], reads_per_second = 2 }\n' "${e}" "${e}"
  done
  echo "  }"
}

write_config() { # $1: dir, $2: provider policy block, $3: entities | table
  mkdir -p "$1"
  {
    echo 'terraform {'
    echo '  required_providers {'
    echo '    dynamokeys = { source = "dynamokeys/dynamokeys" }'
    echo '  }'
    echo '}'
    echo 'provider "dynamokeys" {'
    echo "  $2"
    echo '}'
    for i in $(seq 1 "${designs}"); do
      echo "data \"dynamokeys_keydesign\" \"t${i}\" {"
      if [[ "$3" == entities ]]; then
        common
        entities
      else
        common | sed -e 's/name = "PK" }/name = "PK", template = "CUSTOMER#{customer_id}" }/' \
          -e 's/name = "SK" }/name = "SK", template = "KIND#{item_id}" }/'
        echo "  traffic = { writes_per_second = $((500 + i)), reads_per_second = 200, max_items_per_partition_key = 1000 }"
      fi
      echo "}"
    done
  } >"$1/main.tf"
}

write_config "${work}/on" "" entities
write_config "${work}/off" "policy = { disabled_rules = [${all_rules}] }" entities
write_config "${work}/table" "" table

plan_ms() { # $1: dir; one plan's wall time in ms
  local start end
  start=$(date +%s%N)
  (cd "$1" && "${tf}" plan -no-color -refresh=false >/dev/null 2>&1)
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for dir in on table; do # warm-up; fail on a broken configuration
  (cd "${work}/${dir}" && "${tf}" plan -no-color >"${work}/warmup.log" 2>&1) || { tail -40 "${work}/warmup.log"; exit 1; }
done
# Alternate the configurations so that drift in machine load hits each alike.
for _ in $(seq 1 "${runs}"); do
  plan_ms "${work}/on" >>"${work}/on.times"
  plan_ms "${work}/off" >>"${work}/off.times"
  plan_ms "${work}/table" >>"${work}/table.times"
done
on=$(median <"${work}/on.times")
off=$(median <"${work}/off.times")
table=$(median <"${work}/table.times")
echo "terraform plan, ${designs} dynamokeys_keydesign data sources, median of ${runs}:"
echo "  10 entities each, rules on:           ${on} ms"
echo "  10 entities each, all rules disabled: ${off} ms"
echo "  one entity each (same indexes):       ${table} ms"
awk -v on="${on}" -v off="${off}" 'BEGIN { printf "  ratio rules on/off:          %.3f (target <= 1.10)\n", on / off }'
awk -v on="${on}" -v t="${table}" 'BEGIN { printf "  ratio entities/one entity:   %.3f (target <= 2)\n", on / t }'
