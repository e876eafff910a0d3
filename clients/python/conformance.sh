#!/usr/bin/env bash
# Python client conformance: install the wheel (build.sh: sdist, then the wheel from it; dependencies from PyPI)
# into a venv under .tmp/, then run the layer's tests and the scenario from outside the source tree, so only the
# installed package can be imported. Env: PLINTH_URL, PLINTH_PROXY_URL, PLINTH_LIMITED_URL, PLINTH_RECEIVER_URL.
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
WHEEL=$(./build.sh)
PIP=("$VENV/bin/pip" install --quiet --disable-pip-version-check)
# Dependencies (and pytest, for tests/) are resolved again only when they change; the package is reinstalled every run.
TEST_DEPS=(pytest)
STAMP="$VENV/.deps-$(cat pyproject.toml <(echo "${TEST_DEPS[@]}") | sha256sum | cut -c1-16)"
if [[ -f "$STAMP" ]]; then
  "${PIP[@]}" --force-reinstall --no-deps "$WHEEL"
else
  "${PIP[@]}" --force-reinstall "$WHEEL" "${TEST_DEPS[@]}"
  touch "$STAMP"
fi
echo "installed $(basename "$WHEEL")"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"   # not the source tree: only the installed package is importable
# The layer's own tests first (retries, keys, timeouts, secrets against a scripted server; methods.json), then
# the live scenario.
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$HERE/tests"
"$VENV/bin/python" "$HERE/conformance/scenario.py"
# The README's examples (conformance/readme_examples.py, written from README.md by scripts/clients/readme.ts).
"$VENV/bin/python" "$HERE/conformance/readme_examples.py"
