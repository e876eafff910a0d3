#!/usr/bin/env bash
# Builds the Java client with Maven (build.sh) and runs the conformance scenario against PLINTH_URL /
# PLINTH_PROXY_URL / PLINTH_LIMITED_URL / PLINTH_RECEIVER_URL. Exit 77 when Java or Maven is missing.
set -euo pipefail
cd "$(dirname "$0")"
command -v java >/dev/null && command -v mvn >/dev/null || { echo "java/mvn not installed"; exit 77; }
./build.sh
cp="target/classes:$(cat target/classpath.txt)"
# methods.json names only methods that exist, and every method of every resource (reflection); then
# what the live scenario cannot provoke (503/409 retried with one key, Retry-After, limits, refused connections,
# timeout, a replayed secret), against a scripted server; then the scenario itself.
java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$cp" dev.plinth.conformance.ManifestCheck methods.json
java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$cp" dev.plinth.conformance.ScriptedTest
java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$cp" dev.plinth.conformance.ScriptedStream
exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$cp" dev.plinth.conformance.Conformance
