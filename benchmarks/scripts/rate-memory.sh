#!/usr/bin/env bash
# The tool's own memory during a long fixed-rate run: VmRSS and VmHWM of the dotnet process (not the broker's JVM,
# which /usr/bin/time would report as the largest descendant) every 2 s, into DURATION.rss beside the results.
#
# usage: benchmarks/scripts/rate-memory.sh [DURATION ...]     (default: 1m 10m; needs a Release build)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dll="$root/src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf.dll"
out=${KAFKAPERF_OUT:-kafkaperf-memory}
mkdir -p "$out"
durations=("$@"); [[ ${#durations[@]} -gt 0 ]] || durations=(1m 10m)
for d in "${durations[@]}"; do
  dotnet "$dll" run --clients confluent --scenarios produce --sizes 100 --rate 100k --duration "$d" --warmup 2s --repeat 1 \
    --acks 1 --linger-ms 5 --batch-size 1000000 --max-in-flight 5 --format csv,json,md --output "$out/$d" > "$out/$d.md" 2> "$out/$d.err" &
  pid=$!; t0=$(date +%s); echo "seconds VmHWM_kB VmRSS_kB" > "$out/$d.rss"
  while kill -0 "$pid" 2>/dev/null; do
    s=$(awk '/VmHWM|VmRSS/{printf "%s ", $2}' "/proc/$pid/status" 2>/dev/null)
    [[ -n $s ]] && echo "$(( $(date +%s) - t0 )) $s" >> "$out/$d.rss"
    sleep 2
  done
  wait "$pid"
  echo "$d: peak $(tail -1 "$out/$d.rss" | awk '{printf "%.0f MB", $2/1024}') (samples in $out/$d.rss)"
done
