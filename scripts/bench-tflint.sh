#!/usr/bin/env bash
# TFLint with tflint-ruleset-dynamokeys on a generated module of 200 tables: 100 dynamokeys_sharded_table
# (half of them hot, so every rule has findings to report) and 100 aws_dynamodb_table with two GSIs each,
# beside the same module linted with the plugin disabled; then 20 of the AWS tables as count = 5 blocks (the
# same 100 instances). Median of BENCH_ROUNDS (default 5) interleaved rounds.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tflint="$(bash "${repo_root}/scripts/go-tool.sh" tflint)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
mkdir -p "${work}/plugins"
(cd "${repo_root}" && go build -o "${work}/plugins/tflint-ruleset-dynamokeys" ./cmd/tflint-ruleset-dynamokeys)

sharded() { # $1: name, $2: writes per second
  cat <<HCL
resource "dynamokeys_sharded_table" "$1" {
  name          = "$1"
  partition_key = { name = "pk", template = "DAY#{day}#CUSTOMER#{customer_id}" }
  sort_key      = { name = "sk", template = "ORDER#{order_id}" }
  segments = {
    day         = { kind = "time", granularity = "day" }
    customer_id = { kind = "id", cardinality = 100000 }
    order_id    = { kind = "id", max_length = 36 }
  }
  traffic = { writes_per_second = $2, reads_per_second = 800, item_size_bytes = 1200 }
}

HCL
}

aws() { # $1: name, $2: meta-argument line or empty
  cat <<HCL
resource "aws_dynamodb_table" "$1" {
  $2
  name         = "$1"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  range_key    = "sk"

  attribute {
    name = "pk"
    type = "S"
  }
  attribute {
    name = "sk"
    type = "S"
  }
  attribute {
    name = "status"
    type = "S"
  }
  attribute {
    name = "created_day"
    type = "S"
  }

  global_secondary_index {
    name            = "by_status"
    hash_key        = "status"
    range_key       = "sk"
    projection_type = "ALL"
  }
  global_secondary_index {
    name            = "by_day"
    hash_key        = "created_day"
    range_key       = "sk"
    projection_type = "KEYS_ONLY"
  }
}

HCL
}

mkdir -p "${work}/tables" "${work}/counted"
for i in $(seq 1 100); do
  sharded "orders_${i}" $(((i % 2) * 4000 + 200))
  aws "legacy_${i}" ""
done >"${work}/tables/main.tf"
for i in $(seq 1 100); do sharded "orders_${i}" $(((i % 2) * 4000 + 200)); done >"${work}/counted/main.tf"
for i in $(seq 1 20); do aws "legacy_${i}" "count = 5"; done >>"${work}/counted/main.tf"

printf 'plugin "terraform" {\n  enabled = false\n}\n\nplugin "dynamokeys" {\n  enabled = true\n}\n' >"${work}/on.hcl"
printf 'plugin "terraform" {\n  enabled = false\n}\n' >"${work}/off.hcl"

# run_once DIR CONFIG: one tflint run, in ms; TFLint exits 2 when it found issues.
run_once() {
  local start end
  start=$(date +%s%N)
  TFLINT_PLUGIN_DIR="${work}/plugins" "${tflint}" --chdir "$1" --config "$2" --format json >"${work}/out.json" 2>"${work}/err.txt" || true
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
# issues prints how many issues the last run reported, or fails with TFLint's errors.
issues() {
  python3 - "${work}/out.json" "${work}/err.txt" <<'PY'
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit("bench-tflint: tflint printed no JSON:\n" + open(sys.argv[2]).read())
if report.get("errors"):
    sys.exit("bench-tflint: tflint failed: " + "; ".join(e["message"] for e in report["errors"]))
print(len(report["issues"]))
PY
}

run_once "${work}/tables" "${work}/on.hcl" >/dev/null
found=$(issues)
run_once "${work}/counted" "${work}/on.hcl" >/dev/null
found_counted=$(issues)
[[ "${found}" -gt 0 && "${found_counted}" -gt 0 ]] || { echo "bench-tflint: the plugin reported nothing" >&2; exit 1; }

rounds="${BENCH_ROUNDS:-5}"
[[ "${rounds}" =~ ^[1-9][0-9]*$ ]] || { echo "bench-tflint: BENCH_ROUNDS must be a whole number of at least 1" >&2; exit 1; }
on="" off="" counted=""
for _ in $(seq "${rounds}"); do
  on+="$(run_once "${work}/tables" "${work}/on.hcl") "
  off+="$(run_once "${work}/tables" "${work}/off.hcl") "
  counted+="$(run_once "${work}/counted" "${work}/on.hcl") "
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "tflint on 200 tables (100 dynamokeys_sharded_table, 100 aws_dynamodb_table), median of ${rounds} interleaved rounds:"
echo "  with tflint-ruleset-dynamokeys:         $(median "${on}") ms (${found} issues)"
echo "  without it:                             $(median "${off}") ms"
echo "  20 of the AWS tables as count = 5:      $(median "${counted}") ms (${found_counted} issues)"
