#!/usr/bin/env bash
# Prints the path of the package tarball built from the current sources, building it (`npm pack`; prepack compiles
# dist/esm and dist/cjs) only when no tarball of exactly these sources exists yet: conformance.sh and package.sh
# both install it, and packing costs two TypeScript compiles. Tarballs live in .tmp/clients-packages/typescript/,
# named by a hash of everything that goes into them.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
OUT="$ROOT/.tmp/clients-packages/typescript"
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error

HASH=$(find src generated package.json package-lock.json tsconfig.json tsconfig.cjs.json README.md -type f -print0 |
  sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
if ! ls "$OUT/$HASH"/*.tgz >/dev/null 2>&1; then
  [[ -x node_modules/.bin/tsc ]] || npm ci --silent >&2
  rm -rf "$OUT" && mkdir -p "$OUT/$HASH"
  npm pack --silent --pack-destination "$OUT/$HASH" >/dev/null
fi
ls "$OUT/$HASH"/*.tgz
