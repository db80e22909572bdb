#!/usr/bin/env bash
# The cost of TLS and SASL per client: N rounds (default 5), each running the same plan on a fresh embedded broker
# three times - plaintext, ssl, sasl-ssl (SCRAM-SHA-512) - in an order that rotates every round, so that no mode always
# runs first or last on this shared machine. Each plan: confluent and java, produce and consume, 1 KB records,
# M records per run (default 50 000), 3 measured runs after the usual warm-up. Prints each mode's median msg/s per client
# and scenario over all rounds, and the ratio to plaintext.
#   benchmarks/scripts/security-cost.sh [N] [M]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cli="$root/src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf.dll"
dotnet build "$root/src/KafkaPerf.Cli" -c Release -v q -nologo >/dev/null
rounds=${1:-5}
messages=${2:-50000}
work=$(mktemp -d)
# Kept when the summary fails, so that nothing measured is lost.
modes=(plaintext ssl sasl-ssl)
for i in $(seq 1 "$rounds"); do
  for k in 0 1 2; do
    mode=${modes[$(( (i + k) % 3 ))]}
    extra=()
    [ "$mode" = sasl-ssl ] && extra=(--sasl-mechanism SCRAM-SHA-512)
    dotnet "$cli" run --security "$mode" "${extra[@]}" --clients confluent,java --scenarios produce,consume \
      --sizes 1024 --messages "$messages" --repeat 3 --broker-heap 512 --quiet --format json \
      --output "$work/$i-$mode" >/dev/null
    echo "round $i: $mode done" >&2
  done
done
python3 - "$work" <<'PY'
import json, glob, os, statistics, sys
work = sys.argv[1]
rates = {}
for path in glob.glob(os.path.join(work, "*", "*.json")):
    mode = os.path.basename(os.path.dirname(path)).split("-", 1)[1]
    for run in json.load(open(path))["runs"]:
        if run["isWarmup"] or not run["succeeded"]:
            continue
        rates.setdefault((run["client"], run["scenario"], mode), []).append(run["messagesPerSecond"])
print("| client | scenario | plaintext msg/s | ssl msg/s (× plaintext) | sasl-ssl SCRAM-SHA-512 msg/s (× plaintext) | runs per mode |")
print("|---|---|---:|---:|---:|---:|")
for client in ("confluent", "java"):
    for scenario in ("produce", "consume"):
        base = statistics.median(rates[(client, scenario, "plaintext")])
        cells = []
        for mode in ("ssl", "sasl-ssl"):
            m = statistics.median(rates[(client, scenario, mode)])
            cells.append(f"{m:,.0f} ({m / base:.2f})")
        n = len(rates[(client, scenario, "plaintext")])
        print(f"| {client} | {scenario} | {base:,.0f} | {cells[0]} | {cells[1]} | {n} |")
PY
rm -rf "$work"
