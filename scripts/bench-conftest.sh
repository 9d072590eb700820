#!/usr/bin/env bash
# conftest on a generated plan with 1,000 aws_dynamodb_table and 1,000 dynamokeys_sharded_table changes
# (copies of the committed fixtures under new addresses): the full bundle against a one-rule policy on the
# same plan. Targets: under 3 s wall, and within 2x of the one-rule policy.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
conftest="$(bash "${repo_root}/scripts/go-tool.sh" conftest)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fixtures="${repo_root}/internal/policy/testdata/plans"

python3 - "${fixtures}" "${work}/plan.json" <<'PY'
import copy, json, sys
fixtures, out = sys.argv[1], sys.argv[2]
aws = [rc for rc in json.load(open(f"{fixtures}/aws_create.json"))["resource_changes"]]
ours = [rc for rc in json.load(open(f"{fixtures}/sharded_create.json"))["resource_changes"]]
changes = []
for i in range(1000):
    for source in (aws, ours):
        rc = copy.deepcopy(source[i % len(source)])
        rc["name"] = f"{rc['name']}_{i}"
        rc["address"] = f"{rc['type']}.{rc['name']}"
        # Each copy gets its own table name, as in a real plan: identical planned values would let OPA's
        # function-result cache answer for all but the first copy and flatter the policy.
        for state in ("after", "before"):
            if isinstance(rc["change"].get(state), dict) and "name" in rc["change"][state]:
                rc["change"][state]["name"] = f"{rc['change'][state]['name']}-{i}"
        changes.append(rc)
json.dump({"format_version": "1.2", "terraform_version": "1.11.4", "resource_changes": changes}, open(out, "w"))
PY

mkdir -p "${work}/one"
cat > "${work}/one/one.rego" <<'REGO'
package dynamokeys.conftest

deny contains msg if {
	some rc in input.resource_changes
	rc.type == "aws_dynamodb_table"
	rc.change.after.hash_key == "never-matches"
	msg := rc.address
}
REGO

time_ms() { # $1: policy dir; prints the median of 3 runs
  for _ in 1 2 3; do
    start=$(date +%s%N)
    "${conftest}" test --no-color --policy "$1" --namespace dynamokeys.conftest "${work}/plan.json" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
  done | sort -n | sed -n 2p
}
full=$(time_ms "${repo_root}/policies")
one=$(time_ms "${work}/one")
size=$(du -h "${work}/plan.json" | cut -f1)
echo "conftest test, plan with 2,000 table changes (${size}), median of 3:"
echo "  dynamokeys bundle: ${full} ms (target < 3000)"
echo "  one-rule policy:   ${one} ms"
awk -v f="${full}" -v o="${one}" 'BEGIN { printf "  ratio:             %.2f (target <= 2)\n", f / o }'
