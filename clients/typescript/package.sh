#!/usr/bin/env bash
# The TypeScript client as a user meets it: `npm pack` (pack.sh; prepack builds dist/esm and dist/cjs), `npm install` of
# the tarball into a fresh app outside the repository, then the README's quickstart, taken from README.md (the
# blocks after `<!-- package.sh: quickstart.mjs -->` and `<!-- package.sh: quickstart.cjs -->`), type-checked
# against the installed .d.ts (import and require resolve their own) and run as an ES module and as CommonJS
# against PLINTH_URL. Exit 77 when node or npm is missing.
set -euo pipefail
cd "$(dirname "$0")"
HERE=$(pwd)
ROOT=$(cd ../.. && pwd)

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "node and npm are needed for the TypeScript client"
  exit 77
fi
: "${PLINTH_URL:?PLINTH_URL is not set}"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plinth-ts-package.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error

TARBALL=$(./pack.sh)   # the tarball conformance.sh installed, when the sources have not changed since
LISTING=$(tar -tzf "$TARBALL")
for entry in package/dist/esm/src/index.js package/dist/esm/src/index.d.ts package/dist/cjs/src/index.js \
  package/dist/cjs/src/index.d.ts package/dist/cjs/package.json package/README.md; do
  grep -qx "$entry" <<<"$LISTING" || { echo "the tarball has no $entry"; exit 1; }
done
echo "packed $(basename "$TARBALL"): ESM, CommonJS and their .d.ts"

# The quickstart blocks of README.md, verbatim.
quickstart() {
  awk -v marker="<!-- package.sh: $1 -->" '
    $0 == marker { found = 1; next }
    found == 1 && /^```/ { found = 2; next }
    found == 2 && /^```/ { exit }
    found == 2 { print }
  ' "$HERE/README.md"
}
mkdir "$WORK/app"
cd "$WORK/app"
echo '{"name": "plinth-quickstart", "private": true}' >package.json
npm install --silent --prefer-offline "$TARBALL"   # no runtime dependencies: nothing is fetched
for file in quickstart.mjs quickstart.cjs; do
  quickstart "$file" >"$file"
  [[ -s "$file" ]] || { echo "README.md has no block for $file"; exit 1; }
done
cat >tsconfig.json <<'JSON'
{ "compilerOptions": { "allowJs": true, "checkJs": true, "noEmit": true, "strict": true, "module": "nodenext",
    "moduleResolution": "nodenext", "target": "es2022", "lib": ["es2022", "dom"], "skipLibCheck": true },
  "files": ["quickstart.mjs", "quickstart.cjs"] }
JSON
# skipLibCheck: the .d.ts files themselves are checked by the package's build and by conformance.sh; here what
# counts is that import and require each resolve their own and that the quickstart type-checks against them.
"$HERE/node_modules/.bin/tsc" -p tsconfig.json --typeRoots "$ROOT/node_modules/@types" --types node
echo "the quickstart type-checks as an ES module and as CommonJS against the installed .d.ts"

NODES=("$(command -v node)")
for candidate in /usr/bin/node /usr/local/bin/node; do
  if [[ -x "$candidate" && "$("$candidate" --version)" != "$(node --version)" ]]; then NODES+=("$candidate"); fi
done
# CommonJS on every Node.js; the ES module on the first (conformance.sh runs its scenario as ESM on each already).
RUNS=("${NODES[0]} quickstart.mjs")
for NODE in "${NODES[@]}"; do RUNS+=("$NODE quickstart.cjs"); done
for run in "${RUNS[@]}"; do
  read -r NODE file <<<"$run"
  id=$("$NODE" "$file")
  [[ "$id" =~ ^acct_ ]] || { echo "$file on $("$NODE" --version) printed '$id', not an account id"; exit 1; }
  echo "ok $file on Node.js $("$NODE" --version): $id"
done
