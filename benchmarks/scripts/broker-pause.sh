#!/usr/bin/env bash
# A fixed-rate run during which the embedded broker's JVM is paused (SIGSTOP) for PAUSE seconds, about 4 s into the
# measured part, then resumed (SIGCONT). The -intervals.csv beside the results shows the stall second by second.
#
# usage: benchmarks/scripts/broker-pause.sh [CLIENT] [PAUSE]      (default: confluent 1; needs a Release build)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dll="$root/src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf.dll"
client=${1:-confluent}; pause=${2:-1}
out=${KAFKAPERF_OUT:-kafkaperf-pause}-$client
mkdir -p "$out"
dotnet "$dll" run --clients "$client" --scenarios produce --sizes 100 --rate 50k --duration 10s --warmup 2s --repeat 1 \
  --acks 1 --linger-ms 5 --batch-size 1000000 --max-in-flight 5 --output "$out" > "$out.md" 2> "$out.err" &
pid=$!
# The plan line comes once the broker is ready; the topic, the producer and the 2 s warm-up take about 3 s more.
until grep -q " run (" "$out.err" 2>/dev/null; do kill -0 "$pid" 2>/dev/null || { cat "$out.err" >&2; exit 1; }; sleep 0.1; done
sleep 7
jvm=$(pgrep -f -P "$pid" EmbeddedBrokerMain)
echo "pausing the broker (pid $jvm) at $(date +%T.%N) for $pause s"
kill -STOP "$jvm"; sleep "$pause"; kill -CONT "$jvm"
wait "$pid"
echo "exit $?; intervals: $(ls "$out"/*-intervals.csv)"
