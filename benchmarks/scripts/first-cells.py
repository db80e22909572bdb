#!/usr/bin/env python3
"""The cells of rate results in the order they ran: p95 and p99 of response time per client and cell, and what the
cluster warm-up did, one line per result (docs/BENCHMARKS.md, "One just-started broker: how long a warm-up").

    benchmarks/scripts/first-cells.py out-*/kafkaperf-*.json
"""
import collections
import json
import sys


def cells_in_order(result):
    cells = collections.OrderedDict()
    for run in sorted(result["runs"], key=lambda r: r["sequence"]):
        if run.get("isWarmup") or not run.get("responseTime"):
            continue
        cells.setdefault(run["payloadBytes"], {}).setdefault(run["client"], []).append(run["responseTime"])
    for size, clients in cells.items():
        for client, times in sorted(clients.items()):
            # A cell's worst run: the first cells of a new broker are its coldest runs.
            yield size, client, max(t["p95Micros"] for t in times) / 1000, max(t["p99Micros"] for t in times) / 1000


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in paths:
        with open(path, encoding="utf-8") as f:
            result = json.load(f)
        cells = " | ".join(f"{size} B {client} p95 {p95:.1f} p99 {p99:.1f} ms" for size, client, p95, p99 in cells_in_order(result))
        print(f"{path}: warm-up {result.get('clusterWarmup') or 'none'}: {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
