#!/usr/bin/env bash
# Builds a local Docker image of the kafkaperf tool itself, for workers on other machines, in containers or on
# Kubernetes (docs/WORKERS.md): `docker run IMAGE worker --group G --bootstrap HOST:PORT`. As for the broker image
# (eng/build-kafka-image.sh), no base image is pulled, since no image registry may be reachable: the image is loaded with
# `docker import` from a root file system assembled here, from what the machine has. It holds
#   /usr/share/dotnet   the .NET runtime the SDK here runs on (the host, hostfxr and Microsoft.NETCore.App only)
#   /opt/kafkaperf      the tool, published framework-dependent (with librdkafka.redist's linux-x64 file and Kafka's jars)
#   /opt/java/openjdk   a small Java runtime that jlink makes from the local JDK, for the java clients
#   /lib, /usr/lib      the C libraries all of them load, copied as `ldd` lists them, and OpenSSL (loaded on demand)
#   /bin/busybox        a static busybox for /bin/sh and a few commands (docker exec, a Kubernetes probe)
# Its entry point is the tool: arguments after the image name are the tool's (worker, run, clients, ...). Settings
# come from KAFKAPERF_ variables as on any machine (KAFKAPERF_WORKER__GROUP, KAFKAPERF_WORKER__BOOTSTRAP,
# KAFKAPERF_SASL_USERNAME, KAFKAPERF_SASL_PASSWORD).
# Idempotent: the image carries a hash of its inputs in a label and is not rebuilt while that hash still matches.
#
#   eng/build-tool-image.sh [IMAGE]    IMAGE defaults to kafkaperf-local/kafkaperf:<the tool's version>.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
self="$root/eng/build-tool-image.sh"
fail() { echo "build-tool-image: $*" >&2; exit 1; }
# shellcheck source=eng/image-rootfs.sh
. "$root/eng/image-rootfs.sh"

image_require_docker
command -v dotnet >/dev/null 2>&1 || fail "dotnet is not installed: install the .NET 10 SDK, then run this again."

# The JDK and busybox, as the broker image finds them.
image_find_jdk
image_find_busybox

work=$(mktemp -d "${TMPDIR:-/tmp}/kafkaperf-tool-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A step that fails without a message of its own says which it was (CI once saw this script end after "building" with none).
trap 'echo "build-tool-image: failed at line $LINENO: $BASH_COMMAND" >&2' ERR

# The tool, as users' machines would get it from the package: framework-dependent, linux-x64 natives only.
# What `dotnet build -c Release` made, when it did (the tests call this after the build); else a build of its own.
echo "build-tool-image: publishing the tool" >&2
if ! dotnet publish "$root/src/KafkaPerf.Cli/KafkaPerf.Cli.csproj" -c Release -o "$work/app" --no-build --nologo -v quiet >"$work/publish.log" 2>&1 \
  && ! dotnet publish "$root/src/KafkaPerf.Cli/KafkaPerf.Cli.csproj" -c Release -o "$work/app" --nologo -v quiet >"$work/publish.log" 2>&1; then
  fail "dotnet publish failed: $(grep -m1 -E 'error' "$work/publish.log" | cut -c1-300)"
fi
[ -f "$work/app/dotnet-kafkaperf.dll" ] || fail "the publish holds no dotnet-kafkaperf.dll"
rdkafka="$work/app/runtimes/linux-x64/native/centos8-librdkafka.so"
[ -f "$rdkafka" ] || fail "the publish holds no $rdkafka (librdkafka.redist's file for glibc systems)"
version=$(grep -o '"dotnet-kafkaperf/[^"]*"' "$work/app/dotnet-kafkaperf.deps.json" | head -1 | sed 's|.*/\(.*\)"|\1|')
image=${1:-kafkaperf-local/kafkaperf:${version:-latest}}

# The runtime the SDK here uses, the one the tool was built for.
dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
runtime=$(dotnet --list-runtimes | awk '$1 == "Microsoft.NETCore.App" {print $2}' | sort -V | tail -1)
[ -n "$runtime" ] || fail "no Microsoft.NETCore.App runtime found beside the SDK"
fxr=$(ls "$dotnet_root/host/fxr" | sort -V | tail -1)

inputs=$(
  cat "$self" "$root/eng/image-rootfs.sh"
  (cd "$work/app" && find . -type f -printf '%p %s\n' | sort)
  echo "$jdk"; cat "$jdk/release"; echo "$runtime $fxr"; uname -m
)
hash=$(printf '%s' "$inputs" | sha256sum | cut -d' ' -f1)
label=kafkaperf.inputs-sha256
if [ "$(docker image inspect --format "{{ index .Config.Labels \"$label\" }}" "$image" 2>/dev/null || true)" = "$hash" ]; then
  echo "build-tool-image: $image is up to date" >&2
  echo "$image"
  exit 0
fi
echo "build-tool-image: building $image (.NET $runtime, Java runtime from $jdk, busybox) with docker import" >&2

rootfs="$work/rootfs"
mkdir -p "$rootfs"/{bin,etc,root,tmp,opt,usr/share/dotnet/host/fxr,usr/share/dotnet/shared/Microsoft.NETCore.App,work}
chmod 1777 "$rootfs/tmp"
cp "$dotnet_root/dotnet" "$rootfs/usr/share/dotnet/"
cp -r "$dotnet_root/host/fxr/$fxr" "$rootfs/usr/share/dotnet/host/fxr/"
cp -r "$dotnet_root/shared/Microsoft.NETCore.App/$runtime" "$rootfs/usr/share/dotnet/shared/Microsoft.NETCore.App/"
cp -r "$work/app" "$rootfs/opt/kafkaperf"
# Windows and macOS natives are of no use in a Linux image.
find "$rootfs/opt/kafkaperf/runtimes" -mindepth 1 -maxdepth 1 ! -name 'linux-x64' -exec rm -rf {} +

# The java clients' runtime: what kafka-clients and the tool's own classes use.
modules=java.base,java.logging,java.management,java.naming,java.security.jgss,java.security.sasl,java.xml,jdk.crypto.ec,jdk.unsupported,jdk.management
if ! "$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --output "$rootfs/opt/java/openjdk" >"$work/jlink.log" 2>&1; then
  fail "jlink could not make the Java runtime from $jdk ($(grep -m1 -i error "$work/jlink.log" | cut -c1-200)): install the JDK's jmods (apt-get install openjdk-17-jdk-headless)."
fi

# Every library they load, at the path the loader looks for. OpenSSL is loaded by .NET on demand (not in ldd's list).
jre="$rootfs/opt/java/openjdk"
{
  echo "$rootfs/usr/share/dotnet/dotnet"
  find "$rootfs/usr/share/dotnet" "$jre/lib" -name '*.so*' -type f
  echo "$rdkafka"
  echo "$busybox"
  for lib in libssl.so.3 libcrypto.so.3; do ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}'; done
} | LD_LIBRARY_PATH="$jre/lib:$jre/lib/server" xargs -r -n1 ldd 2>/dev/null >"$work/ldd.txt" || true
missing=$(grep 'not found' "$work/ldd.txt" | awk '{print $1}' | sort -u | grep -v -E '^(libicu|liblttng|libSystem.Globalization)' || true)
[ -z "$missing" ] || fail "these libraries are missing on this machine: $(echo "$missing" | paste -sd' ' -): install them, then run this again."
for lib in libssl.so.3 libcrypto.so.3; do ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}'; done \
  | image_copy_libraries "$work/ldd.txt" "$rootfs"
image_install_busybox "$rootfs"

image_import "$rootfs" "$image" \
  --change "LABEL $label=$hash" \
  --change 'ENV DOTNET_ROOT=/usr/share/dotnet JAVA_HOME=/opt/java/openjdk PATH=/usr/share/dotnet:/opt/java/openjdk/bin:/bin:/usr/bin DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_EnableAlternateStackCheck=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 HOME=/root' \
  --change 'WORKDIR /work' \
  --change 'ENTRYPOINT ["/usr/share/dotnet/dotnet", "/opt/kafkaperf/dotnet-kafkaperf.dll"]'
echo "build-tool-image: built $image ($(docker image inspect --format '{{.Size}}' "$image" | awk '{printf "%d MB", $1/1e6}'))" >&2
echo "$image"
