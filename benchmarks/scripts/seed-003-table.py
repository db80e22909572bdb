#!/usr/bin/env python3
"""The seed-003 table from a result of the documented one-liners (docs/brokers.md, "seed 003's acks × in-flight study"):
per client, message size, acks and max.in.flight - median throughput and the latency p95/p99 of the cell (merged
histograms of its measured runs): for bursts the send->ack latency and the msg/s reached; at a rate (--rate) the
response time from when each record was due and the achieved rate. Usage: seed-003-table.py RESULT.json"""
import json
import re
import sys

result = json.load(open(sys.argv[1]))
rows = {}
for cell in result["cells"]:
    at_rate = cell.get("responseTime") is not None
    latency = cell.get("responseTime") if at_rate else cell.get("latency")
    if cell["scenario"] != "produce" or not latency:
        continue
    variant = cell["variant"]
    acks = re.search(r"acks=(\w+)", variant)
    flight = re.search(r"in[._-]?flight\w*=(\d+)", variant)
    if not acks or not flight:
        continue
    key = (cell["client"], cell["payloadBytes"], acks.group(1), int(flight.group(1)))
    rate = cell["achievedRate"]["median"] if at_rate else cell["messagesPerSecond"]["median"]
    rows[key] = (rate, latency["p95Micros"] / 1000, latency["p99Micros"] / 1000, cell["runs"], cell["failedRuns"])

print("| client | size | acks | in-flight 1 | 2 | 3 | 4 | 5 |")
print("|---|---:|---|---|---|---|---|---|")
for client in sorted({k[0] for k in rows}):
    for size in sorted({k[1] for k in rows}):
        for acks in ("1", "all"):
            cells = []
            for flight in range(1, 6):
                r = rows.get((client, size, acks, flight))
                cells.append("-" if r is None else f"{r[0]:,.0f} msg/s, p95 {r[1]:.1f} / p99 {r[2]:.1f} ms" + ("" if r[4] == 0 else f" ({r[4]} failed)"))
            print(f"| {client} | {size} B | {acks} | " + " | ".join(cells) + " |")
