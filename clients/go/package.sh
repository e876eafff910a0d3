#!/usr/bin/env bash
# The Go client as a user meets it: a fresh module in a temporary directory outside the repository requires
# github.com/plinth-dev/plinth-go as `go get` would write it, with a `replace` to this directory (the module is not
# published, and nothing may be fetched: GOPROXY=off proves nothing is), then builds and runs the README's
# quickstart (the block after `<!-- package.sh: main.go -->`) against PLINTH_URL. Exit 77 when Go is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
HERE=$(pwd)
if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then
  export PATH="/usr/local/go/bin:$PATH"
fi
if ! command -v go >/dev/null 2>&1; then
  echo "go: not installed"
  exit 77
fi
: "${PLINTH_URL:?PLINTH_URL is not set}"
export GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod
MODULE=$(go list -m)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plinth-go-package.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
go mod init example.com/quickstart >/dev/null 2>&1
go mod edit -require="$MODULE@v0.1.0" -replace="$MODULE=$HERE"
awk '
  $0 == "<!-- package.sh: main.go -->" { found = 1; next }
  found == 1 && /^```/ { found = 2; next }
  found == 2 && /^```/ { exit }
  found == 2 { print }
' "$HERE/README.md" >main.go
[[ -s main.go ]] || { echo "README.md has no quickstart block"; exit 1; }
go vet .
go build -o quickstart .
echo "built the quickstart against $MODULE (replace => $HERE) with $(go version | cut -d' ' -f3)"
id=$(./quickstart)
[[ "$id" =~ ^acct_ ]] || { echo "the quickstart printed '$id', not an account id"; exit 1; }
echo "ok main.go: $id"
