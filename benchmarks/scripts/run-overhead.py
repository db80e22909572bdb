#!/usr/bin/env python3
"""Per-run overhead of a plan from its result JSON: the plan's wall time (startedAtUtc to finishedAtUtc) less the sum of
its runs' timed sections, per run. Usage: run-overhead.py RESULT.json [...] (one line per file)."""
import json
import sys
from datetime import datetime


def parse(stamp):
    # .NET writes up to seven fractional digits; Python reads six.
    head, _, frac = stamp.rstrip("Z").partition(".")
    return datetime.fromisoformat(head + ("." + frac[:6] if frac else ""))


for path in sys.argv[1:]:
    with open(path) as f:
        doc = json.load(f)
    runs = doc["runs"]
    wall = (parse(doc["finishedAtUtc"]) - parse(doc["startedAtUtc"])).total_seconds()
    timed = sum(r.get("elapsedSeconds") or 0 for r in runs)
    print(f"{path}: {len(runs)} runs, plan {wall:.1f} s, timed {timed:.1f} s, "
          f"overhead {wall - timed:.1f} s = {(wall - timed) / len(runs):.3f} s a run")
