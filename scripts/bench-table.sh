#!/usr/bin/env bash
# Table benchmarks against local servers:
#  1. waiter overshoot: `terraform apply` of one table on dynalite with createTableMs=2000 minus the same
#     with createTableMs=0 (target: at most 2.5 s, i.e. the 2 s transition plus < 0.5 s of polling slack);
#  2. `terraform plan` (refresh included) of 50 tables on dynoxide with the rules on and with every rule
#     disabled (evaluation skipped): the difference is the share of wall time spent in policy evaluation.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
# shellcheck source=scripts/lib.sh
source "${repo_root}/scripts/lib.sh"
use_dev_provider "${work}"
(cd "${repo_root}" && go build -o "${work}/with-dynamodb" ./internal/cmd/with-dynamodb)
use_local_aws

table_hcl() { # $1: resource name, $2: table name
  cat <<HCL
resource "dynamokeys_sharded_table" "$1" {
  name                = "$2"
  deletion_protection = false
  partition_key       = { name = "pk", template = "DAY#{day}#SHARD#{shard}" }
  sort_key            = { name = "sk", template = "EVENT#{event_id}" }
  segments            = { day = { kind = "time", granularity = "day" }, event_id = { kind = "id" } }
  sharding            = { strategy = "calculated", source = "event_id" }
  traffic             = { writes_per_second = 2500, reads_per_second = 400 }
  global_secondary_indexes = {
    by_customer = { partition_key = [{ name = "customerId", cardinality = 1000000 }] }
  }
}
HCL
}

write_config() { # $1: dir, $2: table count, $3: provider policy block
  mkdir -p "$1"
  {
    printf 'terraform {\n  required_providers {\n    dynamokeys = { source = "dynamokeys/dynamokeys" }\n  }\n}\n'
    printf 'variable "endpoint" { type = string }\nprovider "dynamokeys" {\n  endpoint = var.endpoint\n  %s\n}\n' "$3"
    for i in $(seq 1 "$2"); do table_hcl "t${i}" "bench-table-${i}"; done
  } > "$1/main.tf"
}

ms_now() { date +%s%N | awk '{print int($1 / 1000000)}'; }

# 1. Waiter overshoot.
write_config "${work}/one" 1 ""
apply_ms() { # $1: createTableMs
  cat > "${work}/apply.sh" <<SH
set -euo pipefail
cd "${work}/one"
rm -f terraform.tfstate*
start=\$(date +%s%N)
"${tf}" apply -auto-approve -no-color -var "endpoint=\${DYNAMODB_ENDPOINT}" >"${work}/apply.log" 2>&1 || { tail -30 "${work}/apply.log"; exit 1; }
end=\$(date +%s%N)
echo \$(((end - start) / 1000000)) > "${work}/elapsed"
"${tf}" destroy -auto-approve -no-color -var "endpoint=\${DYNAMODB_ENDPOINT}" >/dev/null 2>&1
SH
  "${work}/with-dynamodb" -server dynalite -create-table-ms "$1" -- bash "${work}/apply.sh" 2>/dev/null
  cat "${work}/elapsed"
}
fast=$(apply_ms 0)
slow=$(apply_ms 2000)
echo "terraform apply of one table on dynalite:"
echo "  createTableMs=0:    ${fast} ms"
echo "  createTableMs=2000: ${slow} ms"
echo "  difference:         $((slow - fast)) ms (target <= 2500)"

# 2. Plan of 50 tables: wall time, and the time the provider logged for policy evaluations.
write_config "${work}/on" 50 ""
cat > "${work}/plan.sh" <<SH
set -euo pipefail
cd "${work}/on"
"${tf}" apply -auto-approve -no-color -var "endpoint=\${DYNAMODB_ENDPOINT}" >"${work}/apply50.log" 2>&1 || { tail -30 "${work}/apply50.log"; exit 1; }
for run in 1 2 3 4 5; do
  rm -f "${work}/provider.log"
  start=\$(date +%s%N)
  TF_LOG_PROVIDER=DEBUG TF_LOG_PATH="${work}/provider.log" "${tf}" plan -no-color -var "endpoint=\${DYNAMODB_ENDPOINT}" >/dev/null 2>&1
  end=\$(date +%s%N)
  eval_us=\$(grep -o 'duration_us=[0-9]*' "${work}/provider.log" | awk -F= '{s += \$2} END {print s + 0}')
  evals=\$(grep -c 'dynamokeys policy evaluation' "${work}/provider.log" || true)
  echo "\$(((end - start) / 1000000)) \$((eval_us / 1000)) \${evals}" >> "${work}/plans"
done
cd "${work}/on" && "${tf}" destroy -auto-approve -no-color -var "endpoint=\${DYNAMODB_ENDPOINT}" >/dev/null 2>&1
SH
"${work}/with-dynamodb" -server dynoxide -- bash "${work}/plan.sh" 2>/dev/null
sort -n "${work}/plans" | awk '{a[NR]=$0} END {split(a[int((NR+1)/2)], m, " ");
  printf "terraform plan of 50 tables (refresh included), median of %d:\n  wall time: %d ms\n  policy evaluation: %d ms over %d evaluations (%.1f%% of the plan)\n", NR, m[1], m[2], m[3], m[2] * 100 / m[1] }'
