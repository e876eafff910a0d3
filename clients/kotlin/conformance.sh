#!/usr/bin/env bash
# Builds the Kotlin client with Maven and runs the conformance scenario against PLINTH_URL / PLINTH_PROXY_URL /
# PLINTH_LIMITED_URL. Exit 77 when Java or Maven is missing.
set -euo pipefail
cd "$(dirname "$0")"
command -v java >/dev/null && command -v mvn >/dev/null || { echo "java/mvn not installed"; exit 77; }
# Offline first (a warm ~/.m2 needs no network); online once to fill the cache.
mvn -q -B -o -Dstyle.color=never -Pconformance package >/dev/null 2>&1 || mvn -q -B -Dstyle.color=never -Pconformance package
exec java -cp "target/classes:$(cat target/classpath.txt)" dev.plinth.conformance.ConformanceKt
