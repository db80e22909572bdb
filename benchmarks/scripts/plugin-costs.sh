#!/usr/bin/env bash
# What a plugin adds to start-up and what a second Confluent.Kafka version adds to memory, each measured in fresh
# processes of benchmarks/KafkaPerf.Benchmarks (PluginCosts.cs), N of each set-up, the set-ups alternating:
#   plugin-load     ClientPlugins.Load of the sample plugin samples/CustomClient (published as a user publishes it: against
#                   KafkaPerf.Core packed into a folder feed) and of the confluent@2.15.1 version folder (made by
#                   `kafkaperf prepare-client confluent@2.15.1 --output DIR`), timed alone, then with each client's
#                   DescribeLibrary/CheckAvailability. The two plugins alternate, the order reversed every round.
#   version-memory  on one embedded broker (`kafkaperf broker`): one `confluent` producer, two of them (same2), and
#                   `confluent` + `confluent@2.15.1` (two); each sends 10 000 records of 100 B, flushed, then a full
#                   compacting GC, then VmRSS/RssAnon/RssFile from /proc/self/status and the GC's figures. The three
#                   set-ups rotate (one same2 two, same2 two one, …).
# One untimed round of each comes first (file cache). Prints the date, commit and load average, then the medians
# (min–max) and the differences round by round (benchmarks/scripts/plugin-costs-summary.py). Everything it makes
# (version folder, published plugin, package feed, broker and its topics) is removed at the end, also on failure.
# Needs the .NET SDK, Java, Kafka's jars (KAFKAPERF_MAVEN_MIRROR as for the build) and Confluent.Kafka 2.15.1 from a
# NuGet source or the machine's package folder.
#
#   benchmarks/scripts/plugin-costs.sh [N] [RAW_DIR]     N per set-up (default 10); RAW_DIR (new) keeps the JSON lines
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-10}
raw_dir=${2:-}
[ -z "$raw_dir" ] || [ ! -e "$raw_dir" ] || { echo "plugin-costs: '$raw_dir' exists: name a new folder" >&2; exit 2; }
cli="$root/src/KafkaPerf.Cli/bin/Release/net10.0/dotnet-kafkaperf"
bench="$root/benchmarks/KafkaPerf.Benchmarks/bin/Release/net10.0/KafkaPerf.Benchmarks"

work=$(mktemp -d "${TMPDIR:-/tmp}/kafkaperf-plugin-costs-XXXXXX")
broker_pid=""
cleanup() {
  if [ -n "$broker_pid" ]; then kill -TERM "$broker_pid" 2>/dev/null || true; wait "$broker_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "plugin-costs: building the tool and the benchmark program (Release)" >&2
dotnet build "$root/src/KafkaPerf.Cli" -c Release -v q -nologo >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
dotnet build "$root/benchmarks/KafkaPerf.Benchmarks" -c Release -v q -nologo >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }

echo "plugin-costs: preparing confluent@2.15.1" >&2
version="$work/confluent-2.15.1"
"$cli" prepare-client confluent@2.15.1 --output "$version" >"$work/prepare.log" 2>&1 || { cat "$work/prepare.log" >&2; exit 1; }

# samples/CustomClient as tests/KafkaPerf.Cli.Tests/Plugins/SamplePlugin.cs publishes it: KafkaPerf.Core from a folder
# feed, the rest from the machine's package folder, into a package folder of its own.
echo "plugin-costs: publishing samples/CustomClient" >&2
mkdir -p "$work/sample/CustomClient"
dotnet pack "$root/src/KafkaPerf.Core" -c Release --no-build -o "$work/feed" -v q -nologo >"$work/pack.log" 2>&1 || { cat "$work/pack.log" >&2; exit 1; }
cp "$root"/samples/CustomClient/*.cs "$root"/samples/CustomClient/*.csproj "$work/sample/CustomClient/"
cp "$root/samples/Directory.Build.props" "$root/samples/Directory.Packages.props" "$work/sample/"
machine_packages=${NUGET_PACKAGES:-$HOME/.nuget/packages}
printf '<configuration><packageSources><add key="kafkaperf-local" value="%s" /><add key="machine-cache" value="%s" /></packageSources></configuration>\n' \
  "$work/feed" "$machine_packages" >"$work/sample/nuget.config"
plugin="$work/plugin"
(cd "$work/sample/CustomClient" && NUGET_PACKAGES="$work/packages" dotnet publish -c Release -o "$plugin" -nologo -v q) >"$work/publish.log" 2>&1 \
  || { cat "$work/publish.log" >&2; exit 1; }
[ -f "$plugin/CustomClient.dll" ] || { cat "$work/publish.log" >&2; exit 1; }

echo "plugin-costs: starting a broker" >&2
"$cli" broker >"$work/broker.out" 2>"$work/broker.err" &
broker_pid=$!
until [ -s "$work/broker.out" ]; do kill -0 "$broker_pid" 2>/dev/null || { cat "$work/broker.err" >&2; exit 1; }; sleep 0.1; done
bootstrap=$(head -1 "$work/broker.out")

{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "commit: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- src benchmarks 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  echo "broker: $bootstrap (embedded, $(sed -n 's/.*embedded \(Kafka [0-9.]*\).*/\1/p' "$work/broker.err" | head -1))"
  echo "runs: $runs per set-up, after one untimed round"
  echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$work/environment.txt"

load="$work/plugin-load.jsonl"
memory="$work/version-memory.jsonl"
: >"$load"; : >"$memory"
measure() { # FILE ROUND ARGS...: one fresh process, its JSON line tagged with the round (0: untimed)
  local file=$1 round=$2; shift 2
  local line
  line=$("$bench" "$@" 2>"$work/measure.err") || { cat "$work/measure.err" >&2; exit 1; }
  echo "{\"round\":$round,${line#\{}" >>"$file"
}

echo "plugin-costs: plugin-load, $runs rounds" >&2
for round in $(seq 0 "$runs"); do
  if [ $((round % 2)) -eq 0 ]; then order="$plugin $version"; else order="$version $plugin"; fi
  for path in $order; do measure "$load" "$round" plugin-load "$path"; done
done

echo "plugin-costs: version-memory, $runs rounds" >&2
setups=(one same2 two)
for round in $(seq 0 "$runs"); do
  for k in 0 1 2; do
    setup=${setups[$(((round + k) % 3))]}
    measure "$memory" "$round" version-memory "$setup" "$bootstrap" "$version"
  done
done

echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$work/environment.txt"
cat "$work/environment.txt"
echo
python3 "$root/benchmarks/scripts/plugin-costs-summary.py" "$load" "$memory" "$plugin" "$version"
if [ -n "$raw_dir" ]; then mkdir -p "$raw_dir"; cp "$work/environment.txt" "$load" "$memory" "$raw_dir/"; fi
