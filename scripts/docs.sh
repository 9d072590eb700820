#!/usr/bin/env bash
# Generates docs/ with tfplugindocs (built from the Go module proxy, never downloaded) from the provider's
# schema, templates/ and examples/, then validates the result.
# The schema comes from the Terraform CLI of scripts/terraform-cli.sh through a dev_overrides config, so
# tfplugindocs never looks for or downloads a CLI of its own.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tfplugindocs="$(bash "${repo_root}/scripts/go-tool.sh" tfplugindocs)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

(cd "${repo_root}" && go run ./internal/cmd/datamodule policies/data.rego policies/data_gen.go)
(cd "${repo_root}" && go run ./internal/cmd/rulesdoc -o templates/guides/rule-reference.md.tmpl -plugin templates/guides/policy-plugin.md.tmpl)
(cd "${repo_root}" && go run ./internal/cmd/routingdoc -vectors internal/keydesign/model/testdata/routing_vectors.json -guide templates/guides/write-sharding.md.tmpl)
# shellcheck source=scripts/lib.sh
source "${repo_root}/scripts/lib.sh"
use_dev_provider "${work}"
mkdir -p "${work}/schema"
cat > "${work}/schema/main.tf" <<'HCL'
terraform {
  required_providers {
    dynamokeys = { source = "dynamokeys/dynamokeys" }
  }
}
HCL
(cd "${work}/schema" && "${tf}" providers schema -json > "${work}/schema.json" 2>"${work}/schema.log") ||
  { cat "${work}/schema.log"; exit 1; }
# tfplugindocs looks the schema up as registry.terraform.io/hashicorp/<name>, whichever CLI produced it.
sed -i -e "s|registry.opentofu.org/dynamokeys/dynamokeys|registry.terraform.io/hashicorp/dynamokeys|" -e "s|registry.terraform.io/dynamokeys/dynamokeys|registry.terraform.io/hashicorp/dynamokeys|" "${work}/schema.json"

cd "${repo_root}"
"${tfplugindocs}" generate --provider-name dynamokeys --rendered-provider-name dynamokeys --providers-schema "${work}/schema.json" >"${work}/generate.log" 2>&1 ||
  { cat "${work}/generate.log"; exit 1; }
"${tfplugindocs}" validate --provider-name dynamokeys >"${work}/validate.log" 2>&1 || { cat "${work}/validate.log"; exit 1; }
echo "docs/ generated and validated"
