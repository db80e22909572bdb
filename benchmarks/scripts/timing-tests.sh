#!/usr/bin/env bash
# Runs the test classes that depend on timing (faults, failover, readiness, pause, Ctrl+C, stall, rate, workers, the
# sample gates) several times in a row, alone or with a CPU hog beside them, and prints one line per invocation and a
# summary: what docs/RELIABILITY.md quotes. Build first (dotnet build KafkaPerf.sln -c Release).
#
#   benchmarks/scripts/timing-tests.sh [--times N] [--stress] [--only failover] [--log FILE]
#
# --stress runs `stress-ng --cpu 2` (Debian's stress-ng) for the whole time; --only failover runs FailoverTests alone.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
times=3 stress=0 only="" log=""
while [ $# -gt 0 ]; do
  case $1 in
    --times) times=$2; shift 2 ;;
    --stress) stress=1; shift ;;
    --only) only=$2; shift 2 ;;
    --log) log=$2; shift 2 ;;
    *) echo "timing-tests: unknown argument '$1': give --times N, --stress, --only failover or --log FILE." >&2; exit 2 ;;
  esac
done
case $times in ''|*[!0-9]*) echo "timing-tests: --times needs a whole number, e.g. --times 3." >&2; exit 2 ;; esac
if [ -n "$only" ] && [ "$only" != failover ]; then echo "timing-tests: --only takes 'failover'." >&2; exit 2; fi
if [ "$stress" = 1 ] && ! command -v stress-ng >/dev/null 2>&1; then
  echo "timing-tests: --stress needs stress-ng (apt-get install stress-ng)." >&2; exit 2
fi

# project|filter, one per line: the classes whose assertions involve time.
if [ "$only" = failover ]; then
  batches=("tests/KafkaPerf.Adapters.Tests|FullyQualifiedName~Broker.FailoverTests")
else
  batches=(
    "tests/KafkaPerf.Adapters.Tests|FullyQualifiedName~Broker.FailoverTests|FullyQualifiedName~Broker.ClusterReadinessTests|FullyQualifiedName~Load.RateOnBrokerTests|FullyQualifiedName~Load.BacklogOnBrokerTests|FullyQualifiedName~Load.BreakdownOnBrokerTests"
    "tests/KafkaPerf.Cli.Tests|FullyQualifiedName~Cli.Tests.FaultTests|FullyQualifiedName~Cli.Tests.ProcessTests|FullyQualifiedName~Cli.Tests.RateTests|FullyQualifiedName~Cli.Tests.WorkerTests|FullyQualifiedName~Cli.Tests.ContainerWorkerTests"
    "tests/KafkaPerf.Core.Tests|FullyQualifiedName~Faults.FaultRunTests|FullyQualifiedName~Load.LoadScenarioTests|FullyQualifiedName~Running.BenchmarkRunnerTests|FullyQualifiedName~Running.ClusterReadinessRunTests|FullyQualifiedName~Running.StartUpRunTests"
    "tests/KafkaPerf.Testing.Tests|FullyQualifiedName~Packages.SampleReadmeTests|FullyQualifiedName~Packages.TemplatesTests"
  )
fi

hog=""
cleanup() { [ -n "$hog" ] && kill "$hog" 2>/dev/null; hog=""; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM
if [ "$stress" = 1 ]; then
  stress-ng --cpu 2 --quiet &
  hog=$!
fi

say() { echo "$*"; [ -n "$log" ] && echo "$*" >> "$log"; }
say "timing-tests: $(date -u +%FT%TZ), $(git -C "$root" rev-parse --short HEAD), $times time(s), stress: $([ "$stress" = 1 ] && echo 'stress-ng --cpu 2' || echo none), $(nproc) cores"
invocations=0 green=0
for ((i = 1; i <= times; i++)); do
  for batch in "${batches[@]}"; do
    project=${batch%%|*} filter=${batch#*|}
    start=$(date +%s)
    out=$(cd "$root" && dotnet test "$project" -c Release --no-build --filter "$filter" 2>&1)
    code=$?
    secs=$(( $(date +%s) - start ))
    summary=$(echo "$out" | grep -E "^(Passed|Failed)!" | tail -1 | sed -E 's/^(Passed|Failed)! +- +//; s/, Duration.*//')
    invocations=$((invocations + 1))
    [ $code -eq 0 ] && green=$((green + 1))
    say "  round $i $(basename "$project"): exit $code in ${secs} s; ${summary:-no summary}"
    if [ $code -ne 0 ]; then
      echo "$out" | grep -E "^\s+Failed |Error Message" -A3 | head -40 | sed 's/^/    /'
      [ -n "$log" ] && echo "$out" | grep -E "^\s+Failed |Error Message" -A3 | head -40 | sed 's/^/    /' >> "$log"
    fi
  done
done
say "timing-tests: $green of $invocations invocations passed"
[ "$green" -eq "$invocations" ]
