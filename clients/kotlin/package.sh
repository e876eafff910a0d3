#!/usr/bin/env bash
# The Kotlin client as a user meets it: the jar and pom of dev.plinth:plinth-kotlin are installed into a temporary local
# Maven repository (what `mvn install` does, nothing published), then a fresh Maven project in a temporary directory
# outside this repository depends on those coordinates, compiles the README's quickstart (the block after
# `<!-- quickstart: Quickstart.kt -->`, compiled by the kotlin-maven-plugin) and runs it against PLINTH_URL: it must print a new account's id.
# Exit 77 when Java or Maven is missing.
#
# The fresh project resolves through its own local repository (the temporary one), so it sees exactly the artefact
# built here and never an older copy from ~/.m2; for everything else (Jackson, Maven's plugins) ~/.m2/repository is
# offered as a file:// repository ahead of Maven Central, so a warm cache means no network and little copying.
set -euo pipefail
cd "$(dirname "$0")"
command -v java >/dev/null && command -v mvn >/dev/null || { echo "java/mvn not installed"; exit 77; }
: "${PLINTH_URL:?PLINTH_URL must point at a running Plinth}"
start=$(date +%s)
# Maven's JVM does short-lived work here (one install, one small compile): C1 only and the serial GC, as
# .mvn/jvm.config does for the library's own build, on a shared 2-core machine.
export MAVEN_OPTS="${MAVEN_OPTS:-} -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
./build.sh
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -1)
kotlin=$(sed -n 's:^ *<kotlin.version>\(.*\)</kotlin.version>$:\1:p' pom.xml)
jar="$PWD/target/plinth-kotlin-$version.jar"
[[ -f $jar ]] || { echo "no $jar after the build"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/plinth-kotlin-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
repo="$work/m2"
cache="${MAVEN_USER_CACHE:-$HOME/.m2/repository}"
install=(org.apache.maven.plugins:maven-install-plugin:3.1.3:install-file "-Dfile=$jar" -DpomFile=pom.xml
  "-DlocalRepositoryPath=$repo")
mvn -q -B -o "${install[@]}" >/dev/null 2>&1 || mvn -q -B "${install[@]}"
[[ -f $repo/dev/plinth/plinth-kotlin/$version/plinth-kotlin-$version.jar ]] || { echo "not installed into $repo"; exit 1; }

mkdir -p "$work/app/src/main/kotlin"
cat >"$work/settings.xml" <<XML
<settings>
  <localRepository>$repo</localRepository>
  <profiles><profile>
    <id>user-cache</id>
    <repositories><repository><id>user-cache</id><url>file://$cache</url></repository></repositories>
    <pluginRepositories><pluginRepository><id>user-cache</id><url>file://$cache</url></pluginRepository></pluginRepositories>
  </profile></profiles>
  <activeProfiles><activeProfile>user-cache</activeProfile></activeProfiles>
</settings>
XML
cat >"$work/app/pom.xml" <<XML
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>quickstart</artifactId>
  <version>1</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <kotlin.compiler.jvmTarget>11</kotlin.compiler.jvmTarget>
    <kotlin.compiler.incremental>false</kotlin.compiler.incremental>
    <kotlin.compiler.daemon>false</kotlin.compiler.daemon>
  </properties>
  <dependencies>
    <dependency>
      <groupId>dev.plinth</groupId>
      <artifactId>plinth-kotlin</artifactId>
      <version>$version</version>
    </dependency>
  </dependencies>
  <build>
    <sourceDirectory>src/main/kotlin</sourceDirectory>
    <plugins><plugin>
      <groupId>org.jetbrains.kotlin</groupId>
      <artifactId>kotlin-maven-plugin</artifactId>
      <version>$kotlin</version>
      <executions><execution><id>compile</id><phase>compile</phase><goals><goal>compile</goal></goals></execution></executions>
    </plugin></plugins>
  </build>
</project>
XML
awk '/<!-- quickstart: Quickstart.kt -->/ {found = 1; next} found && /^```kotlin/ {inside = 1; next}
  inside && /^```/ {exit} inside {print}' README.md >"$work/app/src/main/kotlin/Quickstart.kt"
[[ -s $work/app/src/main/kotlin/Quickstart.kt ]] || { echo "README.md has no quickstart block"; exit 1; }

cd "$work/app"
build=(-s "$work/settings.xml" compile org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath
  -Dmdep.outputFile=classpath.txt)
mvn -q -B -o -Daether.offline.protocols=file "${build[@]}" >/dev/null 2>&1 || mvn -q -B "${build[@]}"
grep -q "$repo/dev/plinth/plinth-kotlin/$version/plinth-kotlin-$version.jar" classpath.txt \
  || { echo "the project did not resolve dev.plinth:plinth-kotlin from $repo: $(cat classpath.txt)"; exit 1; }
out=$(java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "target/classes:$(cat classpath.txt)" QuickstartKt)
echo "quickstart printed: $out"
[[ $out =~ ^acct_[0-9A-Za-z]+$ ]] || { echo "expected an account id"; exit 1; }
echo "kotlin package: dev.plinth:plinth-kotlin:$version installed and used outside the repository in $(( $(date +%s) - start )) s"
