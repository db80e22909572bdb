#!/usr/bin/env bash
# How long the README's main command takes on a fresh clone from cold caches, as a new user runs it, and where the time
# goes. For each COMMIT: `git clone` of this repository into a temporary folder, an empty NuGet package folder
# (NUGET_PACKAGES) and HTTP cache (NUGET_HTTP_CACHE_PATH: without it a restore takes what an earlier one downloaded,
# 33 s instead of 48 s here) and an empty Maven local repository (maven.repo.local; with KAFKAPERF_MAVEN_MIRROR set,
# eng/fetch-kafka.sh uses a new one inside the clone anyway), then exactly
#   eng/install-prerequisites.sh && dotnet run --project src/KafkaPerf.Cli -c Release -- run
# and prints, in seconds from the start:
#   prerequisites  eng/install-prerequisites.sh (apt-get only for what is missing, then Maven fetching Kafka's jars)
#   restore+build  dotnet's restore from the empty package folder and the build, to the tool's first line
#   broker         the embedded broker's start, as the tool reports it
#   plan           the plan's wall time (startedAtUtc to finishedAtUtc of the result), of which `timed` is the sum of
#                  the runs' timed sections (the clients' own work, which depends on the machine) and `overhead` the rest
#   rest           everything else: the tool's start before the broker, the report, the broker's stop, the exit
#   own            the whole command less the timed sections: what KafkaPerf itself costs a new user
# OS packages already on the machine are not installed again (a machine without a JDK or Maven pays their apt-get too).
#
#   benchmarks/scripts/setup-time.sh COMMIT [COMMIT...]     e.g. 8938b95 HEAD 8938b95 HEAD (alternating)
#   KAFKAPERF_SETUP_KEEP=DIR keeps each run's output (SHA-N.stdout, .stderr, .prereq, .json) in DIR.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for commit in "$@"; do
  work=$(mktemp -d "${TMPDIR:-/tmp}/kafkaperf-setup-XXXXXX")
  git clone -q "$root" "$work/clone"
  git -C "$work/clone" checkout -q "$commit"
  sha=$(git -C "$work/clone" rev-parse --short HEAD)
  (
    export NUGET_PACKAGES="$work/nuget/" NUGET_HTTP_CACHE_PATH="$work/nuget-http/" MAVEN_OPTS="${MAVEN_OPTS:-} -Dmaven.repo.local=$work/m2"
    cd "$work/clone"
    echo "START $(date +%s.%N)"
    eng/install-prerequisites.sh >"$work/prereq.log" 2>&1 && echo "PREREQ $(date +%s.%N)"
    dotnet run --project src/KafkaPerf.Cli -c Release -- run 2>&1 >"$work/stdout.log" | while IFS= read -r line; do
      case $line in
        "kafkaperf: starting the embedded"*) echo "TOOL $(date +%s.%N)" ;;
        "kafkaperf: broker ready"*) echo "BROKER $(date +%s.%N) $line" ;;
      esac
      echo "$line" >>"$work/stderr.log"
    done
    echo "END $(date +%s.%N) ${PIPESTATUS[0]}"
  ) >"$work/events" 2>&1 || true
  result=$(ls "$work"/clone/kafkaperf-results/*.json 2>/dev/null | head -1)
  python3 - "$work/events" "$result" "$sha" "$work/prereq.log" <<'PY'
import json, sys
from datetime import datetime
events = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if parts and parts[0] in ("START", "PREREQ", "TOOL", "BROKER", "END"):
        events[parts[0]] = parts[1:]
t = {k: float(v[0]) for k, v in events.items()}
def stamp(s):
    head, _, frac = s.rstrip("Z").partition(".")
    return datetime.fromisoformat(head + ("." + frac[:6] if frac else ""))
plan = timed = broker = float("nan")
runs = 0
if sys.argv[2]:
    doc = json.load(open(sys.argv[2]))
    plan = (stamp(doc["finishedAtUtc"]) - stamp(doc["startedAtUtc"])).total_seconds()
    timed = sum(r.get("elapsedSeconds") or 0 for r in doc["runs"])
    runs = len(doc["runs"])
if "BROKER" in events:
    words = events["BROKER"]
    broker = float(words[words.index("in") + 1]) if "in" in words else float("nan")
apt = any("installing" in l for l in open(sys.argv[4]))
total = t["END"] - t["START"]
prereq = t.get("PREREQ", t["START"]) - t["START"]
build = t.get("TOOL", t["START"]) - t.get("PREREQ", t["START"])
rest = total - prereq - build - broker - plan
exit_code = events["END"][1] if len(events["END"]) > 1 else "?"
print(f"{sys.argv[3]}: total {total:.1f} s (exit {exit_code}); prerequisites {prereq:.1f} s{' (apt-get installed packages)' if apt else ''}, "
      f"restore+build {build:.1f} s, broker {broker:.1f} s, plan {plan:.1f} s ({runs} runs: timed {timed:.1f} s, "
      f"overhead {plan - timed:.1f} s = {(plan - timed) / max(runs, 1):.3f} s a run), rest {rest:.1f} s; own {total - timed:.1f} s")
PY
  if [ -n "${KAFKAPERF_SETUP_KEEP:-}" ]; then
    mkdir -p "$KAFKAPERF_SETUP_KEEP"; n=$(ls "$KAFKAPERF_SETUP_KEEP" | grep -c "^$sha-.*\.stdout$" || true); n=$((n + 1))
    cp "$work/stdout.log" "$KAFKAPERF_SETUP_KEEP/$sha-$n.stdout"; cp "$work/stderr.log" "$KAFKAPERF_SETUP_KEEP/$sha-$n.stderr"
    cp "$work/prereq.log" "$KAFKAPERF_SETUP_KEEP/$sha-$n.prereq"; [ -n "$result" ] && cp "$result" "$KAFKAPERF_SETUP_KEEP/$sha-$n.json"
  fi
  rm -rf "$work"
done
