#!/usr/bin/env bash
# Prints the absolute path of a Terraform-compatible CLI for the tests and the demo.
# Order: $TF_ACC_TERRAFORM_PATH, `terraform` on PATH, `tofu` on PATH, a cached .bin/tofu,
# else OpenTofu built from the Go module proxy into .bin/ (never downloaded from a website).
# With --opentofu: OpenTofu only (`tofu` on PATH, the cached .bin/tofu, else the build), for the CI run
# of the acceptance tests under OpenTofu (make test-opentofu).
set -euo pipefail

OPENTOFU_VERSION="${OPENTOFU_VERSION:-v1.12.6}"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin_dir="${repo_root}/.bin"
candidates=(terraform tofu)
if [[ "${1:-}" == "--opentofu" ]]; then
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
