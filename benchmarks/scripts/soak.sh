#!/usr/bin/env bash
# Many short CLI runs in a row, then what they left behind: processes, the broker's threads and open files, temporary
# folders and topics. Half the runs use a long-lived `kafkaperf broker` (--bootstrap), so that its JVM's threads, open
# files and topic list show what clients and the runner leak into a broker; the other half start and stop an embedded
# broker of their own, so that leftover JVMs and data folders show.
#
# usage: benchmarks/scripts/soak.sh [RUNS]        (default 50; needs a Release build and kcat)
set -euo pipefail
runs=${1:-50}
root=$(cd "$(dirname "$0")/../.." && pwd)
cli=(dotnet "$root/src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf.dll")
work=$(mktemp -d /tmp/kafkaperf-soak-XXXXXX)
trap 'kill "$broker" 2>/dev/null || true; wait "$broker" 2>/dev/null || true; rm -rf "$work"' EXIT

"${cli[@]}" broker --broker-heap 512 > "$work/address" 2> "$work/broker.err" &
broker=$!
for _ in $(seq 1 300); do [[ -s $work/address ]] && break; sleep 0.1; done
address=$(head -1 "$work/address")
jvm=$(pgrep -f -P "$broker" EmbeddedBrokerMain)
[[ -n $jvm ]] || { echo "soak: the broker did not start: $(cat "$work/broker.err")" >&2; exit 1; }

snapshot() {
  local tools jvms kcats threads fds folders topics
  tools=$(pgrep -fc 'dotnet-kafkaperf.dll' || true)
  jvms=$(pgrep -xc java || true)
  kcats=$(pgrep -xc kcat || true)
  threads=$(ls /proc/"$jvm"/task | wc -l)
  fds=$(ls /proc/"$jvm"/fd | wc -l)
  folders=$(find /tmp -mindepth 2 -maxdepth 2 -path '/tmp/kafkaperf-brokers-*/*' | wc -l)
  topics=$(kcat -b "$address" -L 2>/dev/null | grep -c '^  topic "kafkaperf' || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$tools" "$jvms" "$kcats" "$threads" "$fds" "$folders" "$topics"
}

# One run first so that the broker's lazily made threads (request handlers, log cleaner, group coordinator) exist.
"${cli[@]}" run --bootstrap "$address" --clients confluent,java --scenarios produce,consume,roundtrip --messages 2000 \
  --sizes 100 --repeat 1 --quiet --format json --output "$work/out" > /dev/null 2>&1
sleep 2
printf 'after\tkafkaperf processes\tjava processes\tkcat processes\tbroker JVM threads\tbroker JVM open files\tbroker data folders\tkafkaperf topics\n'
snapshot "warm-up run"
start=$(date +%s)
failed=0
for i in $(seq 1 "$runs"); do
  if (( i % 2 )); then
    args=(--bootstrap "$address" --references kcat)
  else
    args=(--broker-heap 256)
  fi
  if ! "${cli[@]}" run "${args[@]}" --clients confluent,java --scenarios produce,consume,roundtrip --messages 2000 \
       --sizes 100 --repeat 1 --quiet --format json --output "$work/out" > "$work/run.out" 2> "$work/run.err"; then
    failed=$((failed + 1)); echo "soak: run $i failed: $(tail -1 "$work/run.err")" >&2
  fi
  (( i % 10 )) || snapshot "$i runs"
done
sleep 2
snapshot "end, +2 s"
# Kafka deletes a removed topic's segment files after file.delete.delay.ms (60 s): its open files settle after that.
sleep 63
snapshot "end, +65 s"
echo "runs: $runs, failed: $failed, $(( $(date +%s) - start )) s; result files: $(ls "$work/out" | wc -l)"
