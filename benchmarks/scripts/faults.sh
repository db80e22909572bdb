#!/usr/bin/env bash
# Each fault of docs/RELIABILITY.md, done for real to a running plan: the embedded broker killed or paused, a
# --bootstrap cluster killed or paused, the tool signalled or killed, its output folder removed. Prints one Markdown row
# per fault: time from the fault to the tool's exit, the exit code, the runs in the saved JSON (finished / failed /
# cancelled, and whether it is a checkpoint), the CSV's rows, what was left behind, and the tool's last line.
#
# usage: benchmarks/scripts/faults.sh            (needs a Release build; about 10 minutes)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dll="$root/src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf.dll"
work=$(mktemp -d /tmp/kafkaperf-faults-XXXXXX)
trap 'pkill -P $$ 2>/dev/null; rm -rf "$work"' EXIT

# Starts the tool with SIGINT at its default (a background job inherits it ignored), output to $work/$1.
start() {
  local name=$1; shift
  out="$work/$name"; mkdir -p "$out"
  env --default-signal=INT dotnet "$dll" "$@" --output "$out" > "$out.stdout" 2> "$out.stderr" &
  tool=$!
}
wait_for() { # pattern [file]
  local file=${2:-$out.stderr}
  for _ in $(seq 1 1800); do grep -qF -- "$1" "$file" 2>/dev/null && return 0; kill -0 "$tool" 2>/dev/null || return 1; sleep 0.1; done
  return 1
}
broker_of() { pgrep -f -P "$1" EmbeddedBrokerMain; }
now() { date +%s.%N; }
finish() { # fault-name command t0
  wait "$tool"; local rc=$? t1; t1=$(now)
  sleep 2
  local runs csv left
  read -r runs csv < <(python3 - "$out" <<'EOF'
import glob, json, os, sys
out = sys.argv[1]
# The output folder itself, or - when it was removed - the temporary folder the tool moved to.
folder = out if os.path.isdir(out) else '/tmp/kafkaperf-results'
files = sorted(glob.glob(folder + '/*.json'), key=os.path.getmtime)
if not files:
    print('none 0'); sys.exit()
d = json.load(open(files[-1]))
runs = d['runs']
ok = sum(1 for r in runs if r.get('succeeded'))
cancelled = sum(1 for r in runs if 'cancelled before' in (r.get('error') or ''))
csv = files[-1][:-len('.json')] + '.csv'
rows = sum(1 for line in open(csv)) - 1 if os.path.exists(csv) else 0
print(f"{ok}/{len(runs) - ok - cancelled}/{cancelled}" + ("(checkpoint)" if d.get('inProgress') else ""), rows)
EOF
)
  left=$(( $(pgrep -fc EmbeddedBrokerMain) - ${keep_brokers:-0} ))
  left="$left JVM, $(pgrep -c kcat) kcat, $(find /tmp -mindepth 2 -maxdepth 2 -path '/tmp/kafkaperf-brokers-*/*' | wc -l) broker folders"
  printf '| %s | `%s` | %.1f s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$(echo "$t1 - $3" | bc)" "$rc" "$runs" "$csv" "$left" \
    "$(grep -v '^wrote' "$out.stderr" | grep kafkaperf: | tail -1 | cut -c1-220 | sed 's/|/\\|/g')"
}

echo '| fault | plan | fault → exit | exit | runs saved (ok / failed / cancelled) | CSV rows | left behind | last line |'
echo '|---|---|---:|---:|---|---:|---|---|'

plan=(run --sizes 1000 --messages 200000 --repeat 2 --broker-heap 512)
for cs in confluent:produce java:produce confluent:consume java:consume confluent:roundtrip java:roundtrip; do
  c=${cs%%:*}; s=${cs##*:}
  start "kill-$c-$s" "${plan[@]}" --clients "$c" --scenarios "$s"
  wait_for "[   2/3]"; sleep 0.5; t0=$(now); kill -KILL "$(broker_of $tool)"
  finish "embedded broker SIGKILL during a $c $s run" "--clients $c --scenarios $s" "$t0"
done

start stop run --sizes 1000 --messages 300000 --repeat 2 --broker-heap 512 --clients confluent --scenarios produce --stall-timeout 5s
wait_for "[   2/3]"; sleep 0.3; jvm=$(broker_of $tool); t0=$(now); kill -STOP "$jvm"
finish "embedded broker SIGSTOP (paused for good)" "--stall-timeout 5s" "$t0"; kill -CONT "$jvm" 2>/dev/null

cluster() {
  dotnet "$dll" broker --broker-heap 512 > "$work/cluster.out" 2> "$work/cluster.err" &
  cluster=$!
  for _ in $(seq 1 300); do [[ -s $work/cluster.out ]] && break; sleep 0.1; done
  address=$(head -1 "$work/cluster.out"); cluster_jvm=$(broker_of $cluster); keep_brokers=1
}
cluster
start bootstrap-dies run --clients confluent --scenarios produce --sizes 1000 --messages 300000 --repeat 2 --bootstrap "$address" --stall-timeout 5s
wait_for "[   2/3]"; sleep 0.3; t0=$(now); kill -KILL "$cluster_jvm"
keep_brokers=0; finish "--bootstrap cluster SIGKILL" "--bootstrap … --stall-timeout 5s" "$t0"
kill "$cluster" 2>/dev/null; wait "$cluster" 2>/dev/null

cluster
start bootstrap-back run --clients confluent --scenarios produce --sizes 1000 --messages 300000 --repeat 3 --bootstrap "$address" --stall-timeout 5s
wait_for "[   2/4]"; sleep 0.3; t0=$(now); kill -STOP "$cluster_jvm"; sleep 8; kill -CONT "$cluster_jvm"
finish "--bootstrap cluster paused 8 s, then back" "--bootstrap … --stall-timeout 5s --repeat 3" "$t0"
kill "$cluster" 2>/dev/null; wait "$cluster" 2>/dev/null; keep_brokers=0

for sig in INT TERM; do
  start "sig-$sig" run --sizes 1000 --messages 300000 --repeat 2 --broker-heap 512 --clients java --scenarios produce --stall-timeout 60s
  wait_for "[   2/3]"; sleep 0.3; jvm=$(broker_of $tool); kill -STOP "$jvm"; sleep 2
  t0=$(now); kill -"$sig" "$tool"
  finish "SIG$sig during a hung java flush (broker paused)" "--clients java --stall-timeout 60s" "$t0"; kill -CONT "$jvm" 2>/dev/null
done

start sig-start "${plan[@]}" --clients confluent --scenarios produce
for _ in $(seq 1 200); do broker_of $tool > /dev/null && break; sleep 0.05; done; sleep 0.5; t0=$(now); kill -INT "$tool"
finish "SIGINT while the embedded broker starts" "--clients confluent" "$t0"

start sig-kcat run --clients confluent --references kcat --scenarios produce --sizes 100 --messages 3000000 --repeat 1 --broker-heap 512
for _ in $(seq 1 1200); do pgrep -x kcat > /dev/null && break; sleep 0.05; done; sleep 0.5; t0=$(now); kill -INT "$tool"
finish "SIGINT during a kcat reference run" "--references kcat --messages 3000000" "$t0"

start twice run --sizes 1000 --messages 300000 --repeat 2 --broker-heap 512 --clients java --scenarios produce --stall-timeout 60s
wait_for "[   2/3]"; sleep 0.3; jvm=$(broker_of $tool); kill -STOP "$jvm"; sleep 2
t0=$(now); kill -INT "$tool"; sleep 0.3; kill -INT "$tool"
finish "Ctrl+C twice, 0.3 s apart, during a hung flush" "--clients java --stall-timeout 60s" "$t0"; kill -CONT "$jvm" 2>/dev/null

start tool-kill run --clients confluent --scenarios produce --sizes 100 --messages 100000 --repeat 6 --broker-heap 512
wait_for "[   5/7]"; sleep 0.3; jvm=$(broker_of $tool); t0=$(now); kill -KILL "$tool"
finish "the tool itself SIGKILLed at run 5 of 7" "--repeat 6" "$t0"
for _ in $(seq 1 100); do kill -0 "$jvm" 2>/dev/null || break; sleep 0.1; done
echo "(after the tool's SIGKILL the broker JVM $(kill -0 "$jvm" 2>/dev/null && echo 'was still running' || echo 'was gone'))"

start removed run --clients confluent --scenarios produce --sizes 100 --messages 50000 --repeat 4 --broker-heap 512
wait_for "[   3/5]"; t0=$(now); rm -rf "$out"
finish "output folder removed at run 3 of 5" "--repeat 4" "$t0"
