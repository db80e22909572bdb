#!/usr/bin/env python3
"""Where a machine's CPU goes while a command runs (e.g. .ci/run), by kind of process.

Samples /proc every second and adds each process's CPU time (user + system, its own, not its children's) since the
last sample to a kind read from its command line: an embedded broker's JVM, a Java tool (Kafka's perf tools), the
test hosts, the tool's own processes (dotnet-kafkaperf.dll), MSBuild and the compiler (builds, packs), Docker, kcat,
stress-ng, anything else. A process that starts and ends between two samples is not seen: the figures are a lower
bound, close for processes that live seconds or more.

  benchmarks/scripts/cpu-by-kind.py [--interval 1] [--out FILE] -- COMMAND [ARG...]
  benchmarks/scripts/cpu-by-kind.py --pid PID ...                  # sample until PID ends (a run already under way)

Prints, when the command ends: the wall time, the CPU seconds per kind, their share and how many processes of the kind
used the CPU, and the machine's idle share
(how much of the cores' time nobody used). Exits with the command's exit code.
"""
import argparse
import os
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def kind(cmdline):
    text = " ".join(cmdline)
    exe = os.path.basename(cmdline[0]) if cmdline else ""
    if "EmbeddedBrokerMain" in text or "kafka.Kafka" in text:
        return "broker JVMs"
    if exe == "java":
        return "other java (Kafka's perf tools, ...)"
    if "testhost" in text or "vstest" in text or text.endswith(".Tests.dll") or ".Tests.dll " in text:
        return "test hosts (tests, in-process brokers and JVMs)"
    if "dotnet-kafkaperf.dll" in text or exe == "dotnet-kafkaperf" or exe == "kafkaperf":
        return "kafkaperf tool processes"
    if "MSBuild" in text or "csc.dll" in text or "VBCSCompiler" in text or "Roslyn" in text or "NuGet" in text:
        return "builds (MSBuild, csc, NuGet)"
    if exe in ("dockerd", "containerd", "containerd-shim", "containerd-shim-runc-v2", "docker", "runc", "buildkitd"):
        return "docker"
    if exe == "kcat":
        return "kcat"
    if exe.startswith("stress-ng"):
        return "stress-ng"
    if exe == "dotnet":
        return "other dotnet (CLI, tests' own children)"
    return "other"


def snapshot():
    seen = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
            fields = stat[stat.rindex(")") + 2:].split()
            ticks = int(fields[11]) + int(fields[12])  # utime + stime
            start = int(fields[19])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
        except (OSError, ValueError, IndexError):
            continue
        seen[(int(pid), start)] = (ticks, cmdline)
    return seen


def idle_ticks():
    with open("/proc/stat") as f:
        parts = f.readline().split()[1:]
    values = [int(p) for p in parts]
    return values[3] + values[4], sum(values[:8])


def main():
    argv = sys.argv[1:]
    command = []
    if "--" in argv:
        i = argv.index("--")
        argv, command = argv[:i], argv[i + 1:]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--out")
    parser.add_argument("--pid", type=int)
    args = parser.parse_args(argv)
    if not command and args.pid is None:
        print("cpu-by-kind: give a command after --, or --pid PID of one under way.", file=sys.stderr)
        return 2

    child = subprocess.Popen(command) if command else None
    watched = child.pid if child else args.pid
    totals = {}
    processes = {}  # kind -> the processes of that kind seen
    before = snapshot()
    idle0, all0 = idle_ticks()
    began = time.monotonic()

    def alive():
        if child:
            return child.poll() is None
        return os.path.exists(f"/proc/{watched}")

    while alive():
        time.sleep(args.interval)
        now = snapshot()
        for key, (ticks, cmdline) in now.items():
            previous = before.get(key, (0, None))[0]
            if ticks > previous:
                k = kind(cmdline)
                totals[k] = totals.get(k, 0) + ticks - previous
                processes.setdefault(k, set()).add(key)
        before = now
    wall = time.monotonic() - began
    idle1, all1 = idle_ticks()
    cores = os.cpu_count() or 1

    lines = [f"wall {wall:.0f} s on {cores} cores; the machine was idle {100.0 * (idle1 - idle0) / max(1, all1 - all0):.0f} % of the cores' time"]
    total = sum(totals.values())
    for k, ticks in sorted(totals.items(), key=lambda kv: -kv[1]):
        lines.append(f"{ticks / TICK:9.0f} CPU s  {100.0 * ticks / max(1, total):5.1f} %  {len(processes.get(k, ())):5} processes  {k}")
    lines.append(f"{total / TICK:9.0f} CPU s  in all (seen by the samples)")
    report = "\n".join(lines)
    print(report)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(report + "\n")
    return child.returncode if child else 0


if __name__ == "__main__":
    sys.exit(main())
