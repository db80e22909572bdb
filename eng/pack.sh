#!/usr/bin/env bash
# Packs every KafkaPerf package into one local folder feed, in the order their dependencies need (Core, then what
# stands on it; last the `dotnet new` templates, which name them), so that a project restoring from the feed finds every
# package it names:
#   eng/pack.sh                 -> artifacts/packages (the feed nuget.config and the samples name)
#   eng/pack.sh --output DIR    -> DIR
#   eng/pack.sh --no-build      packs what `dotnet build -c Release` already built
# Needs what the build needs (eng/install-prerequisites.sh): the Adapters package carries Kafka's jars.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/artifacts/packages"
build=()
while [ $# -gt 0 ]; do
  case $1 in
    --output) [ -n "${2:-}" ] || { echo "pack: --output needs a folder." >&2; exit 2; }; out=$2; shift 2 ;;
    --no-build) build=(--no-build); shift ;;
    *) echo "pack: unknown argument '$1': give --output DIR, --no-build, or nothing." >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
# The intermediate .nuspec files go to a folder of this call's own, not to the projects' obj/: two packs at once (the
# test assemblies run side by side, each packing what it needs) would otherwise write the same file.
nuspecs=$(mktemp -d "${TMPDIR:-/tmp}/kafkaperf-pack-XXXXXX")
trap 'rm -rf "$nuspecs"' EXIT
for project in src/KafkaPerf.Core src/KafkaPerf.Adapters src/KafkaPerf.Testing src/KafkaPerf.Cli templates; do
  echo "pack: $project" >&2
  dotnet pack "$root/$project" -c Release "${build[@]}" -o "$out" -nologo -v q "-p:NuspecOutputPath=$nuspecs/$(basename "$project")/"
done
echo "pack: $(find "$out" -maxdepth 1 -name 'KafkaPerf.*.nupkg' | wc -l) packages in $out" >&2
