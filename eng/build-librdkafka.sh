#!/usr/bin/env bash
# Builds librdkafka 2.15.1 - the native library Confluent.Kafka 2.15.1 is built and tested against - from the C
# source that the npm package @confluentinc/kafka-javascript@1.10.1 carries, into
# artifacts/librdkafka/2.15.1/librdkafka.so.1. Idempotent: does nothing while that build exists.
# Why: the NuGet package librdkafka.redist (which normally brings this library) is not on every package source,
# and an OS package may be years older (Debian 12: 2.0.2). See docs/DEPENDENCIES.md.
# Needs: npm, a C compiler, make, and the headers of OpenSSL, zlib, zstd and lz4 (eng/install-prerequisites.sh
# installs them on Debian/Ubuntu).
set -euo pipefail

version=2.15.1
npm_package=@confluentinc/kafka-javascript@1.10.1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/artifacts/librdkafka/$version"

fail() { echo "build-librdkafka: $*" >&2; exit 1; }

if [ -f "$out/librdkafka.so.1" ] && [ "$(cat "$out/VERSION" 2>/dev/null)" = "$version" ]; then exit 0; fi
if [ "$(uname -s)" != "Linux" ]; then
  echo "build-librdkafka: not on Linux; set KAFKAPERF_LIBRDKAFKA to a librdkafka $version library instead." >&2
  exit 0
fi
for tool in npm cc make; do
  command -v "$tool" >/dev/null 2>&1 || fail "'$tool' is missing: run eng/install-prerequisites.sh, or set KAFKAPERF_LIBRDKAFKA to a librdkafka $version library."
done

mkdir -p "$root/artifacts/librdkafka"
work=$(mktemp -d "$root/artifacts/librdkafka/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$root/artifacts/librdkafka/build.log"
started=$(date +%s)
echo "build-librdkafka: building librdkafka $version from $npm_package (about a minute on 2 cores)" >&2
# Each step stops the build on failure: 'set -e' does not apply inside a subshell that is followed by '||'.
(
  cd "$work" || exit 1
  # npm pack only downloads the tarball: no install script of the package runs.
  tarball=$(npm pack --silent "$npm_package" | tail -1) || exit 1
  tar xzf "$tarball" package/deps/librdkafka || exit 1
  cd package/deps/librdkafka || exit 1
  grep -q 'RD_KAFKA_VERSION  *0x020f01ff' src/rdkafka.h || { echo "the package does not carry librdkafka $version"; exit 1; }
  ./configure --disable-gssapi || exit 1
  make -j"$(nproc)" -C src || exit 1
) >"$log" 2>&1 || fail "the build failed (last line: $(tail -1 "$log")). Full log: $log. Or set KAFKAPERF_LIBRDKAFKA to a librdkafka $version library."

rm -rf "$out.partial"
mkdir -p "$out.partial"
cp "$work/package/deps/librdkafka/src/librdkafka.so.1" "$out.partial/"
echo "$version" >"$out.partial/VERSION"
rm -rf "$out"
mv "$out.partial" "$out"
echo "build-librdkafka: librdkafka $version built in $(( $(date +%s) - started )) s: ${out#"$root"/}/librdkafka.so.1" >&2
