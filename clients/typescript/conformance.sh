#!/usr/bin/env bash
# TypeScript client conformance: build the package with its own toolchain, pack it, install the tarball in a
# scratch app outside the repository (as a user would), compile the scenario there against the installed .d.ts,
# and run it on every Node.js this machine has (the one on PATH, and the system one when it differs: the package
# promises Node >= 18, not just the repository's Node 24). Env: PLINTH_URL, PLINTH_PROXY_URL, PLINTH_LIMITED_URL.
set -euo pipefail
cd "$(dirname "$0")"
HERE=$(pwd)
ROOT=$(cd ../.. && pwd)

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "node and npm are needed for the TypeScript client"
  exit 77
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plinth-ts-conformance.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error

# The package's own devDependency (TypeScript, pinned in its package-lock.json) builds it (pack.sh: npm pack).
TARBALL=$(./pack.sh)
echo "built $(basename "$TARBALL") ($(tar -tzf "$TARBALL" | wc -l) files)"

mkdir "$WORK/app"
cd "$WORK/app"
echo '{"name": "plinth-conformance-app", "private": true, "type": "module"}' >package.json
# No runtime dependencies, so this needs no registry.
npm install --silent --prefer-offline "$TARBALL"
cp "$HERE"/conformance/*.ts "$HERE/conformance/tsconfig.json" "$HERE/methods.json" .
# Node's own types (for process.env and node:assert in the scenario) come from the repository's devDependencies.
"$HERE/node_modules/.bin/tsc" -p tsconfig.json --typeRoots "$ROOT/node_modules/@types" --types node
echo "the scenario compiles against the installed package's .d.ts"

NODES=("$(command -v node)")
for candidate in /usr/bin/node /usr/local/bin/node; do
  if [[ -x "$candidate" && "$("$candidate" --version)" != "$(node --version)" ]]; then NODES+=("$candidate"); fi
done
for NODE in "${NODES[@]}"; do
  echo "--- $("$NODE" --version) ($NODE)"
  "$NODE" scenario.js
done
# The README's examples (readme-examples.ts, written from README.md by scripts/clients/readme.ts), compiled above.
node readme-examples.js
