#!/usr/bin/env python3
"""Where a test run's time goes, from its TRX files (`dotnet test --logger trx`, as .ci/run writes them to TestResults/ci).

Prints, for the run:
  - each test assembly's wall time (the TRX's own start and finish), the sum of its tests' durations, and the
    difference: time outside any test (class and collection fixtures, the test host's start; negative where xUnit ran
    collections side by side);
  - the sum of every test's duration over all assemblies;
  - the N slowest classes (a nested class counts as its own, `Outer+Inner`) and the N slowest tests;
  - the tests over the budget (60 s by default) that benchmarks/scripts/slow-tests.txt does not name with a reason, and
    exits 1 when there is one (so CI or a pre-push hook can keep the budget), 0 otherwise.

  benchmarks/scripts/test-times.py TestResults/ci/*.trx [--top 25] [--budget 60] [--allow benchmarks/scripts/slow-tests.txt]

slow-tests.txt: one `ClassName.MethodName  why it may take long` a line (the test's name as this script prints it, the
reason after two or more spaces); `#` starts a comment.
"""
import argparse
import collections
import os
import re
import sys
import xml.etree.ElementTree as ET
from datetime import datetime

NS = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}


def seconds(duration):
    # TRX durations are hh:mm:ss.fffffff.
    h, m, s = duration.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def stamp(text):
    # 2026-12-01T23:21:53.1234567+00:00: Python reads six fractional digits.
    text = re.sub(r"(\.\d{6})\d+", r"\1", text)
    return datetime.fromisoformat(text)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trx", nargs="+")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--allow", default=os.path.join(here, "slow-tests.txt"))
    args = parser.parse_args()

    allowed = {}
    if os.path.exists(args.allow):
        for line in open(args.allow, encoding="utf-8"):
            line = line.split("#", 1)[0].rstrip()
            if not line.strip():
                continue
            parts = re.split(r"\s{2,}", line.strip(), maxsplit=1)
            allowed[parts[0]] = parts[1] if len(parts) > 1 else "(no reason given)"

    tests = []  # (assembly, class, name, seconds, outcome)
    assemblies = []
    for path in args.trx:
        try:
            root = ET.parse(path).getroot()
        except (ET.ParseError, OSError) as error:
            print(f"test-times: cannot read {path}: {error}", file=sys.stderr)
            return 2
        classes = {}
        storage = None
        for unit in root.iterfind(".//t:TestDefinitions/t:UnitTest", NS):
            method = unit.find("t:TestMethod", NS)
            storage = storage or unit.get("storage")
            classes[unit.get("id")] = method.get("className") if method is not None else "?"
        assembly = os.path.basename(storage or path).removesuffix(".dll")
        total = 0.0
        for result in root.iterfind(".//t:Results/t:UnitTestResult", NS):
            duration = seconds(result.get("duration", "0:0:0"))
            total += duration
            cls = classes.get(result.get("testId"), "?")
            name = result.get("testName", "?")
            # xUnit names a test by its class and method, with arguments for a theory's case.
            short = name[len(cls) + 1:] if name.startswith(cls + ".") else name
            tests.append((assembly, cls.rsplit(".", 1)[-1], short, duration, result.get("outcome", "?")))
        times = root.find("t:Times", NS)
        wall = float("nan")
        if times is not None and times.get("start") and times.get("finish"):
            wall = (stamp(times.get("finish")) - stamp(times.get("start"))).total_seconds()
        assemblies.append((assembly, wall, total))

    print("assembly                         wall s   tests' sum s   outside tests s")
    for assembly, wall, total in sorted(assemblies, key=lambda a: -a[1]):
        print(f"{assembly:32} {wall:7.0f}   {total:12.0f}   {wall - total:15.0f}")
    print(f"sum of every test's duration: {sum(t[3] for t in tests):.0f} s over {len(tests)} tests")

    by_class = collections.defaultdict(lambda: [0.0, 0])
    for assembly, cls, _, duration, _ in tests:
        entry = by_class[(assembly, cls)]
        entry[0] += duration
        entry[1] += 1
    print(f"\nslowest {args.top} classes:")
    for (assembly, cls), (duration, count) in sorted(by_class.items(), key=lambda kv: -kv[1][0])[: args.top]:
        print(f"  {duration:7.0f} s  {count:4} tests  {assembly.removeprefix('KafkaPerf.')} {cls}")

    print(f"\nslowest {args.top} tests:")
    for assembly, cls, name, duration, outcome in sorted(tests, key=lambda t: -t[3])[: args.top]:
        print(f"  {duration:7.1f} s  {assembly.removeprefix('KafkaPerf.')} {cls}.{name}{'' if outcome == 'Passed' else '  (' + outcome + ')'}")

    over = [t for t in tests if t[3] > args.budget]
    unlisted = [t for t in over if f"{t[1]}.{t[2].split('(')[0]}" not in allowed]
    print(f"\nover the {args.budget:.0f} s budget: {len(over)} tests, {len(unlisted)} not named in {os.path.relpath(args.allow)}")
    for assembly, cls, name, duration, _ in sorted(over, key=lambda t: -t[3]):
        key = f"{cls}.{name.split('(')[0]}"
        print(f"  {duration:7.1f} s  {key}  {allowed.get(key, '(not named: say why, or make it faster)')}")
    return 1 if unlisted else 0


if __name__ == "__main__":
    sys.exit(main())
