#!/usr/bin/env bash
# The Python client as a user meets it: the wheel (build.sh: the sdist, then the wheel from it) installed with pip
# into a fresh venv in a temporary directory outside the repository (dependencies: PyPI's wheels), then the README's
# quickstart (the block after `<!-- package.sh: quickstart.py -->`) run there against PLINTH_URL. Exit 77 when
# python3 with venv is missing.
set -euo pipefail
cd "$(dirname "$0")"
HERE=$(pwd)
ROOT=$(cd ../.. && pwd)

PYTHON=$(command -v python3 || true)
if [[ -z "$PYTHON" ]] || ! "$PYTHON" -c 'import venv' 2>/dev/null; then
  echo "python3 with venv is needed for the Python client"
  exit 77
fi
: "${PLINTH_URL:?PLINTH_URL is not set}"

WHEEL=$(./build.sh)   # the wheel conformance.sh installed, when the sources have not changed since
SDIST=$(ls "$(dirname "$WHEEL")"/*.tar.gz)
echo "built $(basename "$SDIST") and, from it, $(basename "$WHEEL")"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plinth-python-package.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PIP=("$ROOT/.tmp/python-client-venv/bin/pip" --disable-pip-version-check)
# The dependencies' wheels, from PyPI, kept between runs in a wheelhouse named by pyproject.toml's hash (pip keeps
# no cache on this machine, and fetching pydantic-core every run costs ~10 s); pip still resolves them against
# the wheel's own metadata, with --no-index so nothing else can slip in.
WHEELHOUSE="$ROOT/.tmp/python-wheelhouse-$(sha256sum pyproject.toml | cut -c1-16)"
if [[ ! -f "$WHEELHOUSE/.complete" ]]; then
  rm -rf "$ROOT"/.tmp/python-wheelhouse-*
  "${PIP[@]}" download --quiet --dest "$WHEELHOUSE" "$WHEEL"
  touch "$WHEELHOUSE/.complete"
fi
# A venv without pip of its own (ensurepip is the slow part); the build venv's pip installs into it.
"$PYTHON" -m venv --without-pip "$WORK/venv"
"${PIP[@]}" --python "$WORK/venv/bin/python" install --quiet --no-index --find-links "$WHEELHOUSE" "$WHEEL"
echo "installed into a fresh venv: $("$WORK/venv/bin/python" -c 'import importlib.metadata as m; print("plinth-client", m.version("plinth-client"))')"

awk '
  $0 == "<!-- package.sh: quickstart.py -->" { found = 1; next }
  found == 1 && /^```/ { found = 2; next }
  found == 2 && /^```/ { exit }
  found == 2 { print }
' "$HERE/README.md" >"$WORK/quickstart.py"
[[ -s "$WORK/quickstart.py" ]] || { echo "README.md has no quickstart block"; exit 1; }
cd "$WORK"
id=$("$WORK/venv/bin/python" -I quickstart.py)
[[ "$id" =~ ^acct_ ]] || { echo "the quickstart printed '$id', not an account id"; exit 1; }
echo "ok quickstart.py on Python $("$WORK/venv/bin/python" -c 'import sys; print(sys.version.split()[0])'): $id"
