#!/usr/bin/env bash
# Measures what the provider's start-up costs every Terraform command: `terraform plan` of a configuration
# whose only use of the provider is one function call (Terraform starts the provider three times: for its
# schema, then once for each evaluation of the call, in validate and in plan), with this provider and with a
# bare terraform-plugin-framework provider that has only that function (internal/cmd/bareprovider), and with
# that bare provider built with -tags deps, which links the libraries dynamokeys links (the AWS SDK, OPA) and
# so pays their package initialisation too, planned alternately. Prints the median wall time of each and the
# ratios (target: dynamokeys/bare at most 1.15): bare+deps/bare is what the libraries cost every command,
# dynamokeys/bare+deps what dynamokeys' own start-up does.
# BENCH_BASELINE_REF=<git ref> also times the provider built from that ref in the same rounds, to compare two
# versions on one machine in one run.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-11}"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# shellcheck source=scripts/lib.sh
source "${repo_root}/scripts/lib.sh"
use_dev_provider "${work}/ours"

# side NAME SOURCE PACKAGE [TAGS]: WORK/NAME, a configuration that calls the function once, planned with
# PACKAGE of the module at SOURCE (built with TAGS) as the provider (ours: use_dev_provider's build).
side() {
  mkdir -p "${work}/$1"
  if [[ "$1" != ours ]]; then
    (cd "$2" && go build -tags "${4:-}" -o "${work}/$1/bin/terraform-provider-dynamokeys" "$3")
    sed "s|${work}/ours/bin|${work}/$1/bin|" "${work}/ours/terraformrc" >"${work}/$1/terraformrc"
  fi
  cat >"${work}/$1/main.tf" <<'HCL'
terraform {
  required_providers {
    dynamokeys = { source = "dynamokeys/dynamokeys" }
  }
}
output "shard" {
  value = provider::dynamokeys::shard("order-1", 16)
}
HCL
}
sides=(ours bare bare_deps)
side ours
side bare "${repo_root}" ./internal/cmd/bareprovider
side bare_deps "${repo_root}" ./internal/cmd/bareprovider deps
if [[ -n "${BENCH_BASELINE_REF:-}" ]]; then
  mkdir -p "${work}/src"
  git -C "${repo_root}" archive "${BENCH_BASELINE_REF}" | tar -x -C "${work}/src"
  side baseline "${work}/src" .
  sides+=(baseline)
fi

warm_up "${sides[@]/#/${work}/}" # fail on a broken configuration
# Alternate the sides so that drift in machine load hits each alike.
for _ in $(seq 1 "${runs}"); do
  for s in "${sides[@]}"; do plan_ms "${work}/${s}" >>"${work}/${s}.times"; done
done
ours=$(median <"${work}/ours.times")
bare=$(median <"${work}/bare.times")
bare_deps=$(median <"${work}/bare_deps.times")
echo "terraform plan of one provider function call, median of ${runs} alternating rounds:"
echo "  dynamokeys:              ${ours} ms"
echo "  bare framework provider: ${bare} ms"
echo "  bare, with dynamokeys' libraries linked: ${bare_deps} ms"
if [[ -n "${BENCH_BASELINE_REF:-}" ]]; then
  baseline=$(median <"${work}/baseline.times")
  echo "  dynamokeys at ${BENCH_BASELINE_REF}: ${baseline} ms"
  awk -v b="${baseline}" -v bare="${bare}" 'BEGIN { printf "  ratio baseline/bare:     %.3f\n", b / bare }'
fi
awk -v b="${bare_deps}" -v bare="${bare}" 'BEGIN { printf "  ratio bare+deps/bare:    %.3f (the libraries)\n", b / bare }'
awk -v ours="${ours}" -v b="${bare_deps}" 'BEGIN { printf "  ratio dynamokeys/bare+deps: %.3f (dynamokeys itself)\n", ours / b }'
awk -v ours="${ours}" -v bare="${bare}" 'BEGIN { printf "  ratio dynamokeys/bare:   %.3f (target <= 1.15)\n", ours / bare }'
