#!/usr/bin/env bash
# The conformance scenario for the Go client (see clients/README.md): vet, build, run against PLINTH_URL,
# PLINTH_PROXY_URL and PLINTH_LIMITED_URL. Exit 77 when Go is not installed. Standard library only: nothing is
# downloaded; the build cache lives in ~/.cache/go-build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then
  export PATH="/usr/local/go/bin:$PATH"   # the official tarball's place, when a login shell did not add it
fi
if ! command -v go >/dev/null 2>&1; then
  echo "go: not installed"
  exit 77
fi
export GOTOOLCHAIN=local GOFLAGS=-mod=mod
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
start=$(date +%s)
go vet ./...
# The retry rules a live server cannot be made to show on demand (503, 409 in progress, refused connections).
go test -count=1 ./...
go build -o "$out/conformance" ./cmd/conformance
echo "built with $(go version | cut -d' ' -f3) in $(( $(date +%s) - start )) s"
"$out/conformance"
