#!/usr/bin/env bash
# confluent, java and java-batched side by side on one embedded broker with the seed's settings, then Kafka's own
# ProducerPerformance (the pure-Java reference, in its own JVM) against java-batched and java, alternating.
#
#   benchmarks/scripts/java-side-by-side.sh [REPEAT] [OUT_DIR] [PARTS]
#
# REPEAT (default 10) is the repetitions per cell; clients alternate in KafkaPerf's balanced order after a warm-up.
# PARTS (default "small large perf") picks what runs:
#   small  produce/consume/roundtrip, 10 000 messages x 100 B, 1 KB, 10 KB, 100 KB
#   large  produce/consume/roundtrip, 1 000 000 messages x 100 B, 1 KB
#   perf   REPEAT rounds of [kafkaperf produce java-batched,java] then [ProducerPerformance], 1 000 000 x 100 B and 1 KB;
#          ProducerPerformance gets a prebuilt payload (--payload-file) and 1 000 000 warm-up records first, and its
#          steady-state line is the figure.
# Results (KafkaPerf's CSV/JSON/Markdown and the ProducerPerformance output) go to OUT_DIR, default
# kafkaperf-results/java-side-by-side-DATE; a summary table is printed at the end.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
repeat=${1:-10}
out=${2:-kafkaperf-results/java-side-by-side-$(date -u +%Y%m%d-%H%M%S)}
parts=${3:-small large perf}
bin="$root/src/KafkaPerf.Cli/bin/Release/net10.0"
cli="$bin/dotnet-kafkaperf"
libs="$bin/kafka/libs"
seed=(--acks 0 --linger-ms 100 --batch-size 1000000 --max-in-flight 1000000 --send-buffer 33554432 --receive-buffer 33554432 --fetch-min-bytes 100000)
seed_props=(acks=0 linger.ms=100 batch.size=1000000 max.in.flight.requests.per.connection=1000000 send.buffer.bytes=33554432 receive.buffer.bytes=33554432 enable.idempotence=false)

[ -e "$out" ] && { echo "java-side-by-side: '$out' exists: name a new folder" >&2; exit 2; }
dotnet build "$root/src/KafkaPerf.Cli" -c Release -v q -nologo >/dev/null
mkdir -p "$out"
work=$(mktemp -d)
broker_pid=""
cleanup() { [ -n "$broker_pid" ] && kill -TERM "$broker_pid" 2>/dev/null && wait "$broker_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

"$cli" broker >"$work/broker.out" 2>"$work/broker.err" &
broker_pid=$!
until [ -s "$work/broker.out" ]; do kill -0 "$broker_pid" 2>/dev/null || { cat "$work/broker.err" >&2; exit 1; }; sleep 0.05; done
bootstrap=$(head -1 "$work/broker.out")
{ echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "commit: $(git -C "$root" rev-parse --short HEAD)"; echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores";
  echo "broker: $bootstrap (embedded)"; echo "repeat: $repeat"; } >"$out/environment.txt"

run() { "$cli" run --bootstrap "$bootstrap" "${seed[@]}" --output "$out" --quiet "$@" >/dev/null; }

if [[ " $parts " == *" small "* ]]; then
  echo "java-side-by-side: 10 000 messages x 4 sizes x 3 scenarios x 3 clients x $repeat" >&2
  run --clients confluent,java,java-batched --scenarios produce,consume,roundtrip --sizes 100,1000,10000,100000 --messages 10000 --repeat "$repeat"
fi
if [[ " $parts " == *" large "* ]]; then
  echo "java-side-by-side: 1 000 000 messages x 2 sizes x 3 scenarios x 3 clients x $repeat" >&2
  run --clients confluent,java,java-batched --scenarios produce,consume,roundtrip --sizes 100,1000 --messages 1000000 --repeat "$repeat"
fi
if [[ " $parts " == *" perf "* ]]; then
  topics() { java -cp "$libs/*" org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" "$@" >/dev/null 2>&1; }
  for size in 100 1000; do
    # One payload of exactly SIZE printable bytes and no delimiter: ProducerPerformance sends it as every record's value.
    python3 -c "import random, string, sys; random.seed($size); sys.stdout.write(''.join(random.choice(string.ascii_lowercase) for _ in range($size)))" >"$work/payload-$size"
    [ "$(wc -c <"$work/payload-$size")" -eq "$size" ] || { echo "java-side-by-side: the payload file is not $size bytes" >&2; exit 1; }
    for round in $(seq 1 "$repeat"); do
      echo "java-side-by-side: ProducerPerformance round $round/$repeat, $size B" >&2
      run --clients java-batched,java --scenarios produce --sizes "$size" --messages 1000000 --repeat 1
      topic="kafkaperf-producerperf-$size-$round"
      topics --create --topic "$topic" --partitions 1 --replication-factor 1
      java -Xmx1024m -cp "$libs/*" org.apache.kafka.tools.ProducerPerformance --bootstrap-server "$bootstrap" --topic "$topic" \
        --num-records 2000000 --warmup-records 1000000 --throughput -1 --payload-file "$work/payload-$size" \
        --producer-props "${seed_props[@]}" 2>/dev/null | tail -1 | sed "s/^/$size $round /" >>"$out/producer-performance.txt"
      topics --delete --topic "$topic"
    done
  done
fi
python3 "$root/benchmarks/scripts/java-side-by-side-summary.py" "$out"
