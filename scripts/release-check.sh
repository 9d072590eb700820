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
# The TFLint plugin: its own configuration, a linux/amd64 snapshot release (archives and checksums.txt, not
# published or signed), installed where `tflint --init` puts a plugin of that source and version, and run.
cd "${repo_root}"
"${goreleaser}" check --config .goreleaser.tflint.yml
{ echo "dist: ${work}/tflint-dist"; grep -v '^dist:' .goreleaser.tflint.yml |
  sed -e 's/^    goos: .*/    goos: [linux]/' -e 's/^    goarch: .*/    goarch: [amd64]/'; } >"${work}/goreleaser.tflint.yml"
"${goreleaser}" release --config "${work}/goreleaser.tflint.yml" --snapshot --clean --skip=publish,sign >"${work}/tflint-release.log" 2>&1 ||
  { cat "${work}/tflint-release.log"; exit 1; }
plugin_version="$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' "${work}/tflint-dist/metadata.json")"
zip="${work}/tflint-dist/tflint-ruleset-dynamokeys_linux_amd64.zip"
[[ -f "${zip}" ]] || { echo "release-check: no ${zip##*/} in the plugin's snapshot" >&2; ls "${work}/tflint-dist" >&2; exit 1; }
grep -q "  tflint-ruleset-dynamokeys_linux_amd64.zip$" "${work}/tflint-dist/checksums.txt" ||
  { echo "release-check: checksums.txt does not list the plugin archive" >&2; exit 1; }
(cd "${work}/tflint-dist" && grep "tflint-ruleset-dynamokeys_linux_amd64.zip$" checksums.txt | sha256sum -c --quiet)
plugin_dir="${work}/tflint-plugins/github.com/dynamokeys/tflint-ruleset-dynamokeys/${plugin_version}"
mkdir -p "${plugin_dir}" "${work}/tflint-config"
(cd "${plugin_dir}" && unzip -q "${zip}")
cat >"${work}/tflint-config/.tflint.hcl" <<HCL
plugin "dynamokeys" {
  enabled = true
  version = "${plugin_version}"
  source  = "github.com/dynamokeys/tflint-ruleset-dynamokeys"
}
HCL
cat >"${work}/tflint-config/main.tf" <<'HCL'
data "dynamokeys_keydesign" "events" {
  partition_key = { name = "pk", template = "DAY#{day}" }
  segments      = { day = { kind = "time", granularity = "day" } }
  traffic       = { writes_per_second = 2500 }
}
HCL
tflint_out="$(cd "${work}/tflint-config" && TFLINT_PLUGIN_DIR="${work}/tflint-plugins" "$(bash "${repo_root}/scripts/go-tool.sh" tflint)" --format compact 2>&1)" && {
  echo "release-check: tflint passed a hot design with the released plugin" >&2; exit 1; }
grep -q "(dynamokeys_dk303)" <<<"${tflint_out}" || { echo "${tflint_out}" >&2; exit 1; }

tree_after="$(cd "${repo_root}" && git status --porcelain --untracked-files=all)"
if [[ "${tree_after}" != "${tree_before}" ]]; then
  echo "release-check: the release build changed the working tree:" >&2
  diff <(echo "${tree_before}") <(echo "${tree_after}") >&2 || true
  exit 1
fi
echo "release-check: goreleaser config valid; snapshot ${version} installed from a filesystem mirror and planned"
echo "release-check: TFLint plugin snapshot ${plugin_version} (zip and checksums.txt) installed by source and version and run"
