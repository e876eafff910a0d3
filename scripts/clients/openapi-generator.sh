#!/usr/bin/env bash
# OpenAPI Generator, pinned. The PyPI wheel `openapi-generator-cli` carries the generator's jar, so the only
# registry involved is PyPI (the machine reaches no other download host) and the version is pinned by pip.
# The wheel is installed once into .tmp/clients-venv (gitignored); later calls reuse it. Needs Java (>= 11).
#
#   scripts/clients/openapi-generator.sh generate -g python -i clients/openapi.sdk.json -o /tmp/x
#   scripts/clients/openapi-generator.sh version      # → 7.26.0
set -euo pipefail

VERSION=7.26.0
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="$ROOT/.tmp/clients-venv"
STAMP="$VENV/.openapi-generator-$VERSION"

if [[ ! -f "$STAMP" ]]; then
  # A lock, because several helpers (and the drift test) may call this at once on a fresh machine.
  mkdir -p "$ROOT/.tmp"
  exec 9>"$ROOT/.tmp/clients-venv.lock"
  flock 9
  if [[ ! -f "$STAMP" ]]; then
    echo "openapi-generator.sh: installing openapi-generator-cli==$VERSION into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "openapi-generator-cli==$VERSION" >&2
    touch "$STAMP"
  fi
  exec 9>&-
fi

if ! command -v java >/dev/null 2>&1; then
  echo "openapi-generator.sh: java is required (apt-get install default-jre-headless)" >&2
  exit 1
fi

exec "$VENV/bin/openapi-generator-cli" "$@"
