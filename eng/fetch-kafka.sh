#!/usr/bin/env bash
# Puts Apache Kafka's jars (broker, Java client, perf tools and their runtime dependencies, as pinned in
# eng/kafka/pom.xml) into artifacts/kafka/libs, using Maven. Idempotent: does nothing while the jars there
# were fetched with the current pom. The build runs it when the jars are missing.
#
#   KAFKAPERF_KAFKA_HOME   an unpacked Apache Kafka distribution: its libs/ is used as is, nothing is fetched.
#   KAFKAPERF_MAVEN_MIRROR a local Maven repository (repository layout) to resolve from instead of Maven's own
#                          settings, for machines that reach no Maven repository.
# Without either, Maven resolves from its default repository or from the user's own Maven settings.
#
#   --dest DIR             put the jars in DIR instead (the tests use it; Maven's work files go beside DIR).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pom="$root/eng/kafka/pom.xml"
libs="$root/artifacts/kafka/libs"
if [ "${1:-}" = "--dest" ] && [ -n "${2:-}" ]; then libs=$2; fi
work=$(dirname "$libs")
stamp="$libs/.kafkaperf-fetched"

fail() { echo "fetch-kafka: $*" >&2; exit 1; }

# A variable that is set but wrong is reported even when the jars are already there.
if [ -n "${KAFKAPERF_MAVEN_MIRROR:-}" ] && [ -z "${KAFKAPERF_KAFKA_HOME:-}" ]; then
  mirror=$(cd "$KAFKAPERF_MAVEN_MIRROR" 2>/dev/null && pwd) \
    || fail "KAFKAPERF_MAVEN_MIRROR is '$KAFKAPERF_MAVEN_MIRROR', which is not a folder: point it at a local Maven repository, or unset it to use Maven's own settings."
  [ -d "$mirror/org/apache/kafka" ] \
    || fail "KAFKAPERF_MAVEN_MIRROR is '$KAFKAPERF_MAVEN_MIRROR', which holds no org/apache/kafka: point it at a Maven repository (repository layout) holding Kafka, or unset it to use Maven's own settings."
fi

if [ -n "${KAFKAPERF_KAFKA_HOME:-}" ]; then
  if ! compgen -G "$KAFKAPERF_KAFKA_HOME/libs/kafka-clients-*.jar" >/dev/null; then
    fail "KAFKAPERF_KAFKA_HOME is '$KAFKAPERF_KAFKA_HOME', but its libs/ holds no kafka-clients jar: point it at an unpacked Apache Kafka distribution, or unset it to fetch the jars with Maven."
  fi
  exit 0
fi

want=$(sha256sum "$pom" | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi

command -v mvn >/dev/null 2>&1 \
  || fail "Maven (mvn) is not installed, and it fetches Kafka's jars: install it (Debian/Ubuntu: apt-get install maven), or set KAFKAPERF_KAFKA_HOME to an unpacked Apache Kafka distribution."

mkdir -p "$work"
args=(-B -C -f "$pom")
settings=""
cleanup() { [ -n "$settings" ] && rm -f "$settings"; rm -rf "$libs.partial"; }
trap cleanup EXIT

if [ -n "${KAFKAPERF_MAVEN_MIRROR:-}" ]; then
  # Written at run time because it holds this machine's path; the mirror stands in for every repository.
  settings=$(mktemp "${TMPDIR:-/tmp}/kafkaperf-maven-settings.XXXXXX.xml")
  cat >"$settings" <<XML
<settings><mirrors><mirror>
  <id>kafkaperf-mirror</id><mirrorOf>*</mirrorOf><url>file://$mirror</url>
</mirror></mirrors></settings>
XML
  # A local repository of our own, so the mirror's files never mix into the user's ~/.m2.
  args+=(-s "$settings" "-Dmaven.repo.local=$work/m2")
fi

echo "fetch-kafka: resolving Apache Kafka's jars with Maven${KAFKAPERF_MAVEN_MIRROR:+ from $KAFKAPERF_MAVEN_MIRROR}" >&2
rm -rf "$libs.partial"
log="$work/maven.log"
if ! mvn "${args[@]}" org.apache.maven.plugins:maven-dependency-plugin:3.11.0:copy-dependencies -DincludeScope=runtime "-DoutputDirectory=$libs.partial" >"$log" 2>&1; then
  reason=$(grep -m1 -E '^\[ERROR\] ' "$log" | sed -e 's/^\[ERROR\] //' -e 's/ -> \[Help.*//' | cut -c1-240 || true)
  fail "Maven could not fetch Kafka's jars (${reason:-see the log}). Give Maven a reachable repository (its settings), set KAFKAPERF_MAVEN_MIRROR to a local Maven repository, or set KAFKAPERF_KAFKA_HOME to a Kafka distribution. Full log: $log"
fi
compgen -G "$libs.partial/kafka-clients-*.jar" >/dev/null || fail "Maven finished but copied no kafka-clients jar; full log: $log"

# Replace the folder in one step, so a half-fetched set is never taken for a complete one.
rm -rf "$libs"
mv "$libs.partial" "$libs"
echo "$want" >"$stamp"
count=$(find "$libs" -name '*.jar' | wc -l)
echo "fetch-kafka: $count jars ($(du -sh "$libs" | cut -f1)) in ${libs#"$root"/}" >&2
