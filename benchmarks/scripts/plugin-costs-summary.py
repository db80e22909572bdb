#!/usr/bin/env python3
"""Summarises plugin-costs.sh's JSON lines: for plugin-load, per plugin the median (min-max) of ClientPlugins.Load and
of load + describe, and the version folder minus the sample plugin round by round; for version-memory, per set-up the
medians of VmRSS (min-max), RssAnon, RssFile, the GC's heap and committed bytes, threads and assemblies, then
two - one, two - same2 and same2 - one from the medians and round by round. Round 0 (untimed) is left out.

    benchmarks/scripts/plugin-costs-summary.py PLUGIN_LOAD.jsonl VERSION_MEMORY.jsonl PLUGIN_PATH VERSION_FOLDER
"""
import json
import statistics
import sys
from collections import defaultdict


def read(path):
    with open(path, encoding="utf-8") as f:
        return [r for r in (json.loads(line) for line in f if line.strip()) if r["round"] > 0]


def spread(values, fmt, number):
    """The median with its unit, then the range as numbers only: 47 ms (41–133)."""
    return f"{fmt(statistics.median(values))} ({number(min(values))}–{number(max(values))})"


def by_round(rows, key):
    return {r["round"]: r for r in rows if key(r)}


load_file, memory_file, plugin_path, version_path = sys.argv[1:5]
loads = read(load_file)
names = {plugin_path: "sample plugin `orders-json` (samples/CustomClient, published)", version_path: "the `confluent@2.15.1` version folder"}
ms = lambda v: f"{v:.0f} ms"
ms_number = lambda v: f"{v:.0f}"
signed_ms = lambda v: f"{v:+.0f} ms"
signed_ms_number = lambda v: f"{v:+.0f}"

print("plugin-load: ClientPlugins.Load in a fresh process, then with each client's DescribeLibrary/CheckAvailability")
print()
print("| plugin | clients | runs | `ClientPlugins.Load`, median (min–max) | load + describe, median (min–max) |")
print("|---|---|---:|---:|---:|")
for path, name in names.items():
    rows = [r for r in loads if r["paths"] == [path]]
    if not rows:
        continue
    clients = ", ".join(rows[0]["clients"][:2]) + (", …" if len(rows[0]["clients"]) > 2 else "")
    print(f"| {name} | {clients} | {len(rows)} | {spread([r['loadMs'] for r in rows], ms, ms_number)} | {spread([r['loadAndDescribeMs'] for r in rows], ms, ms_number)} |")
a = by_round(loads, lambda r: r["paths"] == [version_path])
b = by_round(loads, lambda r: r["paths"] == [plugin_path])
common = sorted(set(a) & set(b))
if common:
    print()
    print(f"version folder − sample plugin, round by round ({len(common)} rounds): load "
          f"{spread([a[i]['loadMs'] - b[i]['loadMs'] for i in common], signed_ms, signed_ms_number)}, load + describe "
          f"{spread([a[i]['loadAndDescribeMs'] - b[i]['loadAndDescribeMs'] for i in common], signed_ms, signed_ms_number)}")

memory = read(memory_file)
mib = lambda kb: f"{kb / 1024:.1f} MiB"
mib_number = lambda kb: f"{kb / 1024:.1f}"
signed_mib = lambda kb: f"{kb / 1024:+.1f} MiB"
signed_mib_number = lambda kb: f"{kb / 1024:+.1f}"
mb = lambda b: f"{b / 1e6:.2f} MB"
signed_mb = lambda b: f"{b / 1e6:+.2f} MB"
setups = {"one": "one: `confluent`, 1 producer", "same2": "same2: two `confluent` clients, 2 producers",
          "two": "two: `confluent` + `confluent@2.15.1`, 1 producer each"}
groups = defaultdict(list)
for r in memory:
    groups[r["mode"]].append(r)
med = lambda setup, field: statistics.median(r[field] for r in groups[setup])

print()
print("version-memory: producers alive after 10 000 × 100 B each, flushed, after a full compacting GC")
print()
print("| set-up | versions | runs | VmRSS median (min–max) | RssAnon | RssFile | GC heap (`GetTotalMemory`) | GC committed | threads | assemblies |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for setup, label in setups.items():
    rows = groups.get(setup)
    if not rows:
        continue
    versions = ", ".join(rows[0]["versions"])
    print(f"| {label} | {versions} | {len(rows)} | {spread([r['vmRssKb'] for r in rows], mib, mib_number)} | {mib(med(setup, 'rssAnonKb'))} | "
          f"{mib(med(setup, 'rssFileKb'))} | {mb(med(setup, 'gcHeapBytes'))} | {mb(med(setup, 'gcCommittedBytes'))} | "
          f"{med(setup, 'threads'):.0f} | {med(setup, 'loadedAssemblies'):.0f} |")

print()
print("| difference | VmRSS, medians | round by round, median (min–max) | RssAnon | RssFile | GC heap | GC committed |")
print("|---|---:|---:|---:|---:|---:|---:|")
for x, y, what in [("two", "one", "the second version with its producer"), ("two", "same2", "the second version alone (same producers)"),
                   ("same2", "one", "a second producer of the same version")]:
    if not groups.get(x) or not groups.get(y):
        continue
    rx = by_round(memory, lambda r: r["mode"] == x)
    ry = by_round(memory, lambda r: r["mode"] == y)
    rounds = sorted(set(rx) & set(ry))
    print(f"| {x} − {y}: {what} | {signed_mib(med(x, 'vmRssKb') - med(y, 'vmRssKb'))} | "
          f"{spread([rx[i]['vmRssKb'] - ry[i]['vmRssKb'] for i in rounds], signed_mib, signed_mib_number)} | "
          f"{signed_mib(med(x, 'rssAnonKb') - med(y, 'rssAnonKb'))} | {signed_mib(med(x, 'rssFileKb') - med(y, 'rssFileKb'))} | "
          f"{signed_mb(med(x, 'gcHeapBytes') - med(y, 'gcHeapBytes'))} | {signed_mb(med(x, 'gcCommittedBytes') - med(y, 'gcCommittedBytes'))} |")
