#!/usr/bin/env bash
# Builds the Java client (target/plinth-java-<version>.jar, the library only) and the conformance programs
# (target/classes, with target/classpath.txt), for conformance.sh and package.sh. Rebuilds only when a source, the
# generated code or the pom changed since the last build (like cargo's cache), or when a plain `mvn package`/`install`
# left target/ without the conformance classes. Offline first (a warm ~/.m2 needs no network); online once to fill
# the cache. .mvn/jvm.config keeps Maven's JVM lean (C1 only, serial GC): compiling is short-lived work on a shared
# 2-core machine.
set -euo pipefail
cd "$(dirname "$0")"
stamp=target/.conformance-built
if [[ ! -f $stamp || ! -f target/classes/dev/plinth/conformance/ScriptedTest.class || -n "$(find pom.xml .mvn src generated conformance -newer "$stamp" -print -quit)" ]]; then
  rm -f "$stamp"
  mvn -q -B -o -Dstyle.color=never -Pconformance package >/dev/null 2>&1 || mvn -q -B -Dstyle.color=never -Pconformance package
  touch "$stamp"
fi
