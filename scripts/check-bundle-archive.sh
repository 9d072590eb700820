#!/usr/bin/env bash
# Checks the policy bundle release asset as goreleaser publishes it:
#  1. goreleaser check, then a snapshot release of .goreleaser.yml narrowed to linux/amd64 (the full target
#     list only costs build time): its before hook builds dynamokeys-policies_<version>.tar.gz, which must be
#     in the snapshot's SHA256SUMS and in release.extra_files of the effective config;
#  2. the archive through OPA's Go packages (`opa eval -b` semantics, the manifest, the file list, conftest
#     and HCP Terraform entry points against policies/): TestPolicyBundleArchive;
#  3. conftest (pinned) with --policy on the unpacked archive, and with `conftest pull` from a file path,
#     from an http:// URL and, after `conftest push`, from an oci:// reference on a real OCI registry, on every
#     plan fixture: the same results and exit codes as --policy policies.
# The OCI registry is Debian's docker-registry (the CNCF distribution registry), installed with apt-get on
# first use (as root; the package's own service is kept from starting), run on a free 127.0.0.1 port and
# stopped by its PID.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
goreleaser="$(bash "${repo_root}/scripts/go-tool.sh" goreleaser)"
conftest="$(bash "${repo_root}/scripts/go-tool.sh" conftest)"
work="$(mktemp -d)"
server_pid=""
registry_pid=""
cleanup() {
  if [[ -n "${server_pid}" ]]; then kill "${server_pid}" 2>/dev/null || true; fi
  if [[ -n "${registry_pid}" ]]; then kill "${registry_pid}" 2>/dev/null || true; wait "${registry_pid}" 2>/dev/null || true; fi
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

# registry_binary prints the path of the OCI registry, installing Debian's docker-registry package when it is
# missing. The package would start its service on port 5000 of every interface: a policy-rc.d that denies
# service starts is put in place for the install (and removed after, unless one was there already).
registry_binary() {
  local bin
  bin="$(command -v docker-registry || true)"
  if [[ -z "${bin}" ]]; then
    [[ "$(id -u)" == 0 ]] || fail "an OCI registry is needed: install Debian's docker-registry package (apt-get install docker-registry) or run as root"
    command -v apt-get >/dev/null || fail "an OCI registry is needed: docker-registry is not installed and apt-get is not available"
    local created=""
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
      printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && created=1
    fi
    echo "check-bundle-archive: installing Debian's docker-registry (once)" >&2
    { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker-registry ||
      { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker-registry; }; } >"${work}/apt.log" 2>&1 ||
      { [[ -n "${created}" ]] && rm -f /usr/sbin/policy-rc.d; cat "${work}/apt.log" >&2; fail "could not install docker-registry"; }
    [[ -n "${created}" ]] && rm -f /usr/sbin/policy-rc.d
    bin="$(command -v docker-registry)" || fail "docker-registry installed but not on PATH"
  fi
  echo "${bin}"
}
registry="$(registry_binary)"
rport="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "${work}/registry-data"
cat >"${work}/registry.yml" <<YAML
version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: ${work}/registry-data
http:
  addr: 127.0.0.1:${rport}
YAML
"${registry}" serve "${work}/registry.yml" >"${work}/registry.log" 2>&1 &
registry_pid=$!
for _ in $(seq 100); do
  curl -fsS -o /dev/null "http://127.0.0.1:${rport}/v2/" 2>/dev/null && break
  kill -0 "${registry_pid}" 2>/dev/null || { cat "${work}/registry.log" >&2; fail "the OCI registry exited"; }
  sleep 0.1
done
curl -fsS -o /dev/null "http://127.0.0.1:${rport}/v2/" || { cat "${work}/registry.log" >&2; fail "the OCI registry on 127.0.0.1:${rport} did not answer"; }
reference="127.0.0.1:${rport}/policies/dynamokeys:${version}"
"${conftest}" push --policy "${work}/unpacked" "${reference}" >"${work}/push.log" 2>&1 || { cat "${work}/push.log" >&2; fail "conftest push ${reference} failed"; }
"${conftest}" pull --absolute-paths --policy "${work}/pulled-oci" "oci://${reference}" >/dev/null
curl -fsS "http://127.0.0.1:${rport}/v2/policies/dynamokeys/tags/list" | grep -q "\"${version}\"" || fail "the registry does not list the pushed tag ${version}"
echo "check-bundle-archive: pushed the bundle to oci://${reference} and pulled it back"

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
  for policy in "${work}/unpacked" "${work}/pulled-file" "${work}/pulled-http" "${work}/pulled-oci"; do
    got="$(run_conftest "${policy}" "${plan}")"
    [[ "${got}" == "${want}" ]] || { diff <(echo "${want}") <(echo "${got}") || true; fail "conftest on ${plan} with ${policy#"${work}"/} differs from policies/"; }
    checked=$((checked + 1))
  done
done
[[ "${denied}" -gt 0 ]] || fail "no plan fixture was denied: the comparison proved nothing"
echo "check-bundle-archive: conftest gives the same results with the archive (unpacked, pulled from a file, over HTTP and from the OCI registry) as with policies/ on ${checked} runs"
