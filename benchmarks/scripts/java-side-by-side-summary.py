#!/usr/bin/env python3
"""Summarises a java-side-by-side.sh folder: per cell and client the median msg/s, the seed-style ratio of mean
elapsed times against confluent (below 100 % the Java client is faster), the verdict KafkaPerf gave, and JNI
crossings per message; then ProducerPerformance beside java-batched and java.

    benchmarks/scripts/java-side-by-side-summary.py OUT_DIR
"""
import glob
import json
import os
import re
import statistics
import sys
from collections import defaultdict

folder = sys.argv[1]
runs = defaultdict(list)        # the side-by-side matrices (plans with confluent)
perf_runs = defaultdict(list)   # the runs that alternate with ProducerPerformance (plans without it)
verdicts = {}
for path in sorted(glob.glob(os.path.join(folder, "kafkaperf-*.json"))):
    with open(path, encoding="utf-8") as f:
        result = json.load(f)
    target = runs if "confluent" in result["plan"]["clients"] else perf_runs
    for r in result["runs"]:
        if r.get("isWarmup") or not r.get("succeeded"):
            continue
        target[(r["scenario"], r["messageCount"], r["payloadBytes"], r["client"])].append(r)
    for c in result.get("comparisons", []):
        key = (c.get("scenario"), c.get("messageCount"), c.get("payloadBytes"), c.get("candidate"), c.get("baseline"))
        verdicts[key] = c.get("elapsedSeconds", {}).get("verdict")


def median_rate(rs):
    return statistics.median(r["messagesPerSecond"] for r in rs)


def mean_elapsed(rs):
    return statistics.mean(r["elapsedSeconds"] for r in rs)


def per_message(rs, name):
    values = [r["countersPerMessage"][name] for r in rs if r.get("countersPerMessage")]
    return statistics.mean(values) if values else None


cells = sorted({(s, m, p) for (s, m, p, _) in runs}, key=lambda c: (["produce", "consume", "roundtrip"].index(c[0]), c[1], c[2]))
print("| scenario | messages | payload B | client | runs | median msg/s | mean s | mean ratio vs confluent % | verdict | JNI calls/msg | callbacks/msg |")
print("|---|---:|---:|---|---:|---:|---:|---:|---|---:|---:|")
for scenario, messages, payload in cells:
    base = runs.get((scenario, messages, payload, "confluent"))
    for client in ["confluent", "java", "java-batched"]:
        rs = runs.get((scenario, messages, payload, client))
        if not rs:
            continue
        ratio = "–" if client == "confluent" or not base else f"{100 * mean_elapsed(rs) / mean_elapsed(base):.1f}"
        verdict = verdicts.get((scenario, messages, payload, client, "confluent"), "–") if client != "confluent" else "–"
        calls, callbacks = per_message(rs, "jni.calls"), per_message(rs, "jni.callbacks")
        print(f"| {scenario} | {messages:,} | {payload:,} | {client} | {len(rs)} | {median_rate(rs):,.0f} | {mean_elapsed(rs):.4f} | {ratio} | {verdict} | "
              f"{'–' if calls is None else f'{calls:.4f}'} | {'–' if callbacks is None else f'{callbacks:.4f}'} |")

perf = os.path.join(folder, "producer-performance.txt")
if os.path.exists(perf):
    reference = defaultdict(list)
    with open(perf, encoding="utf-8") as f:
        for line in f:
            match = re.match(r"(\d+) (\d+) .*?([\d.]+) records/sec", line)
            if match:
                reference[int(match.group(1))].append(float(match.group(3)))
    print()
    print("| payload B | ProducerPerformance median msg/s (steady state) | java-batched median msg/s | java median msg/s | java-batched / ProducerPerformance | java / ProducerPerformance | rounds |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for payload, rates in sorted(reference.items()):
        ref = statistics.median(rates)
        row = [f"{payload:,}", f"{ref:,.0f}"]
        shares = []
        for client in ["java-batched", "java"]:
            # The runs that alternated with ProducerPerformance: produce, 1 000 000 messages, this size.
            rs = perf_runs.get(("produce", 1_000_000, payload, client), [])
            rate = median_rate(rs) if rs else float("nan")
            row.append(f"{rate:,.0f}")
            shares.append(f"{100 * rate / ref:.1f} %")
        print("| " + " | ".join(row + shares + [str(len(rates))]) + " |")
