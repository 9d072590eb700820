#!/usr/bin/env bash
# The main job: builds the provider, points Terraform at it with a dev_overrides CLI config in a temp dir,
# and runs apply/output/destroy on examples/quickstart against a local DynamoDB server
# (started and stopped by internal/cmd/with-dynamodb, which sets DYNAMODB_ENDPOINT).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${DYNAMODB_ENDPOINT:?run me through: go run ./internal/cmd/with-dynamodb -- bash scripts/demo.sh}"

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

tf="$(bash "${repo_root}/scripts/terraform-cli.sh")"
echo "==> building the provider"
(cd "${repo_root}" && go build -o "${work}/bin/terraform-provider-dynamokeys" .)

# dev_overrides makes Terraform use the fresh build without a registry or `terraform init`.
cat > "${work}/terraformrc" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/dynamokeys/dynamokeys"  = "${work}/bin"
    "registry.opentofu.org/dynamokeys/dynamokeys"  = "${work}/bin"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="${work}/terraformrc"
export TF_IN_AUTOMATION=1 TF_INPUT=0
# Static credentials for the local server; nothing here talks to AWS.
export AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true

cp -r "${repo_root}/examples/quickstart" "${work}/quickstart"
cd "${work}/quickstart"
run() { echo; echo "==> $(basename "${tf}") $*"; "${tf}" "$@"; }
run apply -auto-approve -compact-warnings -var "endpoint=${DYNAMODB_ENDPOINT}"
run output -raw report
run output
run destroy -auto-approve -compact-warnings -var "endpoint=${DYNAMODB_ENDPOINT}"
echo
echo "==> demo finished: the local DynamoDB server is stopped next"
