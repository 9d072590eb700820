#!/usr/bin/env bash
# Checks the policy bundle release asset as goreleaser publishes it:
#  1. goreleaser check, then a snapshot release of .goreleaser.yml narrowed to linux/amd64 (the full target
#     list only costs build time): its before hook builds dynamokeys-policies_<version>.tar.gz, which must be
#     in the snapshot's SHA256SUMS and in release.extra_files of the effective config;
#  2. the archive through OPA's Go packages (`opa eval -b` semantics, the manifest, the file list, conftest
#     and HCP Terraform entry points against policies/): TestPolicyBundleArchive;
#  3. conftest (pinned) with --policy on the unpacked archive, and with `conftest pull` from a file path and
#     from an http:// URL, on every plan fixture: the same results and exit codes as --policy policies.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
goreleaser="$(bash "${repo_root}/scripts/go-tool.sh" goreleaser)"
conftest="$(bash "${repo_root}/scripts/go-tool.sh" conftest)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "${server_pid}" ]]; then kill "${server_pid}" 2>/dev/null || true; fi
  rm -rf "${work}"
}
trap cleanup EXIT
fail() { echo "check-bundle-archive: $*" >&2; exit 1; }

cd "${repo_root}"
"${goreleaser}" check

config="${work}/goreleaser.yml"
sed -e 's/^    goos: \[.*\]$/    goos: [linux]/' -e 's/^    goarch: \[.*\]$/    goarch: [amd64]/' .goreleaser.yml > "${config}"
[[ "$(grep -c -e '^    goos: \[linux\]$' -e '^    goarch: \[amd64\]$' "${config}")" == 2 ]] ||
  fail "could not narrow the targets of .goreleaser.yml (goos/goarch lines changed?)"
"${goreleaser}" release --snapshot --clean --skip=sign,publish,validate --config "${config}" >"${work}/release.log" 2>&1 ||
  { cat "${work}/release.log"; fail "goreleaser snapshot release failed"; }

version="$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' dist/metadata.json)"
[[ -n "${version}" ]] || fail "no version in dist/metadata.json"
name="dynamokeys-policies_${version}.tar.gz"
# release.extra_files uploads it on a real release (the release pipe does not run for a snapshot);
# checksum.extra_files puts it in SHA256SUMS, which is what gets signed.
archive="build/policy-bundle/${name}"
[[ -f "${archive}" ]] || fail "the before hook did not build ${archive}"
[[ "$(grep -c '^    - glob: build/policy-bundle/dynamokeys-policies_{{ .Version }}.tar.gz$' dist/config.yaml)" == 2 ]] ||
  fail "the effective config does not attach the archive in both checksum.extra_files and release.extra_files"
sums="dist/terraform-provider-dynamokeys_${version}_SHA256SUMS"
grep -q "^$(sha256sum "${archive}" | cut -d' ' -f1)  ${name}$" "${sums}" || fail "${sums} does not list ${name} with its hash"
echo "check-bundle-archive: snapshot ${version} attaches ${name} ($(wc -c < "${archive}") bytes), listed in SHA256SUMS"

DYNAMOKEYS_BUNDLE_ARCHIVE="${repo_root}/${archive}" DYNAMOKEYS_BUNDLE_VERSION="${version}" \
  go test -count=1 -run '^TestPolicyBundleArchive$' ./internal/policy

mkdir -p "${work}/unpacked"
tar -xzf "${archive}" -C "${work}/unpacked"
"${conftest}" pull --absolute-paths --policy "${work}/pulled-file" "${repo_root}/${archive}" >/dev/null
mkdir -p "${work}/www" && cp "${archive}" "${work}/www/"
# A static file server on a free loopback port (Node.js is a prerequisite of the repository anyway).
node -e '
  const fs = require("fs"), path = require("path"), dir = process.argv[1];
  require("http").createServer((req, res) => {
    fs.createReadStream(path.join(dir, path.basename(req.url))).on("error", () => { res.statusCode = 404; res.end(); }).pipe(res);
  }).listen(0, "127.0.0.1", function () { console.log("port " + this.address().port); });
' "${work}/www" >"${work}/http.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 50); do
  port="$(sed -n 's/.*port \([0-9]*\).*/\1/p' "${work}/http.log" | head -1)"
  [[ -n "${port}" ]] && break
  sleep 0.1
done
[[ -n "${port}" ]] || fail "the local HTTP server did not start"
"${conftest}" pull --absolute-paths --policy "${work}/pulled-http" "http://127.0.0.1:${port}/${name}" >/dev/null

# conftest on a policy directory: its JSON results and exit code for one plan. --policy alone loads the rules
# and their limits (the module data.rego).
run_conftest() {
  local policy="$1" plan="$2" code=0 out
  out="$("${conftest}" test --no-color --policy "${policy}" --namespace dynamokeys.conftest --output json "${plan}")" || code=$?
  printf '%s\nexit %s\n' "${out}" "${code}"
}
checked=0
denied=0
for plan in internal/policy/testdata/plans/*.json; do
  want="$(run_conftest policies "${plan}")"
  grep -q '"failures": \[$' <<<"${want}" && denied=$((denied + 1))
  for policy in "${work}/unpacked" "${work}/pulled-file" "${work}/pulled-http"; do
    got="$(run_conftest "${policy}" "${plan}")"
    [[ "${got}" == "${want}" ]] || { diff <(echo "${want}") <(echo "${got}") || true; fail "conftest on ${plan} with ${policy#"${work}"/} differs from policies/"; }
    checked=$((checked + 1))
  done
done
[[ "${denied}" -gt 0 ]] || fail "no plan fixture was denied: the comparison proved nothing"
echo "check-bundle-archive: conftest gives the same results with the archive (unpacked, pulled from a file, pulled over HTTP) as with policies/ on ${checked} runs"
