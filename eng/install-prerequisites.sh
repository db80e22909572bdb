#!/usr/bin/env bash
# Installs what KafkaPerf needs beyond the .NET 10 SDK, each only when missing (idempotent), then fetches Kafka's jars:
#  - a JDK 17+ (java for the embedded broker, javac/jar to build the small Java launcher at build time)
#  - Maven, which fetches Apache Kafka's jars (eng/fetch-kafka.sh -> artifacts/kafka/libs)
# with --references, what only `--references kcat` uses (the main command does not: it is not installed for it):
#  - kcat, librdkafka's command-line client, the native reference in benchmarks
# and with --tests, that and what only the tests need:
#  - chromium, in which a test renders the HTML report headless to check its charts
#  - perf (Debian's linux-perf), with which a test samples the tool for run --profile
#  - a Docker engine (Debian's docker.io), started when it is not running, and a local Kafka image built from the
#    fetched jars (eng/build-kafka-image.sh), for the tests that run Kafka in a container through Testcontainers;
#    KAFKAPERF_NO_DOCKER=1 leaves Docker alone (those tests then skip, saying why)
# librdkafka itself comes from NuGet (librdkafka.redist, through Confluent.Kafka), as for any Confluent.Kafka user.
# Debian/Ubuntu get the OS packages through apt-get (root or sudo); elsewhere it names what to install.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tests=0 references=0
for arg in "$@"; do
  case $arg in
    --tests) tests=1; references=1 ;;
    --references) references=1 ;;
    *) echo "install-prerequisites: unknown argument '$arg': give --references (kcat, for --references kcat), --tests (the tests' own prerequisites, kcat included) or nothing." >&2; exit 2 ;;
  esac
done

need=()
if ! command -v javac >/dev/null 2>&1 && [ ! -x "${JAVA_HOME:-/nonexistent}/bin/javac" ]; then
  # Debian 12 / Ubuntu 22.04+ carry openjdk-17; newer releases only a newer JDK, which Kafka 4.3 runs on too.
  if command -v apt-cache >/dev/null 2>&1 && ! apt-cache show openjdk-17-jdk-headless >/dev/null 2>&1; then need+=(default-jdk-headless); else need+=(openjdk-17-jdk-headless); fi
fi
if [ -z "${KAFKAPERF_KAFKA_HOME:-}" ] && ! command -v mvn >/dev/null 2>&1; then need+=(maven); fi
if [ "$references" = 1 ]; then command -v kcat >/dev/null 2>&1 || need+=(kcat); fi
want_docker=$tests
if [ "$tests" = 1 ]; then command -v chromium >/dev/null 2>&1 || need+=(chromium); fi
if [ "$tests" = 1 ] && ! command -v perf >/dev/null 2>&1 && command -v apt-cache >/dev/null 2>&1 && apt-cache show linux-perf >/dev/null 2>&1; then need+=(linux-perf); fi
# The results store's tests start a PostgreSQL server of their own (initdb, pg_ctl), as others start a broker.
if [ "$tests" = 1 ] && ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && ! command -v initdb >/dev/null 2>&1; then need+=(postgresql); fi
if [ "${KAFKAPERF_NO_DOCKER:-}" = "1" ] || [ "$(uname -s)" != "Linux" ]; then want_docker=0; fi
if [ "$want_docker" = 1 ] && ! command -v dockerd >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then need+=(docker.io); fi

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

if [ "$want_docker" = 1 ]; then
  # The engine: started here when it is installed but not running and this script may start it (root or sudo).
  if command -v dockerd >/dev/null 2>&1 && ! docker info >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null; then
      sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
      echo "install-prerequisites: starting the Docker engine (dockerd; its log: /var/log/kafkaperf-dockerd.log)" >&2
      # In a session of its own: a Ctrl+C in this terminal (the tests' command after this one) must not reach the engine,
      # which outlives this script and may serve other work.
      $sudo setsid -f sh -c 'exec dockerd >/var/log/kafkaperf-dockerd.log 2>&1 </dev/null'
      for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
    fi
  fi
  if docker info >/dev/null 2>&1; then
    "$root/eng/build-kafka-image.sh"
  else
    echo "install-prerequisites: no Docker engine answers here (and none could be started): the tests that run Kafka in a container will skip." >&2
  fi
fi
