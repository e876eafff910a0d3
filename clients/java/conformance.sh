#!/usr/bin/env bash
# Builds the Java client with Maven and runs the conformance scenario against PLINTH_URL / PLINTH_PROXY_URL /
# PLINTH_LIMITED_URL. Exit 77 when Java or Maven is missing.
set -euo pipefail
cd "$(dirname "$0")"
command -v java >/dev/null && command -v mvn >/dev/null || { echo "java/mvn not installed"; exit 77; }
# Rebuild only when a source, the generated code or the pom changed since the last build (like cargo's cache),
# or when a plain `mvn package`/`install` left target/ without the conformance classes.
# Offline first (a warm ~/.m2 needs no network); online once to fill the cache. .mvn/jvm.config keeps Maven's
# JVM lean (C1 only, serial GC): compiling is short-lived work on a shared 2-core machine.
stamp=target/.conformance-built
if [[ ! -f $stamp || ! -f target/classes/dev/plinth/conformance/ScriptedTest.class || -n "$(find pom.xml .mvn src generated conformance -newer "$stamp" -print -quit)" ]]; then
  rm -f "$stamp"
  mvn -q -B -o -Dstyle.color=never -Pconformance package >/dev/null 2>&1 || mvn -q -B -Dstyle.color=never -Pconformance package
  touch "$stamp"
fi
cp="target/classes:$(cat target/classpath.txt)"
# What the live scenario cannot provoke (503/409 retried with one key, Retry-After, limits, refused connections,
# timeout), against a scripted server; then the scenario itself.
java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$cp" dev.plinth.conformance.ScriptedTest
exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$cp" dev.plinth.conformance.Conformance
