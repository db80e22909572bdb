#!/usr/bin/env bash
# The CPU seconds an embedded broker's JVM has used when it is ready, with extra JVM options or without, alternating:
# what docs/RELIABILITY.md ("A second round") quotes. Build first (dotnet build KafkaPerf.sln -c Release).
#
#   benchmarks/scripts/broker-start-cpu.sh [--pairs N] "OPTIONS A" "OPTIONS B"
#
# Each option set goes to KAFKAPERF_BROKER_JVM_OPTIONS for `dotnet kafkaperf broker --broker-heap 256`; the JVM's
# utime+stime is read from /proc when the tool prints the broker's address, then the broker is stopped.
set -euo pipefail
cd "$(dirname "$0")/../.."
pairs=5
if [ "${1:-}" = "--pairs" ]; then pairs=$2; shift 2; fi
[ $# -ge 2 ] || { echo "usage: $0 [--pairs N] \"OPTIONS A\" \"OPTIONS B\"" >&2; exit 2; }
tool=src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf
[ -x "$tool" ] || { echo "broker-start-cpu: $tool is missing: run dotnet build KafkaPerf.sln -c Release first" >&2; exit 2; }
ticks=$(getconf CLK_TCK)

once() {
  local out pid jvm cpu
  out=$(mktemp)
  KAFKAPERF_BROKER_JVM_OPTIONS="$1" "$tool" broker --broker-heap 256 >"$out" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do grep -q "127.0.0.1:[0-9]" "$out" && break; sleep 0.1; done
  jvm=$(pgrep -P "$pid" -f EmbeddedBrokerMain | head -1)
  cpu=$(awk -v t="$ticks" '{printf "%.2f", ($14 + $15) / t}' "/proc/$jvm/stat")
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
  rm -f "$out"
  echo "$cpu"
}

for i in $(seq 1 "$pairs"); do
  echo "pair $i: A $(once "$1") CPU s, B $(once "$2") CPU s"
done
