#!/usr/bin/env bash
# conftest on a generated plan with 1,000 aws_dynamodb_table and 1,000 dynamokeys_sharded_table changes
# (copies of the committed fixtures under new addresses and table names): the full bundle against
# baselines on the same plan, and against half the plan to show the cost grows linearly with the tables;
# then a plan of 20,000 resource changes of which 20 are tables, against the one-rule policy.
# The bundle is timed twice: as the release archive holds it (scripts/policy-bundle.sh: no *_test.rego,
# what `conftest pull` fetches) and as policies/ of the source tree, whose tests conftest parses and
# compiles too although `conftest test` never runs them.
# BENCH_BASELINE_REF=<git ref> also times the bundle of that ref, alternating runs with this tree's, to compare
# two versions on one machine in one run: on the same plans, and on plans made from each side's own fixtures
# (the ref's committed ones, or BENCH_BASELINE_FIXTURES=<dir>), which differ when the planned values changed.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
conftest="$(bash "${repo_root}/scripts/go-tool.sh" conftest)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fixtures="${repo_root}/internal/policy/testdata/plans"
# shellcheck source=scripts/lib.sh
source "${repo_root}/scripts/lib.sh"

generate 1000 "${work}/plan.json"
generate 500 "${work}/half.json"
generate 10 "${work}/large.json" 19980
generate 0 "${work}/empty.json"

# Baseline 1, the issue's: a one-rule policy that reads the plan directly (one comparison per resource). It
# costs conftest's start-up and JSON decoding, nothing else.
mkdir -p "${work}/trivial"
cat > "${work}/trivial/one.rego" <<'REGO'
package dynamokeys.conftest

deny contains msg if {
	some rc in input.resource_changes
	rc.type == "aws_dynamodb_table"
	rc.change.after.hash_key == "never-matches"
	msg := rc.address
}
REGO

# Baseline 2: the same entry points and plan adapter with one rule (DK101, key attribute types) in place of
# the catalogue. Full against this is what the 27 other rules cost.
mkdir -p "${work}/one-rule"
cp -r "${repo_root}/policies/lib" "${repo_root}/policies/plan" "${repo_root}/policies/data.rego" "${repo_root}/policies/conftest.rego" "${work}/one-rule/"
rm -f "${work}/one-rule"/*/*_test.rego
cat > "${work}/one-rule/main.rego" <<'REGO'
package dynamokeys

errors contains finding if {
	some k in input.derived.key_attributes
	not k.type in {"S", "N", "B"}
	finding := {
		"rule": "DK101", "name": "key-attribute-type", "severity": "error", "path": array.concat(k.path, ["type"]),
		"message": sprintf("key attribute %q has type %q; DynamoDB keys are S, N or B", [k.name, k.type]),
		"remediation": "Set type to S, N or B.", "docs_url": "",
	}
}

warnings contains finding if finding := input.no_such_attribute
REGO

# Only the adapter: the entry points with no rules at all.
mkdir -p "${work}/adapter-only"
cp -r "${work}/one-rule/lib" "${work}/one-rule/plan" "${work}/one-rule/data.rego" "${work}/one-rule/conftest.rego" "${work}/adapter-only/"
printf 'package dynamokeys\n\nerrors contains f if f := input.no_such_attribute\n\nwarnings contains f if f := input.no_such_attribute\n' >"${work}/adapter-only/main.rego"

# run_once POLICY PLAN: one conftest run, in ms. --data too, which bundles before the limits module (a
# BENCH_BASELINE_REF) need, and which loads nothing the rules read in this one.
run_once() {
  local start end
  start=$(date +%s%N)
  "${conftest}" test --no-color --policy "$1" --data "$1" --namespace dynamokeys.conftest "$2" >/dev/null 2>&1 || true
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

# check_runs POLICY PLAN: one run that must report its tests (a compile error reports none).
check_runs() {
  local out
  out="$("${conftest}" test --no-color --policy "$1" --data "$1" --namespace dynamokeys.conftest "$2" 2>&1 || true)"
  if [[ "${out}" != *" passed, "* ]]; then
    echo "bench-conftest: conftest failed with the policy in $1" >&2
    exit 1
  fi
}

# The release archive's contents, built by the script goreleaser runs.
bash "${repo_root}/scripts/policy-bundle.sh" bench "${work}/archive" >/dev/null
mkdir -p "${work}/released"
tar -xzf "${work}/archive/dynamokeys-policies_bench.tar.gz" -C "${work}/released"

# Each case is NAME|POLICY|PLAN. Every round runs each case once, in turn, so that all cases see the same
# machine load and the ratios below compare runs of one time; each figure is the median of the rounds.
cases=(
  "released|${work}/released|${work}/plan.json"
  "full|${repo_root}/policies|${work}/plan.json"
  "trivial|${work}/trivial|${work}/plan.json"
  "one|${work}/one-rule|${work}/plan.json"
  "adapter|${work}/adapter-only|${work}/plan.json"
  "half|${repo_root}/policies|${work}/half.json"
  "half_trivial|${work}/trivial|${work}/half.json"
  "large_released|${work}/released|${work}/large.json"
  "large|${repo_root}/policies|${work}/large.json"
  "large_trivial|${work}/trivial|${work}/large.json"
  "empty_released|${work}/released|${work}/empty.json"
  "empty_trivial|${work}/trivial|${work}/empty.json"
)
rounds="${BENCH_ROUNDS:-7}"
[[ "${rounds}" =~ ^[1-9][0-9]*$ ]] || { echo "bench-conftest: BENCH_ROUNDS must be a whole number of at least 1" >&2; exit 1; }
declare -A samples
for c in "${cases[@]}"; do
  IFS='|' read -r name policy plan <<<"${c}"
  check_runs "${policy}" "${plan}"
done
for _ in $(seq "${rounds}"); do
  for c in "${cases[@]}"; do
    IFS='|' read -r name policy plan <<<"${c}"
    samples[${name}]+="$(run_once "${policy}" "${plan}") "
  done
done
median() { tr ' ' '\n' <<<"${samples[$1]}" | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
released=$(median released)
full=$(median full)
trivial=$(median trivial)
one=$(median one)
adapter=$(median adapter)
half=$(median half)
half_trivial=$(median half_trivial)
large_released=$(median large_released)
large=$(median large)
large_trivial=$(median large_trivial)
empty_released=$(median empty_released)
empty_trivial=$(median empty_trivial)
size=$(du -h "${work}/plan.json" | cut -f1)
echo "conftest test, plan with 2,000 table changes (${size}), median of ${rounds} interleaved rounds:"
echo "  dynamokeys bundle, release archive:     ${released} ms"
echo "  dynamokeys bundle, source tree:         ${full} ms"
echo "  one-rule policy on the raw plan:        ${trivial} ms"
echo "  adapter and entry points, no rules:     ${adapter} ms"
echo "  adapter and entry points, one rule:     ${one} ms"
echo "  dynamokeys bundle, half the plan:       ${half} ms (raw one-rule policy: ${half_trivial} ms)"
awk -v r="${released}" -v f="${full}" -v t="${trivial}" -v o="${one}" -v h="${half}" -v ht="${half_trivial}" 'BEGIN {
  printf "  ratio to the raw one-rule policy:       %.2f (source tree %.2f)\n", r / t, f / t
  printf "  ratio to the bundle with one rule:      %.2f\n", f / o
  if (h > ht) printf "  policy time, full plan / half plan:     %.2f (2 = linear in tables)\n", (f - t) / (h - ht)
}'

echo "conftest test, plan with 20,000 resource changes of which 20 are tables ($(du -h "${work}/large.json" | cut -f1)):"
echo "  dynamokeys bundle, release archive:     ${large_released} ms"
echo "  dynamokeys bundle, source tree:         ${large} ms"
echo "  one-rule policy on the raw plan:        ${large_trivial} ms"
awk -v r="${large_released}" -v f="${large}" -v t="${large_trivial}" 'BEGIN { printf "  ratio to the raw one-rule policy:       %.2f (source tree %.2f)\n", r / t, f / t }'
echo "conftest test, a plan with no resource changes (the cost of loading and compiling the policy):"
echo "  dynamokeys bundle, release archive:     ${empty_released} ms"
echo "  one-rule policy:                        ${empty_trivial} ms"

if [[ -n "${BENCH_BASELINE_REF:-}" ]]; then
  # The bundle of another ref, e.g. before a change of the adapter, timed in alternation with this tree's so
  # that both see the same machine load. Older bundles carry no data file; --data on a directory without one
  # loads nothing.
  mkdir -p "${work}/baseline"
  git -C "${repo_root}" archive "${BENCH_BASELINE_REF}" policies internal/policy/testdata/plans | tar -x -C "${work}/baseline"
  find "${work}/baseline" -name '*_test.rego' -delete
  baseline_fixtures="${BENCH_BASELINE_FIXTURES:-${work}/baseline/internal/policy/testdata/plans}"
  fixtures="${baseline_fixtures}" generate 1000 "${work}/baseline-plan.json"
  fixtures="${baseline_fixtures}" generate 10 "${work}/baseline-large.json" 19980
  # per_table PLAN: bytes of one dynamokeys_sharded_table change, on average, in compact JSON.
  per_table() {
    python3 -c 'import json, sys
rcs = [rc for rc in json.load(open(sys.argv[1]))["resource_changes"] if rc["type"] == "dynamokeys_sharded_table"]
print(sum(len(json.dumps(rc, separators=(",", ":"))) for rc in rcs) // len(rcs))' "$1"
  }
  # alternate LABEL BASELINE_PLAN PLAN: the ref's bundle on BASELINE_PLAN and this tree's on PLAN, 7 runs each;
  # both without their *_test.rego files, as the release archive holds them.
  alternate() {
    check_runs "${work}/baseline/policies" "$2"
    : >"${work}/before" && : >"${work}/after"
    for _ in 1 2 3 4 5 6 7; do
      run_once "${work}/baseline/policies" "$2" >>"${work}/before"
      run_once "${work}/released" "$3" >>"${work}/after"
    done
    before=$(sort -n "${work}/before" | sed -n 4p)
    after=$(sort -n "${work}/after" | sed -n 4p)
    echo "$1: bundle of ${BENCH_BASELINE_REF} ${before} ms, this tree ${after} ms (median of 7, alternating)"
  }
  alternate "plan.json, the same plan for both" "${work}/plan.json" "${work}/plan.json"
  alternate "large.json, the same plan for both" "${work}/large.json" "${work}/large.json"
  alternate "plan.json from each side's own fixtures" "${work}/baseline-plan.json" "${work}/plan.json"
  alternate "large.json from each side's own fixtures" "${work}/baseline-large.json" "${work}/large.json"
  echo "plan JSON, 2,000 tables: ${BENCH_BASELINE_REF} $(wc -c <"${work}/baseline-plan.json") bytes ($(per_table "${work}/baseline-plan.json") per dynamokeys table)," \
    "this tree $(wc -c <"${work}/plan.json") bytes ($(per_table "${work}/plan.json") per dynamokeys table)"
fi
