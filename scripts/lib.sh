# Shared helpers of the scripts; source it after setting repo_root.

# use_dev_provider WORK: builds the provider into WORK/bin and points Terraform at it with a dev_overrides
# CLI configuration (no registry, no `terraform init`). Sets tf to the CLI of scripts/terraform-cli.sh.
use_dev_provider() {
  local work="$1"
  tf="$(bash "${repo_root}/scripts/terraform-cli.sh")"
  (cd "${repo_root}" && go build -o "${work}/bin/terraform-provider-dynamokeys" .)
  cat > "${work}/terraformrc" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/dynamokeys/dynamokeys" = "${work}/bin"
    "registry.opentofu.org/dynamokeys/dynamokeys" = "${work}/bin"
  }
  direct {}
}
RC
  export TF_CLI_CONFIG_FILE="${work}/terraformrc" TF_IN_AUTOMATION=1 TF_INPUT=0
}

# use_local_aws: static credentials for a local DynamoDB-API server; nothing here talks to AWS.
use_local_aws() {
  export AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true
}

# all_rule_ids prints every rule id of the bundle as a quoted, comma-separated HCL list body.
all_rule_ids() {
  grep -rhoE '^#   id: DK[0-9]+' "${repo_root}"/policies/*.rego | awk '{print "\"" $3 "\""}' | sort -u | paste -sd, -
}

# plan_ms DIR: the wall time in ms of one `terraform plan` in DIR, with DIR's own CLI configuration when it has
# a terraformrc. The benchmarks time the two sides of a ratio alternately with it, so that load hits both.
plan_ms() {
  local start end rc="${TF_CLI_CONFIG_FILE:-}"
  [[ -f "$1/terraformrc" ]] && rc="$1/terraformrc"
  start=$(date +%s%N)
  (cd "$1" && TF_CLI_CONFIG_FILE="${rc}" "${tf}" plan -no-color -refresh=false >/dev/null 2>&1)
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

# median: the median of the numbers on stdin, one a line.
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# warm_up DIR...: one plan in each DIR (page cache, plugin cache); fails with the plan's output when one fails.
warm_up() {
  local dir rc
  for dir in "$@"; do
    rc="${TF_CLI_CONFIG_FILE:-}"
    [[ -f "${dir}/terraformrc" ]] && rc="${dir}/terraformrc"
    (cd "${dir}" && TF_CLI_CONFIG_FILE="${rc}" "${tf}" plan -no-color >"${dir}/warmup.log" 2>&1) || { tail -40 "${dir}/warmup.log"; return 1; }
  done
}

# generate COPIES OUT [OTHERS]: a plan JSON in OUT with COPIES copies of each resource change of the committed
# fixtures aws_create.json and sharded_create.json (under new addresses and table names), and OTHERS resources
# of another type, as in a large plan where tables are few. Reads the fixtures from ${fixtures}.
generate() {
  python3 - "${fixtures}" "$1" "$2" "${3:-0}" <<'PY'
import copy, json, sys
fixtures, copies, out, others = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
aws = [rc for rc in json.load(open(f"{fixtures}/aws_create.json"))["resource_changes"]]
ours = [rc for rc in json.load(open(f"{fixtures}/sharded_create.json"))["resource_changes"]]
changes = []
for i in range(copies):
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
# Resources of other types, as in a large plan where tables are few: each with a handful of attributes.
for i in range(others):
    after = {"bucket": f"logs-{i}", "tags": {"team": "data", "env": "prod"}, "force_destroy": False, "acl": None}
    changes.append({"address": f"aws_s3_bucket.b{i}", "mode": "managed", "type": "aws_s3_bucket", "name": f"b{i}",
                    "provider_name": "registry.terraform.io/hashicorp/aws",
                    "change": {"actions": ["create"], "before": None, "after": after, "after_unknown": {"id": True, "arn": True}}})
json.dump({"format_version": "1.2", "terraform_version": "1.11.4", "resource_changes": changes}, open(out, "w"))
PY
}
