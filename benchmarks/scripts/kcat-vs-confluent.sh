#!/usr/bin/env bash
# confluent (Confluent.Kafka through KafkaPerf) against kcat (librdkafka's own CLI, no .NET), side by side:
# the same embedded broker, the same librdkafka file (kcat through LD_PRELOAD), the same settings, N rounds
# (default 5) that alternate which goes first (A B, B A, ...). Each round, per side: produce N_MSG records of
# 100 B to a fresh one-partition topic, then consume them all.
#
# - confluent: one `dotnet-kafkaperf run --bootstrap` per round, produce and consume, a warm-up then one measured run
#   each; the figure is the tool's own timed section (produce: first send -> flush done; consume: assignment -> last
#   record), read from its CSV.
# - kcat: the whole process, timed from outside (start, metadata, reading the input file or writing output, exit).
#   Its fixed cost - the same command for 1 record - is measured every round too, and subtracted for a "net" figure.
#
#   benchmarks/scripts/kcat-vs-confluent.sh [ROUNDS] [MESSAGES]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rounds=${1:-5}
messages=${2:-1000000}
size=100
settings=(acks=1 linger.ms=100 batch.size=1000000)
cli="$root/src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf.dll"
libs="$root/src/KafkaPerf.Cli/bin/Release/net10.0/kafka/libs"
native="$root/src/KafkaPerf.Cli/bin/Release/net10.0/runtimes/linux-x64/native"
command -v kcat >/dev/null || { echo "kcat-vs-confluent: kcat is missing (Debian/Ubuntu: apt-get install kcat)" >&2; exit 2; }
dotnet build "$root/src/KafkaPerf.Cli" -c Release -v q -nologo >/dev/null

work=$(mktemp -d)
broker_pid=""
cleanup() { [ -n "$broker_pid" ] && kill -TERM "$broker_pid" 2>/dev/null && wait "$broker_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

dotnet "$cli" broker >"$work/broker.out" 2>"$work/broker.err" &
broker_pid=$!
until [ -s "$work/broker.out" ]; do kill -0 "$broker_pid" 2>/dev/null || { cat "$work/broker.err" >&2; exit 1; }; sleep 0.05; done
bootstrap=$(head -1 "$work/broker.out")

# kcat's input: one line per record, an 8-character key, a tab, a 100-byte value; built once, untimed.
awk -v n="$messages" -v size="$size" 'BEGIN { srand(42); for (c = 0; c < size; c++) v = v sprintf("%c", 97 + int(rand() * 26));
  for (i = 0; i < n; i++) printf "%08d\t%s\n", i, v }' >"$work/records.txt"
head -1 "$work/records.txt" >"$work/one.txt"

kx=(); for s in "${settings[@]}"; do kx+=(-X "$s"); done
TIMEFORMAT='%U %S'
# The file Confluent.Kafka's loader takes from librdkafka.redist: the first of its linux-x64 files whose libraries
# all resolve here (on Debian 12 centos8-librdkafka.so, since librdkafka.so needs libsasl2.so.3). Its soname is
# librdkafka.so.1, so preloading it makes kcat run on it instead of the system's librdkafka.
for candidate in librdkafka.so centos8-librdkafka.so alpine-librdkafka.so; do
  if [ -f "$native/$candidate" ] && ! ldd "$native/$candidate" | grep -q 'not found'; then rdkafka="$native/$candidate"; break; fi
done
export LD_PRELOAD="$rdkafka"
kcat_version=$(kcat -V 2>&1 | grep -o 'librdkafka [0-9][0-9.]*' | head -1 || true)

create_topic() { java -cp "$libs/*" org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --create --topic "$1" --partitions 1 --replication-factor 1 >/dev/null 2>&1; }
now() { date +%s%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b - a) / 1e9 }'; }

kcat_round() {
  local topic="kcat-$1" tiny="kcat-one-$1" t0 t1 t2 t3
  create_topic "$topic"; create_topic "$tiny"
  t0=$(now); kcat -P -b "$bootstrap" -t "$tiny" -K $'\t' "${kx[@]}" -l "$work/one.txt"; t1=$(now)
  echo "$(seconds "$t0" "$t1")" >>"$work/kcat-produce-fixed"
  # bash's time keyword reports the child's CPU time (user + system) besides the wall time measured around it.
  t0=$(now); { time kcat -P -b "$bootstrap" -t "$topic" -K $'\t' "${kx[@]}" -l "$work/records.txt"; } 2>>"$work/kcat-produce-cpu"; t1=$(now)
  echo "$(seconds "$t0" "$t1")" >>"$work/kcat-produce"
  t2=$(now); kcat -C -b "$bootstrap" -t "$tiny" -o beginning -c 1 -e -q -f '%o\n' >/dev/null; t3=$(now)
  echo "$(seconds "$t2" "$t3")" >>"$work/kcat-consume-fixed"
  t2=$(now); kcat -C -b "$bootstrap" -t "$topic" -o beginning -c "$messages" -e -q -f '%o\n' >"$work/offsets.txt"; t3=$(now)
  echo "$(seconds "$t2" "$t3")" >>"$work/kcat-consume"
  local got; got=$(wc -l <"$work/offsets.txt")
  [ "$got" -eq "$messages" ] || { echo "kcat consumed $got of $messages records" >&2; exit 1; }
}

confluent_round() {
  local out="$work/confluent-$1"
  dotnet "$cli" run --bootstrap "$bootstrap" --clients confluent --scenarios produce,consume --messages "$messages" --sizes "$size" \
    --repeat 1 --acks 1 --linger-ms 100 --batch-size 1000000 --topic-prefix "confluent-$1" --format csv --quiet --output "$out" >/dev/null
  # Measured (not warm-up) rows: column 3 scenario, 8 warm-up flag, 10 elapsed seconds, 21 succeeded.
  awk -F, 'NR > 1 && $8 == "false" && $21 == "true" && $3 == "produce" { print $10 }' "$out"/*.csv >>"$work/confluent-produce"
  awk -F, 'NR > 1 && $8 == "false" && $21 == "true" && $3 == "consume" { print $10 }' "$out"/*.csv >>"$work/confluent-consume"
}

for i in $(seq 1 "$rounds"); do
  if [ $((i % 2)) -eq 1 ]; then kcat_round "$i"; confluent_round "$i"; else confluent_round "$i"; kcat_round "$i"; fi
  echo "round $i done" >&2
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
rate() { awk -v n="$messages" -v s="$1" 'BEGIN { printf "%.0f", n / s }'; }
net() { paste -d' ' "$1" "$2" | awk '{ printf "%.4f\n", $1 - $2 }'; }
list() { paste -sd' ' "$1"; }

net "$work/kcat-produce" "$work/kcat-produce-fixed" >"$work/kcat-produce-net"
net "$work/kcat-consume" "$work/kcat-consume-fixed" >"$work/kcat-consume-net"

echo
echo "$messages records × $size B, ${settings[*]}, broker $bootstrap (embedded), kcat on $kcat_version, $rounds alternating rounds"
echo
echo "| scenario | side | seconds per round | median s | median msg/s |"
echo "|---|---|---|---:|---:|"
for scenario in produce consume; do
  for side in confluent kcat kcat-net kcat-fixed; do
    case $side in
      confluent) file="$work/confluent-$scenario"; label="confluent (timed section)";;
      kcat) file="$work/kcat-$scenario"; label="kcat (whole process)";;
      kcat-net) file="$work/kcat-$scenario-net"; label="kcat net (minus 1-record run)";;
      kcat-fixed) file="$work/kcat-$scenario-fixed"; label="kcat 1-record run";;
    esac
    m=$(median <"$file")
    if [ "$side" = "kcat-fixed" ]; then r="–"; else r=$(rate "$m"); fi
    echo "| $scenario | $label | $(list "$file") | $m | $r |"
  done
done
echo
awk -v n="$messages" '{ cpu = $1 + $2; printf "%s%.2f", (NR > 1 ? " " : ""), cpu } END { printf "\n" }' "$work/kcat-produce-cpu" |
  { read -r list; echo "kcat produce CPU (user + system) per round, s: $list"; }
m=$(awk '{ print $1 + $2 }' "$work/kcat-produce-cpu" | median)
awk -v n="$messages" -v m="$m" 'BEGIN { printf "kcat produce CPU per record (median): %.2f µs\n\n", m / n * 1e6 }'
for scenario in produce consume; do
  c=$(median <"$work/confluent-$scenario"); k=$(median <"$work/kcat-$scenario"); kn=$(median <"$work/kcat-$scenario-net")
  awk -v s="$scenario" -v c="$c" -v k="$k" -v kn="$kn" 'BEGIN {
    printf "%s: confluent reaches %.0f %% of kcat'"'"'s rate (whole process) and %.0f %% of its net rate\n", s, 100 * k / c, 100 * kn / c }'
done
