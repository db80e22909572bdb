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
    for path in glob.glob(f"{sys.argv[1]}/p{p}/*.json"):
        result = json.load(open(path))
        for cell in result["cells"]:
            if cell["runs"] == 0: continue
            producers = next((int(x.split("=")[1]) for x in cell["variant"].split() if x.startswith("producers=")), p)
            threads = 1 if cell["client"] == "kcat" else producers // p
            rows[(cell["client"], cell["payloadBytes"], p, threads)] = cell["messagesPerSecond"]["median"]
print("| client | payload B | threads per process | 1 process | 2 processes | 4 processes |")
print("|---|---:|---:|---:|---:|---:|")
for client in ("confluent", "java", "kcat"):
    for size in (20, 250):
        for threads in (1, 2):
            values = [rows.get((client, size, p, threads)) for p in (1, 2, 4)]
            if all(v is None for v in values): continue
            print(f"| {client} | {size} | {threads} | " + " | ".join("–" if v is None else f"{v:,.0f}".replace(",", " ") for v in values) + " |")
PY
