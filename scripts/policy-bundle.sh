#!/usr/bin/env bash
# Builds the policy bundle release asset OUTDIR/dynamokeys-policies_VERSION.tar.gz from policies/: the rules,
# their library and the plan adapter without the *_test.rego files, the limits module data.rego (generated
# from dynamokeys/source/data.json, with version stamped to VERSION), an OPA bundle .manifest (revision = VERSION, root dynamokeys)
# and the policies.hcl of an HCP Terraform policy set, all at the archive root.
# The archive is reproducible: sorted entries, owner 0, the mtime of the last commit, no gzip timestamp.
# Usage: scripts/policy-bundle.sh VERSION OUTDIR   (goreleaser runs it as a before hook)
set -euo pipefail

version="${1:?usage: policy-bundle.sh VERSION OUTDIR}"
out="${2:?usage: policy-bundle.sh VERSION OUTDIR}"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "${out}"
out="$(cd "${out}" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "${stage}"' EXIT

cd "${repo_root}/policies"
mapfile -t files < <(find . -name '*.rego' ! -name '*_test.rego' -printf '%P\n' | LC_ALL=C sort)
[[ ${#files[@]} -gt 0 ]] || { echo "policy-bundle: no policies found" >&2; exit 1; }
for f in "${files[@]}"; do
  mkdir -p "${stage}/$(dirname "${f}")"
  cp "${f}" "${stage}/${f}"
done
# The limits module, with the bundle's version: "dev" in the repository, VERSION in the archive.
data="data.rego"
grep -q '^version := "dev"$' "${data}" || { echo "policy-bundle: ${data} has no version := \"dev\" line to stamp" >&2; exit 1; }
sed 's/^version := "dev"$/version := "'"${version}"'"/' "${data}" > "${stage}/${data}"

cat > "${stage}/.manifest" <<JSON
{
  "revision": "${version}",
  "roots": ["dynamokeys"],
  "rego_version": 1,
  "metadata": {"name": "dynamokeys-policies", "entrypoints": ["dynamokeys/conftest/deny", "dynamokeys/conftest/warn", "dynamokeys/hcp/deny", "dynamokeys/hcp/warn", "dynamokeys/spacelift/deny", "dynamokeys/spacelift/warn", "dynamokeys/env0/deny", "dynamokeys/env0/warn"]}
}
JSON

cat > "${stage}/policies.hcl" <<'HCL'
# HCP Terraform policy set: error findings block the run, warnings are advisory.
policy "dynamokeys" {
  query             = "data.dynamokeys.hcp.deny"
  enforcement_level = "mandatory"
}

policy "dynamokeys-warnings" {
  query             = "data.dynamokeys.hcp.warn"
  enforcement_level = "advisory"
}
HCL

archive="${out}/dynamokeys-policies_${version}.tar.gz"
epoch="${SOURCE_DATE_EPOCH:-$(git -C "${repo_root}" log -1 --format=%ct 2>/dev/null || echo 0)}"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@${epoch}" -C "${stage}" -cf - .manifest policies.hcl "${files[@]}" |
  gzip -9n > "${archive}"
echo "${archive}"
