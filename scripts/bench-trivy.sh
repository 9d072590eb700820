#!/usr/bin/env bash
# The bundle beside Trivy on one plan of 2,020 resource changes, 20 of them tables (copies of the committed
# fixtures, as bench-conftest.sh makes them) and 2,000 others, as in a repository where tables are few:
#  - conftest with the bundle, as a CI step runs it;
#  - Trivy's own scan of the plan (`trivy config`, its built-in checks, offline);
#  - Trivy with the bundle as custom checks (internal/cmd/trivybundle) and nothing else.
# Each is run in alternating rounds; prints the medians and the ratios: Trivy's own scan over conftest with the
# bundle (how small a share of a scanning step the bundle is), and Trivy with the bundle over Trivy's own scan
# (what the bundle costs a team that runs it inside Trivy).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
conftest="$(bash "${repo_root}/scripts/go-tool.sh" conftest)"
trivy="$(bash "${repo_root}/scripts/go-tool.sh" trivy)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fixtures="${repo_root}/internal/policy/testdata/plans"
# shellcheck source=scripts/lib.sh
source "${repo_root}/scripts/lib.sh"
runs="${RUNS:-5}"

generate 10 "${work}/plan.json" 2000
(cd "${repo_root}" && go run ./internal/cmd/trivybundle "${work}/checks")
bash "${repo_root}/scripts/policy-bundle.sh" bench "${work}/archive" >/dev/null
mkdir -p "${work}/bundle" "${work}/cache"
tar -xzf "${work}/archive/dynamokeys-policies_bench.tar.gz" -C "${work}/bundle"

# Each side is a command; a side that fails to run fails the benchmark (conftest and Trivy exit 0 or 1 on
# findings, so their output is checked instead of their status).
side_conftest() {
  "${conftest}" test --no-color --policy "${work}/bundle" --namespace dynamokeys.conftest "${work}/plan.json" 2>&1 || true
}
side_trivy_own() {
  "${trivy}" config --quiet --cache-dir "${work}/cache" --skip-check-update --format json "${work}/plan.json"
}
side_trivy_bundle() {
  "${trivy}" config --quiet --cache-dir "${work}/cache" --skip-check-update --config-check "${work}/checks" \
    --check-namespaces dynamokeys_trivy --misconfig-scanners json --format json "${work}/plan.json"
}
[[ "$(side_conftest)" == *" passed, "* ]] || { echo "bench-trivy: conftest did not run the bundle" >&2; exit 1; }
side_trivy_own | grep -q '"terraformplan"' || { echo "bench-trivy: Trivy did not scan the plan" >&2; exit 1; }
side_trivy_bundle | grep -q '"DK' || { echo "bench-trivy: Trivy did not report the bundle's findings" >&2; exit 1; }

sides=(conftest trivy_own trivy_bundle)
for _ in $(seq 1 "${runs}"); do
  for s in "${sides[@]}"; do
    start=$(date +%s%N)
    "side_${s}" >/dev/null
    end=$(date +%s%N)
    echo $(((end - start) / 1000000)) >>"${work}/${s}.times"
  done
done
conftest_ms=$(median <"${work}/conftest.times")
own_ms=$(median <"${work}/trivy_own.times")
bundle_ms=$(median <"${work}/trivy_bundle.times")
echo "a plan of 2,020 resource changes, 20 of them tables, median of ${runs} alternating rounds:"
echo "  conftest with the bundle:             ${conftest_ms} ms"
echo "  Trivy's own scan (built-in checks):   ${own_ms} ms"
echo "  Trivy with the bundle as its checks:  ${bundle_ms} ms"
awk -v o="${own_ms}" -v c="${conftest_ms}" 'BEGIN { printf "  ratio Trivy own scan / conftest with the bundle: %.1f (target >= 40)\n", o / c }'
awk -v b="${bundle_ms}" -v o="${own_ms}" 'BEGIN { printf "  ratio Trivy with the bundle / Trivy own scan:    %.2f\n", b / o }'
