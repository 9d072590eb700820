#!/usr/bin/env bash
# Builds a pinned Go tool from the Go module proxy into .bin/ once, and prints its path.
# Usage: scripts/go-tool.sh NAME  (conftest | regal | tfplugindocs | goreleaser | golangci-lint | tflint | trivy)
# Tools stay out of the provider's go.mod. A module whose go.mod has replace directives cannot be
# `go install`ed by version, so every tool is built inside its downloaded module directory with -mod=mod.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin_dir="${repo_root}/.bin"

case "${1:?tool name}" in
  conftest)      module=github.com/open-policy-agent/conftest version=v0.71.1 pkg=. ;;
  regal)         module=github.com/open-policy-agent/regal version=v0.42.0 pkg=. ;;
  tfplugindocs)  module=github.com/hashicorp/terraform-plugin-docs version=v0.25.0 pkg=./cmd/tfplugindocs ;;
  goreleaser)    module=github.com/goreleaser/goreleaser/v2 version=v2.15.1 pkg=. ;;
  golangci-lint) module=github.com/golangci/golangci-lint/v2 version=v2.15.0 pkg=./cmd/golangci-lint ;;
  tflint)        module=github.com/terraform-linters/tflint version=v0.64.0 pkg=. ;;
  # Trivy's own build sets GOEXPERIMENT=jsonv2 (it imports encoding/json/v2).
  trivy)         module=github.com/aquasecurity/trivy version=v0.74.0 pkg=./cmd/trivy goexperiment=jsonv2 ;;
  *) echo "go-tool: unknown tool $1" >&2; exit 2 ;;
esac
target="${bin_dir}/$1-${version}"
if [[ ! -x "${target}" ]]; then
  echo "go-tool: building $1 ${version} from the Go module proxy (once)" >&2
  dir="$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "${module}@${version}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -n "${dir}" ]] || { echo "go-tool: could not download ${module}@${version}" >&2; exit 1; }
  mkdir -p "${bin_dir}"
  # .bin/ may be shared by several checkouts building the same tool at once: each builds to its own
  # temporary file and renames it into place, which is atomic, so the last one wins with a whole binary.
  tmp="${target}.tmp.$$"
  trap 'rm -f "${tmp}"' EXIT
  (cd "${dir}" && CGO_ENABLED=0 GOEXPERIMENT="${goexperiment:-}" GOFLAGS=-mod=mod go build -trimpath -o "${tmp}" "${pkg}") >&2
  mv -f "${tmp}" "${target}"
fi
echo "${target}"
