#!/usr/bin/env bash
# Installs what KafkaPerf needs beyond the .NET 10 SDK, only when missing (idempotent):
#  - librdkafka (the native library under Confluent.Kafka; its NuGet redist is not on every package source)
#  - a Java 17+ runtime (for the embedded broker and the KNet clients)
# Debian/Ubuntu only; elsewhere it says what to install and exits non-zero.
set -euo pipefail

need=()
if ! ldconfig -p 2>/dev/null | grep -q 'librdkafka\.so\.1'; then need+=(librdkafka1); fi
if ! command -v java >/dev/null 2>&1 && [ -z "${JAVA_HOME:-}" ]; then need+=(openjdk-17-jre-headless); fi
if [ ${#need[@]} -eq 0 ]; then exit 0; fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-prerequisites: please install ${need[*]} with your package manager (no apt-get here)." >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-prerequisites: installing ${need[*]}" >&2
$sudo apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
