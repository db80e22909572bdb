#!/usr/bin/env bash
# Embedded broker cold start: the time from launching `dotnet-kafkaperf broker` until it prints the bootstrap address
# (by then the broker has answered a real admin request), and the broker's own start time as it reports it
# (EmbeddedKafkaBroker.StartAsync: Java found, jars located, JVM launched, storage formatted, Kafka started, ready).
# Runs N times (default 5), one broker at a time, and prints every run and the medians.
#   benchmarks/scripts/broker-cold-start.sh [N]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cli="$root/src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf.dll"
dotnet build "$root/src/KafkaPerf.Cli" -c Release -v q -nologo >/dev/null
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| run | launch → bootstrap line, ms | broker start (its own figure), s |"
echo "|---:|---:|---:|"
: >"$work/wall"; : >"$work/own"
for i in $(seq 1 "$runs"); do
  : >"$work/out"; : >"$work/err"
  start=$(date +%s%N)
  dotnet "$cli" broker >"$work/out" 2>"$work/err" &
  pid=$!
  until [ -s "$work/out" ]; do
    kill -0 "$pid" 2>/dev/null || { echo "broker-cold-start: the broker did not start:" >&2; cat "$work/err" >&2; exit 1; }
    sleep 0.005
  done
  end=$(date +%s%N)
  own=$(grep -o 'ready in [0-9.]* s' "$work/err" | grep -o '[0-9.]*')
  kill -TERM "$pid"; wait "$pid" || true
  wall=$(( (end - start) / 1000000 ))
  echo "$wall" >>"$work/wall"; echo "$own" >>"$work/own"
  echo "| $i | $wall | $own |"
  sleep 1
done
echo "| **median** | **$(median <"$work/wall")** | **$(median <"$work/own")** |"
