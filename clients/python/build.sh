#!/usr/bin/env bash
# Prints the path of the wheel built from the current sources, building it only when no wheel of exactly these
# sources exists yet (conformance.sh and package.sh both install it). `python -m build` makes the sdist first and
# the wheel from the unpacked sdist, so a file the sdist forgets fails here rather than for a user. Artefacts live
# in .tmp/clients-packages/python/<hash of the sources>/; the build tools (build, setuptools) in the shared venv
# .tmp/python-client-venv, installed once. Needs python3 with venv (conformance.sh checks).
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
VENV="$ROOT/.tmp/python-client-venv"
OUT="$ROOT/.tmp/clients-packages/python"
PIP=("$VENV/bin/pip" install --quiet --disable-pip-version-check)

[[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
BUILD_DEPS=(build "setuptools>=68")
STAMP="$VENV/.build-deps-$(echo "${BUILD_DEPS[@]}" | sha256sum | cut -c1-16)"
[[ -f "$STAMP" ]] || { "${PIP[@]}" "${BUILD_DEPS[@]}" >&2 && touch "$STAMP"; }

HASH=$(find pyproject.toml README.md MANIFEST.in plinth generated -type f -not -path '*/__pycache__/*' -print0 |
  sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
if ! ls "$OUT/$HASH"/*.whl >/dev/null 2>&1; then
  rm -rf "$OUT" && mkdir -p "$OUT/$HASH"
  # From a clean copy: setuptools leaves build/ and *.egg-info/ in the directory it builds.
  SRC=$(mktemp -d)
  trap 'rm -rf "$SRC"' EXIT
  cp -r pyproject.toml README.md MANIFEST.in plinth generated "$SRC/"
  "$VENV/bin/python" -m build --no-isolation --outdir "$OUT/$HASH" "$SRC" >&2
fi
ls "$OUT/$HASH"/*.whl
