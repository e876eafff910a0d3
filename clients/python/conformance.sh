#!/usr/bin/env bash
# Python client conformance: install the package (a real, non-editable pip install of this directory, building
# its wheel, with dependencies from PyPI) into a venv under .tmp/, then run the scenario from outside the source
# tree so only the installed package can be imported. Env: PLINTH_URL, PLINTH_PROXY_URL, PLINTH_LIMITED_URL.
set -euo pipefail
cd "$(dirname "$0")"
HERE=$(pwd)
ROOT=$(cd ../.. && pwd)

PYTHON=$(command -v python3 || true)
if [[ -z "$PYTHON" ]] || ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "python3 with venv is needed for the Python client (apt-get install python3 python3-venv)"
  exit 77
fi

VENV="$ROOT/.tmp/python-client-venv"
# Built from a clean copy: setuptools leaves build/ and *.egg-info/ in the directory it builds, and a stale
# build/lib can slip files that no longer exist into the wheel.
SRC=$(mktemp -d)
trap 'rm -rf "$SRC"' EXIT
cp -r pyproject.toml plinth generated "$SRC/"
PIP=("$VENV/bin/pip" install --quiet --disable-pip-version-check)
[[ -x "$VENV/bin/python" ]] || "$PYTHON" -m venv "$VENV"
# Dependencies (and pytest, for tests/) are resolved again only when they change; the package is rebuilt every run.
TEST_DEPS=(pytest)
STAMP="$VENV/.deps-$(cat pyproject.toml <(echo "${TEST_DEPS[@]}") | sha256sum | cut -c1-16)"
if [[ -f "$STAMP" ]]; then
  "${PIP[@]}" --force-reinstall --no-deps "$SRC"
else
  "${PIP[@]}" "$SRC" "${TEST_DEPS[@]}"
  touch "$STAMP"
fi
echo "installed $("$VENV/bin/pip" show plinth-client | grep -E '^(Name|Version)' | tr '\n' ' ')"

cd "$SRC/.."   # not the source tree: only the installed package is importable
# The layer's own tests first (retries, keys, timeouts against a scripted local server), then the live scenario.
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$HERE/tests"
"$VENV/bin/python" "$HERE/conformance/scenario.py"
