#!/usr/bin/env python3
"""What the tool does between one run and the next (checkpoint, summing up, progress), run by run, on a plan of many
short in-memory runs, and what its end costs (the report and every file). Each progress line on standard error (a
pipe: plain lines, one per run) is timestamped as it arrives; a run's period is the time since the previous run's line,
its bookkeeping that period minus the run's own timed section (the line's seconds). Prints one JSON line: the medians of
the first and the last hundred runs (the warm-up, run 1, left out), and the time from the last run's line to the exit.

    benchmarks/scripts/bookkeeping.py CLI OUTPUT_FOLDER [REPEAT]

CLI is the built dotnet-kafkaperf (src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf); REPEAT is 1999 by default
(with the warm-up, 2 000 runs). OUTPUT_FOLDER must not exist; it is removed afterwards.
"""
import json
import re
import shutil
import statistics
import subprocess
import sys
import time

cli, output = sys.argv[1], sys.argv[2]
repeat = sys.argv[3] if len(sys.argv) > 3 else "1999"
command = [cli, "run", "--clients", "inmemory", "--scenarios", "produce", "--messages", "100", "--sizes", "100",
           "--repeat", repeat, "--output", output]
line_of_run = re.compile(r"^\[\s*(\d+)/(\d+)\].*?\s(\d+\.\d{4}) s")
started = time.monotonic()
process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
seen = []  # (sequence, arrival, the run's own seconds)
for line in process.stderr:
    now = time.monotonic()
    match = line_of_run.match(line)
    if match:
        seen.append((int(match.group(1)), now, float(match.group(3))))
exit_code = process.wait()
ended = time.monotonic()
shutil.rmtree(output, ignore_errors=True)
if exit_code != 0 or len(seen) < 202:
    sys.exit(f"the plan did not run through (exit {exit_code}, {len(seen)} run lines)")
# Bookkeeping of run n: from run n-1's line to run n's, less run n's timed section (ms).
gaps = [((t - t0) - own) * 1000 for (_, t0, _), (_, t, own) in zip(seen, seen[1:])]
periods = [(t - t0) * 1000 for (_, t0, _), (_, t, _) in zip(seen, seen[1:])]
first, last = gaps[:100], gaps[-100:]
print(json.dumps({
    "runs": len(seen),
    "firstHundredMedianMs": round(statistics.median(first), 3),
    "lastHundredMedianMs": round(statistics.median(last), 3),
    "lastOverFirst": round(statistics.median(last) / statistics.median(first), 3),
    "periodFirstMs": round(statistics.median(periods[:100]), 3),
    "periodLastMs": round(statistics.median(periods[-100:]), 3),
    "endSeconds": round(ended - seen[-1][1], 2),
    "totalSeconds": round(ended - started, 2),
}))
