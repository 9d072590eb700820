#!/usr/bin/env bash
# Prints the absolute path of a Terraform-compatible CLI for the tests and the demo.
# Order: $TF_ACC_TERRAFORM_PATH, `terraform` on PATH, `tofu` on PATH, a cached .bin/tofu,
# else OpenTofu built from the Go module proxy into .bin/ (never downloaded from a website).
# With --opentofu: OpenTofu only (`tofu` on PATH, the cached .bin/tofu, else the build), for the CI run
# of the acceptance tests under OpenTofu (make test-opentofu).
# With --current: a current Terraform ($TERRAFORM_CURRENT_VERSION), the CLI that `terraform query`, list
# resources and import by identity need (Terraform >= 1.14): `terraform` on PATH when it is that version,
# else the cached .bin/terraform-<version>, else built from the Go module proxy (see build_current_terraform).
set -euo pipefail

OPENTOFU_VERSION="${OPENTOFU_VERSION:-v1.12.6}"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin_dir="${repo_root}/.bin"
TERRAFORM_CURRENT_VERSION="${TERRAFORM_CURRENT_VERSION:-v1.16.3}"
candidates=(terraform tofu)

# build_current_terraform builds Terraform ${TERRAFORM_CURRENT_VERSION} into .bin/. `go install` refuses it:
# its go.mod replaces ten nested modules (internal/legacy and nine remote-state backends) with folders that
# the module zip leaves out, and the proxy holds those modules only at a version that no longer compiles.
# So the build copies the module source, drops those replace and require lines, removes the nine backends
# from the backend registry (local, remote, http, inmem and cloud stay: the tests use local state), and
# builds with -mod=mod. Ask the proxy for the exact version: `go list -m -versions` stops at 1.13.
build_current_terraform() {
  local out="$1" module_dir work nested
  module_dir="$(GOFLAGS=-mod=mod go mod download -json "github.com/hashicorp/terraform@${TERRAFORM_CURRENT_VERSION}" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  if [[ -z "${module_dir}" ]]; then
    echo "terraform-cli: could not download github.com/hashicorp/terraform@${TERRAFORM_CURRENT_VERSION}" >&2
    return 1
  fi
  work="$(mktemp -d)"
  trap "rm -rf '${work}'" EXIT
  # A fixed folder name keeps the build cache's keys stable across runs (-trimpath drops the rest).
  cp -R "${module_dir}" "${work}/terraform"
  chmod -R u+w "${work}/terraform"
  (
    cd "${work}/terraform"
    for nested in internal/legacy internal/backend/remote-state/{azure,consul,cos,gcs,kubernetes,oci,oss,pg,s3}; do
      go mod edit -dropreplace "github.com/hashicorp/terraform/${nested}" -droprequire "github.com/hashicorp/terraform/${nested}"
    done
    sed -i -E \
      -e '/backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3) "github.com\/hashicorp\/terraform\/internal\/backend\/remote-state\//d' \
      -e '/^[[:space:]]*"(azurerm|consul|cos|gcs|kubernetes|oss|pg|s3|oci)":[[:space:]]+func\(\)/d' \
      internal/backend/init/init.go
    CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
      -ldflags "-X github.com/hashicorp/terraform/version.dev=no" -o "${out}" .
  ) >&2
}

if [[ "${1:-}" == "--current" ]]; then
  want="${TERRAFORM_CURRENT_VERSION#v}"
  if found="$(command -v terraform)" && terraform version -json 2>/dev/null | grep -q "\"terraform_version\": \"${want}\""; then
    readlink -f "${found}"
    exit 0
  fi
  cached="${bin_dir}/terraform-${want}"
  if [[ ! -x "${cached}" ]]; then
    echo "terraform-cli: building Terraform ${TERRAFORM_CURRENT_VERSION} from the Go module proxy into .bin/" >&2
    mkdir -p "${bin_dir}"
    build_current_terraform "${cached}.partial"
    mv "${cached}.partial" "${cached}"
  fi
  echo "${cached}"
  exit 0
elif [[ "${1:-}" == "--opentofu" ]]; then
  candidates=(tofu)
elif [[ -n "${TF_ACC_TERRAFORM_PATH:-}" && -x "${TF_ACC_TERRAFORM_PATH}" ]]; then
  echo "${TF_ACC_TERRAFORM_PATH}"
  exit 0
fi
for candidate in "${candidates[@]}"; do
  if found="$(command -v "${candidate}")"; then
    readlink -f "${found}"
    exit 0
  fi
done
if [[ -x "${bin_dir}/tofu" ]]; then
  echo "${bin_dir}/tofu"
  exit 0
fi

# OpenTofu's go.mod carries replace directives, so `go install module@version` refuses it:
# download the module source and build inside it with -mod=mod.
echo "terraform-cli: no terraform or tofu on PATH; building OpenTofu ${OPENTOFU_VERSION} from the Go module proxy" >&2
module_dir="$(GOFLAGS=-mod=mod go mod download -json "github.com/opentofu/opentofu@${OPENTOFU_VERSION}" \
  | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
if [[ -z "${module_dir}" ]]; then
  echo "terraform-cli: could not download github.com/opentofu/opentofu@${OPENTOFU_VERSION}" >&2
  exit 1
fi
mkdir -p "${bin_dir}"
(cd "${module_dir}" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -o "${bin_dir}/tofu" ./cmd/tofu) >&2
echo "${bin_dir}/tofu"
