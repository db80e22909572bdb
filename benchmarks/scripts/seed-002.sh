#!/usr/bin/env bash
# Seed 002's table, "N processes each, T threads each", on one machine: for P = 1, 2 and 4 worker processes
# (run --processes P), with 1 and 2 producers per process (--producers is per client over all processes), burst
# produce of the seed's two payload sizes, for confluent, java and kcat (the native reference; one process of its own
# per worker, no producer threads of its own). Then the table: median msg/s per cell.
#   benchmarks/scripts/seed-002.sh [OUTPUT]        about 15 minutes on 2 cores
set -euo pipefail
out=${1:-seed-002}
tool=(dotnet kafkaperf)
[ -n "${KAFKAPERF_TOOL:-}" ] && read -r -a tool <<<"$KAFKAPERF_TOOL"
mkdir -p "$out"
for p in 1 2 4; do
  "${tool[@]}" run --processes "$p" --producers "$p,$((2 * p))" --clients confluent,java --references kcat \
    --scenarios produce --sizes 20,250 --messages 1000000 --repeat 3 --stall-timeout 60s \
    --format json,md --output "$out/p$p" >"$out/p$p.md" 2>"$out/p$p.log"
done
python3 - "$out" <<'PY'
import glob, json, sys
rows = {}
for p in (1, 2, 4):
    # The newest result of each P: a folder reused keeps the older ones beside it.
    paths = sorted(glob.glob(f"{sys.argv[1]}/p{p}/*.json"))
    if not paths: continue
    result = json.load(open(paths[-1]))
    for cell in result["cells"]:
        if cell["runs"] == 0: continue
        producers = next((int(x.split("=")[1]) for x in cell["variant"].split() if x.startswith("producers=")), p)
        threads = 0 if cell["client"] == "kcat" else producers // p
        m = cell["messagesPerSecond"]
        rows.setdefault((cell["client"], cell["payloadBytes"], p, threads), []).append((m["median"], m["coefficientOfVariation"]))
def show(values):
    if not values: return "–"
    if len(values) == 1: return f"{values[0][0]:,.0f} ({values[0][1] * 100:.0f} %)".replace(",", " ")
    low, high = min(v[0] for v in values), max(v[0] for v in values)
    return f"{low:,.0f}–{high:,.0f}".replace(",", " ")
print("Median msg/s (CV); kcat (one process per worker, no threads of its own): the range over the cells it ran in")
print()
print("| client | payload B | producers per process | 1 process | 2 processes | 4 processes |")
print("|---|---:|---:|---:|---:|---:|")
for client in ("confluent", "java", "kcat"):
    for size in (20, 250):
        for threads in ((0,) if client == "kcat" else (1, 2)):
            values = [rows.get((client, size, p, threads)) for p in (1, 2, 4)]
            if all(v is None for v in values): continue
            print(f"| {client} | {size} | {threads or '–'} | " + " | ".join(show(v) for v in values) + " |")
for p in (1, 2, 4):
    for line in open(f"{sys.argv[1]}/p{p}.log"):
        if line.startswith("kafkaperf: workers:"): print(f"\nP={p}: {line.strip()}")
PY
