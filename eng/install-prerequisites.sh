#!/usr/bin/env bash
# Installs what KafkaPerf needs beyond the .NET 10 SDK, each only when missing (idempotent), then fetches Kafka's jars:
#  - a JDK 17+ (java for the embedded broker, javac/jar to build the small Java launcher at build time)
#  - Maven, which fetches Apache Kafka's jars (eng/fetch-kafka.sh -> artifacts/kafka/libs)
#  - kcat, librdkafka's command-line client, the native reference in benchmarks
#  - chromium, in which a test renders the HTML report headless to check its charts
# librdkafka itself comes from NuGet (librdkafka.redist, through Confluent.Kafka), as for any Confluent.Kafka user.
# Debian/Ubuntu get the OS packages through apt-get (root or sudo); elsewhere it names what to install.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

need=()
if ! command -v javac >/dev/null 2>&1 && [ ! -x "${JAVA_HOME:-/nonexistent}/bin/javac" ]; then
  # Debian 12 / Ubuntu 22.04+ carry openjdk-17; newer releases only a newer JDK, which Kafka 4.3 runs on too.
  if command -v apt-cache >/dev/null 2>&1 && ! apt-cache show openjdk-17-jdk-headless >/dev/null 2>&1; then need+=(default-jdk-headless); else need+=(openjdk-17-jdk-headless); fi
fi
if [ -z "${KAFKAPERF_KAFKA_HOME:-}" ] && ! command -v mvn >/dev/null 2>&1; then need+=(maven); fi
command -v kcat >/dev/null 2>&1 || need+=(kcat)
command -v chromium >/dev/null 2>&1 || need+=(chromium)

if [ ${#need[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-prerequisites: please install ${need[*]} (or their equivalents) with your package manager (no apt-get here)." >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "install-prerequisites: installing ${need[*]}" >&2
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

"$root/eng/fetch-kafka.sh"
