#!/usr/bin/env bash
# Checks the release configuration: `goreleaser check`, then a linux/amd64 snapshot build that Terraform
# must install from a filesystem mirror and use in a plan.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
goreleaser="$(bash "${repo_root}/scripts/go-tool.sh" goreleaser)"
tf="$(bash "${repo_root}/scripts/terraform-cli.sh")"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

cd "${repo_root}"
"${goreleaser}" check
"${goreleaser}" build --snapshot --clean --single-target --id terraform-provider-dynamokeys --output "${work}/terraform-provider-dynamokeys" >"${work}/build.log" 2>&1 ||
  { cat "${work}/build.log"; exit 1; }
version="$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' dist/metadata.json)"
[[ -n "${version}" ]] || { echo "release-check: no version in dist/metadata.json" >&2; exit 1; }

for host in registry.terraform.io registry.opentofu.org; do
  dir="${work}/mirror/${host}/dynamokeys/dynamokeys/${version}/linux_amd64"
  mkdir -p "${dir}"
  cp "${work}/terraform-provider-dynamokeys" "${dir}/terraform-provider-dynamokeys_v${version}"
done
cat > "${work}/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path = "${work}/mirror"
  }
}
RC
mkdir -p "${work}/config"
cat > "${work}/config/main.tf" <<HCL
terraform {
  required_providers {
    dynamokeys = {
      source  = "dynamokeys/dynamokeys"
      version = "${version}"
    }
  }
}
output "suffix" {
  value = provider::dynamokeys::shard_suffix("order-1042", 16)
}
HCL
cd "${work}/config"
export TF_CLI_CONFIG_FILE="${work}/terraformrc" TF_IN_AUTOMATION=1
"${tf}" init -no-color -input=false >"${work}/init.log" 2>&1 || { cat "${work}/init.log"; exit 1; }
"${tf}" plan -no-color -input=false >"${work}/plan.log" 2>&1 || { cat "${work}/plan.log"; exit 1; }
grep -q 'suffix = "' "${work}/plan.log" || { cat "${work}/plan.log"; exit 1; }
echo "release-check: goreleaser config valid; snapshot ${version} installed from a filesystem mirror and planned"
