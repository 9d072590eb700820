#!/usr/bin/env bash
# Checks the release configuration without touching the working tree: `goreleaser check`, then a
# linux/amd64 snapshot build that Terraform must install from a filesystem mirror and use in a plan.
# The snapshot skips the `before` hooks (`go mod tidy` would rewrite go.mod and go.sum) and writes its
# dist/ into a temporary directory, not into the repository.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
goreleaser="$(bash "${repo_root}/scripts/go-tool.sh" goreleaser)"
tf="$(bash "${repo_root}/scripts/terraform-cli.sh")"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

cd "${repo_root}"
tree_before="$(git status --porcelain --untracked-files=all)"
"${goreleaser}" check
# goreleaser has no flag for its output directory: a copy of the configuration sets `dist`.
{ echo "dist: ${work}/dist"; grep -v '^dist:' .goreleaser.yml; } >"${work}/goreleaser.yml"
"${goreleaser}" build --config "${work}/goreleaser.yml" --snapshot --clean --skip=before --single-target \
  --id terraform-provider-dynamokeys --output "${work}/terraform-provider-dynamokeys" >"${work}/build.log" 2>&1 ||
  { cat "${work}/build.log"; exit 1; }
version="$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' "${work}/dist/metadata.json")"
[[ -n "${version}" ]] || { echo "release-check: no version in the snapshot's metadata.json" >&2; exit 1; }

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
tree_after="$(cd "${repo_root}" && git status --porcelain --untracked-files=all)"
if [[ "${tree_after}" != "${tree_before}" ]]; then
  echo "release-check: the release build changed the working tree:" >&2
  diff <(echo "${tree_before}") <(echo "${tree_after}") >&2 || true
  exit 1
fi
echo "release-check: goreleaser config valid; snapshot ${version} installed from a filesystem mirror and planned"
