#!/usr/bin/env bash
# Embedded broker and cluster cold start: the time from launching `dotnet-kafkaperf broker --brokers B` until it prints
# the bootstrap addresses (by then a real admin request has listed every broker), and the start time the tool reports
# itself (EmbeddedKafkaBroker.StartAsync: Java found, jars located, JVMs launched, storage formatted, Kafka started,
# every broker in the metadata). Each of N rounds (default 5) starts every case once, in turn: B brokers (default 1 and
# 3), with the broker class archive that the first `run` on a machine writes (see BrokerClassArchive), and without one
# (a fresh temporary folder). Prints every start and the medians.
#   benchmarks/scripts/broker-cold-start.sh [N] [B...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cli="$root/src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf.dll"
dotnet build "$root/src/KafkaPerf.Cli" -c Release -v q -nologo >/dev/null
runs=${1:-5}; shift || true
brokers=("$@"); [ ${#brokers[@]} -gt 0 ] || brokers=(1 3)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The first run on a machine writes the class archive (as a user's first `run` does); the `broker` command only reads it.
dotnet "$cli" run --clients confluent --scenarios produce --messages 10 --sizes 10 --repeat 1 --quiet --output "$work/warm" >/dev/null 2>&1

echo "| round | brokers | class archive | launch → bootstrap line, ms | start (its own figure), s |"
echo "|---:|---:|---|---:|---:|"
for i in $(seq 1 "$runs"); do
  for b in "${brokers[@]}"; do
    for archive in yes no; do
      : >"$work/out"; : >"$work/err"
      tmp=${TMPDIR:-/tmp}
      if [ "$archive" = no ]; then tmp="$work/fresh-$i-$b"; mkdir -p "$tmp"; fi
      start=$(date +%s%N)
      TMPDIR="$tmp" dotnet "$cli" broker --brokers "$b" >"$work/out" 2>"$work/err" &
      pid=$!
      until [ -s "$work/out" ]; do
        kill -0 "$pid" 2>/dev/null || { echo "broker-cold-start: the broker did not start:" >&2; cat "$work/err" >&2; exit 1; }
        sleep 0.005
      done
      end=$(date +%s%N)
      own=$(grep -o 'ready in [0-9.]* s' "$work/err" | grep -o '[0-9.]*')
      kill -TERM "$pid"; wait "$pid" || true
      wall=$(( (end - start) / 1000000 ))
      echo "$wall" >>"$work/wall-$b-$archive"; echo "$own" >>"$work/own-$b-$archive"
      echo "| $i | $b | $archive | $wall | $own |"
      sleep 1
    done
  done
done
for b in "${brokers[@]}"; do
  for archive in yes no; do
    echo "| **median** | **$b** | **$archive** | **$(median <"$work/wall-$b-$archive")** | **$(median <"$work/own-$b-$archive")** |"
  done
done
