#!/usr/bin/env bash
# Measures what single-table designs cost a real `terraform plan`: 40 dynamokeys_keydesign data sources of
# 10 entities each in two shapes, each planned with every rule on and with every rule disabled, and 40
# one-entity designs with the same indexes:
#  - customer: ten entities in one CUSTOMER#{customer_id} collection writing two overloaded GSIs, four segments,
#    two access patterns per entity;
#  - tenant: ten entities under a shared TENANT#{tenant_id} partition key, each with its own sort-key segment,
#    GSI1 overloaded with E{n}#{id}, a KEYS_ONLY GSI2 on S{n}#{status}, 13 segments, 20 access patterns
#    (internal/policy's tenantDesign, whose findings the tests fix).
# The five configurations are planned in alternating rounds; prints the median wall time of each and the
# ratios (targets: rules on/off at most 1.10 for each shape; entities/one entity at most 2).
# BENCH_BASELINE_REF=<git ref> also plans both shapes, rules on and off, with the provider built from that ref
# in the same rounds, and prints its ratios beside this tree's.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-5}"
designs="${DESIGNS:-40}"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# shellcheck source=scripts/lib.sh
source "${repo_root}/scripts/lib.sh"
use_dev_provider "${work}"

all_rules="$(all_rule_ids)"

common() { # the keys, segments and indexes of the customer shape and the one-entity designs
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

customer() { # ten entities in one CUSTOMER#{customer_id} collection, writing both GSIs, two patterns each
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

tenant() { # the tenant shape: its own keys, indexes and segments
  local n
  cat <<HCL
  partition_key = { name = "PK" }
  sort_key      = { name = "SK" }
  global_secondary_indexes = {
    GSI1 = { partition_key = [{ name = "GSI1PK" }], sort_key = [{ name = "GSI1SK" }] }
    GSI2 = { partition_key = [{ name = "GSI2PK" }], sort_key = [{ name = "GSI2SK" }], projection_type = "KEYS_ONLY" }
  }
  segments = {
    tenant_id = { kind = "id", max_length = 26 }
    id        = { kind = "id", max_length = 26 }
    status    = { kind = "enum", values = ["new", "open", "done", "void"] }
HCL
  for n in $(seq 0 9); do printf '    ref%d      = { kind = "id", max_length = 20 }\n' "${n}"; done
  echo "  }"
  echo "  entities = {"
  for n in $(seq 0 9); do
    printf '    e%d = {\n' "${n}"
    printf '      keys    = { PK = "TENANT#{tenant_id}", SK = "E%d#{ref%d}#{id}", GSI1PK = "E%d#{id}", GSI1SK = "E%d", GSI2PK = "S%d#{status}", GSI2SK = "{tenant_id}#{id}" }\n' \
      "${n}" "${n}" "${n}" "${n}" "${n}"
    printf '      traffic = { writes_per_second = %d, reads_per_second = 20, item_size_bytes = %d, max_items_per_partition_key = 1000 }\n' \
      "$((10 * (n + 1)))" "$((500 + 100 * n))"
    echo "    }"
  done
  echo "  }"
  echo "  access_patterns = {"
  for n in $(seq 0 9); do
    printf '    e%d_of_tenant = { entities = ["e%d"], equals = ["tenant_id"], sort = { on = "ref%d", condition = "begins_with" }, reads_per_second = 5 }\n' "${n}" "${n}" "${n}"
    if ((n % 2 == 0)); then
      printf '    e%d_by_id = { entities = ["e%d"], index = "GSI1", equals = ["id"], reads_per_second = 2 }\n' "${n}" "${n}"
    else
      printf '    e%d_by_status = { entities = ["e%d"], index = "GSI2", equals = ["status"], reads_per_second = 2 }\n' "${n}" "${n}"
    fi
  done
  echo "  }"
}

write_config() { # $1: dir, $2: provider policy block, $3: customer | tenant | table
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
      case "$3" in
        customer) common && customer ;;
        tenant) tenant ;;
        table)
          common | sed -e 's/name = "PK" }/name = "PK", template = "CUSTOMER#{customer_id}" }/' \
            -e 's/name = "SK" }/name = "SK", template = "KIND#{item_id}" }/'
          echo "  traffic = { writes_per_second = $((500 + i)), reads_per_second = 200, max_items_per_partition_key = 1000 }"
          ;;
      esac
      echo "}"
    done
  } >"$1/main.tf"
}

off="policy = { disabled_rules = [${all_rules}] }"
write_config "${work}/customer_on" "" customer
write_config "${work}/customer_off" "${off}" customer
write_config "${work}/tenant_on" "" tenant
write_config "${work}/tenant_off" "${off}" tenant
write_config "${work}/table" "" table
configs=(customer_on customer_off tenant_on tenant_off table)
if [[ -n "${BENCH_BASELINE_REF:-}" ]]; then
  mkdir -p "${work}/src" "${work}/baseline"
  git -C "${repo_root}" archive "${BENCH_BASELINE_REF}" | tar -x -C "${work}/src"
  (cd "${work}/src" && go build -o "${work}/baseline/terraform-provider-dynamokeys" .)
  for c in customer_on customer_off tenant_on tenant_off; do
    mkdir -p "${work}/baseline_${c}"
    cp "${work}/${c}/main.tf" "${work}/baseline_${c}/"
    sed "s|${work}/bin|${work}/baseline|" "${TF_CLI_CONFIG_FILE}" >"${work}/baseline_${c}/terraformrc"
    configs+=("baseline_${c}")
  done
fi

warm_up "${configs[@]/#/${work}/}" # fail on a broken configuration
# Alternate the configurations so that drift in machine load hits each alike.
for _ in $(seq 1 "${runs}"); do
  for c in "${configs[@]}"; do plan_ms "${work}/${c}" >>"${work}/${c}.times"; done
done
declare -A ms
for c in "${configs[@]}"; do ms[${c}]=$(median <"${work}/${c}.times"); done
echo "terraform plan, ${designs} dynamokeys_keydesign data sources, median of ${runs} alternating rounds:"
echo "  customer shape, 10 entities each, rules on:           ${ms[customer_on]} ms"
echo "  customer shape, 10 entities each, all rules disabled: ${ms[customer_off]} ms"
echo "  tenant shape, 10 entities each, rules on:             ${ms[tenant_on]} ms"
echo "  tenant shape, 10 entities each, all rules disabled:   ${ms[tenant_off]} ms"
echo "  one entity each (the customer shape's indexes):       ${ms[table]} ms"
ratio() { awk -v a="$2" -v b="$3" -v label="$1" -v target="$4" 'BEGIN { printf "  %-36s %.3f (target <= %s)\n", label, a / b, target }'; }
ratio "ratio customer rules on/off:" "${ms[customer_on]}" "${ms[customer_off]}" 1.10
ratio "ratio tenant rules on/off:" "${ms[tenant_on]}" "${ms[tenant_off]}" 1.10
ratio "ratio customer entities/one entity:" "${ms[customer_on]}" "${ms[table]}" 2
if [[ -n "${BENCH_BASELINE_REF:-}" ]]; then
  echo "  the provider built from ${BENCH_BASELINE_REF}, in the same rounds:"
  for c in customer_on customer_off tenant_on tenant_off; do echo "    ${c}: ${ms[baseline_${c}]} ms"; done
  ratio "ratio customer rules on/off:" "${ms[baseline_customer_on]}" "${ms[baseline_customer_off]}" 1.10
  ratio "ratio tenant rules on/off:" "${ms[baseline_tenant_on]}" "${ms[baseline_tenant_off]}" 1.10
fi
