#!/usr/bin/env python3
"""What each run spends around its timed section, from a plan's `--otel console` output (standard error): its span less
its timed section, median by scenario and client, for the measured runs and for the warm-ups (a cell's first run also
creates the cell's topics). Usage: run-spans.py [--by-size] STDERR.txt [...] (--by-size: by payload size too)"""
import re
import statistics
import sys
from collections import defaultdict

SPAN = re.compile(r"otel: span kafkaperf run ([\d.]+) s \{(.*)\}")
around = {"measured": defaultdict(list), "warm-up": defaultdict(list)}
by_size = "--by-size" in sys.argv
for path in [a for a in sys.argv[1:] if a != "--by-size"]:
    with open(path) as f:
        for line in f:
            match = SPAN.match(line)
            if not match:
                continue
            tags = dict(tag.split("=", 1) for tag in match.group(2).split(","))
            if tags.get("succeeded") != "True":
                continue
            kind = "warm-up" if tags.get("warmup") == "True" else "measured"
            size = tags["payload.bytes"] + " B" if by_size else ""
            around[kind][(tags["scenario"], tags["client"], size)].append(float(match.group(1)) - float(tags["elapsed.seconds"]))
for kind, cells in around.items():
    for (scenario, client, size), seconds in sorted(cells.items()):
        print(f"{kind:8} {scenario:10} {client:12} {size:8} runs {len(seconds):4}  median {statistics.median(seconds):.3f} s  mean {statistics.mean(seconds):.3f} s")
