#!/usr/bin/env bash
# How long the README's main command takes on a fresh clone, as a new user runs it: clones COMMIT into a temporary
# folder, gives it an empty NuGet package folder and no Maven or build state of its own, then runs
#   eng/install-prerequisites.sh && dotnet run --project src/KafkaPerf.Cli -c Release -- run
# and prints the seconds from the start to: the prerequisites done, the first run's result line ("[   1/"), the end.
# OS packages already on the machine are not installed again, so they are not in the figures.
#
#   benchmarks/scripts/setup-time.sh COMMIT [COMMIT...]     e.g. a1186ec HEAD a1186ec HEAD (alternating)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for commit in "$@"; do
  work=$(mktemp -d "${TMPDIR:-/tmp}/kafkaperf-setup-XXXXXX")
  git -C "$root" worktree add -q --detach "$work/clone" "$commit" 2>/dev/null || git clone -q "$root" "$work/clone"
  git -C "$work/clone" checkout -q "$commit"
  export NUGET_PACKAGES="$work/nuget/"
  start=$(date +%s.%N)
  stamp() { awk -v s="$start" 'BEGIN { "date +%s.%N" | getline now; printf "%.1f", now - s }'; }
  prereq="" first=""
  (
    cd "$work/clone"
    eng/install-prerequisites.sh >"$work/prereq.log" 2>&1 && echo "PREREQ $(date +%s.%N)"
    dotnet run --project src/KafkaPerf.Cli -c Release -- run 2>&1 >"$work/stdout.log" | while IFS= read -r line; do
      case $line in "[   1/"*) echo "FIRST $(date +%s.%N)";; esac
      echo "$line" >>"$work/stderr.log"
    done
    echo "END $(date +%s.%N) ${PIPESTATUS[0]}"
  ) >"$work/events" 2>&1 || true
  rel() { awk -v s="$start" -v t="$1" 'BEGIN { printf "%.1f", t - s }'; }
  p=$(awk '$1=="PREREQ"{print $2}' "$work/events"); f=$(awk '$1=="FIRST"{print $2}' "$work/events"); e=$(awk '$1=="END"{print $2}' "$work/events")
  echo "$commit: prerequisites $(rel "${p:-$start}") s, first result $(rel "${f:-$start}") s, end $(rel "${e:-$start}") s"
  git -C "$root" worktree remove --force "$work/clone" 2>/dev/null || true
  rm -rf "$work"
done
