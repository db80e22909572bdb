#!/usr/bin/env bash
# Builds a local Docker image of Apache Kafka that starts like the official apache/kafka image (the same start script
# path, variables and log lines), so Testcontainers.Kafka and a plain `docker run` can use it, from what this machine
# already has: no base image is pulled, as no image registry may be reachable. The image holds
#   /opt/java/openjdk   a small Java runtime that jlink makes from the local JDK (17 or later)
#   /lib, /lib64        the C libraries that runtime and the jars' native codecs load, copied as `ldd` lists them
#   /bin/busybox        a static busybox for /bin/sh, the few commands the start script uses, and /bin/bash
#   /opt/kafka/libs     Kafka's jars, as eng/fetch-kafka.sh fetches them for the build
#   /etc/kafka/docker   the start script (eng/kafka-image/run) and the default configuration files
# and is loaded with `docker import` from a root file system assembled in a temporary folder.
# Idempotent: the image carries a hash of its inputs (this script, the start script, the jar list, the JDK, busybox)
# in a label, and nothing is built while that hash still matches.
#
#   eng/build-kafka-image.sh [IMAGE]   IMAGE defaults to kafkaperf-local/apache-kafka:<the jars' Kafka version>.
#                                      Keep "apache" in its repository part: Testcontainers.Kafka chooses its
#                                      settings for the apache/kafka kind of image (KRaft) from that word.
#   JAVA_HOME                          the JDK to take the runtime from; else the one of jlink on PATH.
#   KAFKAPERF_KAFKA_HOME               as for eng/fetch-kafka.sh: that distribution's libs/ goes into the image.
# It needs a running Docker engine, and installs busybox-static with apt-get when busybox is missing and it runs as
# root.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
self="$root/eng/build-kafka-image.sh"
run_script="$root/eng/kafka-image/run"

fail() { echo "build-kafka-image: $*" >&2; exit 1; }
# shellcheck source=eng/image-rootfs.sh
. "$root/eng/image-rootfs.sh"

[ -f "$run_script" ] || fail "the start script $run_script is missing: restore it from git (git checkout -- eng/kafka-image/run)."

# The engine first: without it nothing here is of use, and the up-to-date check asks it.
image_require_docker

# Kafka's jars: the same folder the build uses; the fetch script does nothing while they match the pom.
if [ -n "${KAFKAPERF_KAFKA_HOME:-}" ]; then libs="$KAFKAPERF_KAFKA_HOME/libs"; else libs="$root/artifacts/kafka/libs"; fi
# Its output is held back so that a failure stays one line (its own, which says what to do).
if ! fetched=$(bash "$root/eng/fetch-kafka.sh" 2>&1); then
  fail "$(tail -1 <<<"$fetched")"
fi
[ -z "$fetched" ] || echo "$fetched" >&2
server_jar=$(compgen -G "$libs/kafka_2.13-*.jar" | head -1 || true)
[ -n "$server_jar" ] || fail "$libs holds no kafka_2.13 jar (Kafka's broker): run eng/fetch-kafka.sh, or point KAFKAPERF_KAFKA_HOME at a Kafka distribution."
version=$(basename "$server_jar" .jar)
version=${version#kafka_2.13-}
image=${1:-kafkaperf-local/apache-kafka:$version}
case ${image%:*} in
  *apache*) ;;
  *) fail "the image name '$image' has no 'apache' in its repository part, so Testcontainers.Kafka would not treat it as a KRaft apache/kafka image: choose a name with 'apache' in it." ;;
esac

image_find_jdk
feature=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jdk/release" 2>/dev/null || true)
[ "${feature:-0}" -ge 17 ] \
  || fail "the JDK at $jdk is not Java 17 or later (Kafka $version needs 17): install one (apt-get install openjdk-17-jdk-headless) or point JAVA_HOME at one."
image_find_busybox

# What the image is made of. A different hash means a different image: rebuild. Jars are named by version, so their
# names and sizes stand for their content.
inputs=$(
  cat "$self" "$root/eng/image-rootfs.sh" "$run_script"
  (cd "$libs" && stat -c '%n %s' ./*.jar)
  echo "$jdk"; cat "$jdk/release"
  "$busybox" 2>&1 | head -1 || true
  uname -m
)
hash=$(printf '%s' "$inputs" | sha256sum | cut -d' ' -f1)
label=kafkaperf.inputs-sha256
current=$(docker image inspect --format "{{ index .Config.Labels \"$label\" }}" "$image" 2>/dev/null || true)
if [ "$current" = "$hash" ]; then
  echo "build-kafka-image: $image is up to date" >&2
  exit 0
fi

njars=$(find "$libs" -maxdepth 1 -name '*.jar' | wc -l)
echo "build-kafka-image: building $image (Java $feature runtime, $njars jars, busybox) with docker import" >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/kafkaperf-kafka-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
mkdir -p "$rootfs"/{bin,etc,root,tmp,opt/java,opt/kafka/libs,opt/kafka/config,opt/kafka/logs,etc/kafka/docker,etc/kafka/secrets,mnt/shared/config,var/lib/kafka/data}
chmod 1777 "$rootfs/tmp"

# The Java runtime. The modules are what the broker, its tools and their libraries use (jdeps over the jars, with
# module-info set aside: log4j's core needs java.beans of java.desktop, for one), plus the management, JFR and jcmd
# ones for looking into a running broker; that is under half of ALL-MODULE-PATH. A module this JDK lacks (newer JDKs
# drop some) is skipped. java.desktop's native libraries are left out: only its classes are used, and the libraries
# would need X11, sound and font libraries. No CDS archive (--generate-cds-archive): its 22 MB saved under 0.1 s of
# a JVM's start here.
wanted="java.base java.compiler java.desktop java.instrument java.logging java.management java.management.rmi
  java.naming java.net.http java.rmi java.scripting java.security.jgss java.security.sasl java.sql java.xml
  jdk.charsets jdk.crypto.ec jdk.jcmd jdk.jfr jdk.management jdk.management.agent jdk.management.jfr jdk.naming.dns
  jdk.net jdk.security.auth jdk.security.jgss jdk.unsupported jdk.zipfs"
desktop_natives='**/libawt*.so,**/libfontmanager.so,**/libjavajpeg.so,**/libjawt.so,**/libjsound.so,**/liblcms.so,**/libmlib_image.so,**/libsplashscreen.so'
available=$("$jdk/bin/java" --list-modules | sed 's/@.*//')
modules=$(for m in $wanted; do if grep -qx "$m" <<<"$available"; then echo "$m"; fi; done | paste -sd, -)
jre="$rootfs/opt/java/openjdk"
if ! "$jdk/bin/jlink" --add-modules "$modules" --exclude-files="$desktop_natives" --strip-debug --no-header-files \
    --no-man-pages --output "$jre" >"$work/jlink.log" 2>&1; then
  fail "jlink could not make the Java runtime from $jdk ($(grep -m1 -i error "$work/jlink.log" | cut -c1-200)): install the JDK's jmods (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless) or point JAVA_HOME at a full JDK."
fi

# The native codecs (snappy, zstd, lz4) come inside jars, unpacked to /tmp and loaded at run time: the libraries
# they need count as well (zstd's libpthread, which Java's own do not name). busybox unzips them, so no unzip is needed.
case $(uname -m) in
  x86_64) arch='amd64|x86_64|x86-64' ;;
  aarch64) arch='aarch64|arm64' ;;
  *) arch=$(uname -m) ;;
esac
mkdir -p "$work/native"
for jar in "$libs"/*.jar; do
  "$busybox" unzip -l "$jar" 2>/dev/null | awk '{print $4}' | grep -i 'linux' | grep -E "($arch)/[^/]*\.so$" \
    | while read -r so; do "$busybox" unzip -q -o "$jar" "$so" -d "$work/native/$(basename "$jar" .jar)"; done || true
done

# Every library those need, copied to the path the loader looks for (the loader itself included). libjvm.so and
# its siblings are the runtime's own: found through LD_LIBRARY_PATH here, and by the launcher in the image.
{ echo "$jre/bin/java"; find "$jre/lib" "$work/native" -name '*.so*' -type f; echo "$busybox"; } \
  | LD_LIBRARY_PATH="$jre/lib:$jre/lib/server" xargs -r -n1 ldd 2>/dev/null >"$work/ldd.txt" || true
if grep -q 'not found' "$work/ldd.txt"; then
  fail "these libraries that the Java runtime needs are missing on this machine: $(grep 'not found' "$work/ldd.txt" | awk '{print $1}' | sort -u | paste -sd' ' -): install them, then run this again."
fi
image_copy_libraries "$work/ldd.txt" "$rootfs" </dev/null

# busybox and its applets, and the users (root only: the official image's appuser would need owners set per file in
# the tar, and nothing here needs it).
image_install_busybox "$rootfs"
# Testcontainers copies in a #!/bin/bash script and runs it. Debian's busybox has no bash applet (a link named bash
# answers "applet not found"), so /bin/bash is a script that hands its arguments to busybox's sh; the kernel runs a
# script whose interpreter is itself a script. The scripts run here are POSIX shell.
cat >"$rootfs/bin/bash" <<'SH'
#!/bin/busybox sh
# Not bash: busybox's sh, for the #!/bin/bash scripts Testcontainers copies in (POSIX shell only).
exec /bin/busybox sh "$@"
SH
chmod 755 "$rootfs/bin/bash"

cp "$libs"/*.jar "$rootfs/opt/kafka/libs/"
install -m 755 "$run_script" "$rootfs/etc/kafka/docker/run"

# The defaults kafka.docker.KafkaDockerWrapper starts from, as the official image's /etc/kafka/docker holds them:
# server.properties, used only when neither a mounted file nor any variable configures the broker (the start script
# always sets some, so it documents the defaults), and Kafka's log4j2 files for the broker (stdout, plus the usual
# files under /opt/kafka/logs) and for tools (warnings on stderr).
cat >"$rootfs/etc/kafka/docker/server.properties" <<'PROPERTIES'
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:9093
listeners=PLAINTEXT://0.0.0.0:9092,CONTROLLER://0.0.0.0:9093
advertised.listeners=PLAINTEXT://localhost:9092
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL
log.dirs=/tmp/kraft-combined-logs
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPERTIES

cat >"$rootfs/etc/kafka/docker/log4j2.yaml" <<'YAML'
Configuration:
  Properties:
    Property:
      - name: "kafka.logs.dir"
        value: "."
      - name: "logPattern"
        value: "[%d] %p %m (%c)%n"
  Appenders:
    Console:
      name: STDOUT
      PatternLayout:
        pattern: "${logPattern}"
    RollingFile:
      - name: KafkaAppender
        fileName: "${sys:kafka.logs.dir}/server.log"
        filePattern: "${sys:kafka.logs.dir}/server.log.%d{yyyy-MM-dd-HH}"
        PatternLayout:
          pattern: "${logPattern}"
        TimeBasedTriggeringPolicy:
          modulate: true
          interval: 1
      - name: StateChangeAppender
        fileName: "${sys:kafka.logs.dir}/state-change.log"
        filePattern: "${sys:kafka.logs.dir}/state-change.log.%d{yyyy-MM-dd-HH}"
        PatternLayout:
          pattern: "${logPattern}"
        TimeBasedTriggeringPolicy:
          modulate: true
          interval: 1
      - name: RequestAppender
        fileName: "${sys:kafka.logs.dir}/kafka-request.log"
        filePattern: "${sys:kafka.logs.dir}/kafka-request.log.%d{yyyy-MM-dd-HH}"
        PatternLayout:
          pattern: "${logPattern}"
        TimeBasedTriggeringPolicy:
          modulate: true
          interval: 1
      - name: CleanerAppender
        fileName: "${sys:kafka.logs.dir}/log-cleaner.log"
        filePattern: "${sys:kafka.logs.dir}/log-cleaner.log.%d{yyyy-MM-dd-HH}"
        PatternLayout:
          pattern: "${logPattern}"
        TimeBasedTriggeringPolicy:
          modulate: true
          interval: 1
      - name: ControllerAppender
        fileName: "${sys:kafka.logs.dir}/controller.log"
        filePattern: "${sys:kafka.logs.dir}/controller.log.%d{yyyy-MM-dd-HH}"
        PatternLayout:
          pattern: "${logPattern}"
        TimeBasedTriggeringPolicy:
          modulate: true
          interval: 1
      - name: AuthorizerAppender
        fileName: "${sys:kafka.logs.dir}/kafka-authorizer.log"
        filePattern: "${sys:kafka.logs.dir}/kafka-authorizer.log.%d{yyyy-MM-dd-HH}"
        PatternLayout:
          pattern: "${logPattern}"
        TimeBasedTriggeringPolicy:
          modulate: true
          interval: 1
  Loggers:
    Root:
      level: INFO
      AppenderRef:
        - ref: STDOUT
        - ref: KafkaAppender
    Logger:
      - name: kafka
        level: INFO
      - name: org.apache.kafka
        level: INFO
      - name: kafka.request.logger
        level: WARN
        additivity: false
        AppenderRef:
          ref: RequestAppender
      - name: kafka.network.RequestChannel$
        level: WARN
        additivity: false
        AppenderRef:
          ref: RequestAppender
      - name: org.apache.kafka.controller
        level: INFO
        additivity: false
        AppenderRef:
          ref: ControllerAppender
      - name: org.apache.kafka.storage.internals.log.LogCleaner
        level: INFO
        additivity: false
        AppenderRef:
          ref: CleanerAppender
      - name: org.apache.kafka.storage.internals.log.LogCleaner$CleanerThread
        level: INFO
        additivity: false
        AppenderRef:
          ref: CleanerAppender
      - name: org.apache.kafka.storage.internals.log.Cleaner
        level: INFO
        additivity: false
        AppenderRef:
          ref: CleanerAppender
      - name: state.change.logger
        level: INFO
        additivity: false
        AppenderRef:
          ref: StateChangeAppender
      - name: kafka.authorizer.logger
        level: INFO
        additivity: false
        AppenderRef:
          ref: AuthorizerAppender
YAML

cat >"$rootfs/etc/kafka/docker/tools-log4j2.yaml" <<'YAML'
Configuration:
  Properties:
    Property:
      - name: "logPattern"
        value: "[%d] %p %m (%c)%n"
  Appenders:
    Console:
      name: STDERR
      target: SYSTEM_ERR
      PatternLayout:
        pattern: "${logPattern}"
  Loggers:
    Root:
      level: WARN
      AppenderRef:
        - ref: STDERR
YAML

# CMD and no ENTRYPOINT, as the official image: Testcontainers replaces the entrypoint with /bin/sh -c.
image_import "$rootfs" "$image" \
  --change 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV JAVA_HOME=/opt/java/openjdk' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'EXPOSE 9092' \
  --change 'CMD ["/etc/kafka/docker/run"]' \
  --change "LABEL org.opencontainers.image.title=apache-kafka org.opencontainers.image.version=$version" \
  --change "LABEL $label=$hash" \
  --message "Apache Kafka $version, built by eng/build-kafka-image.sh"
