# What eng/build-kafka-image.sh and eng/build-tool-image.sh share: both assemble a root file system from what this
# machine has (no base image is pulled) and load it with `docker import`. Sourced, not run; the sourcing script defines
# fail() (one line, exit 1) and adds this file to the inputs its image's hash covers.

# The Docker engine answers, or one line says how to start it.
image_require_docker() {
  command -v docker >/dev/null 2>&1 \
    || fail "docker is not installed: install Docker (Debian/Ubuntu: apt-get install docker.io) and start its engine, then run this again."
  local engine reason
  if ! engine=$(docker info --format '{{.ServerVersion}}' 2>&1); then
    reason=$(echo "$engine" | grep -m1 -i -E 'cannot connect|permission denied|error' | cut -c1-200 || true)
    fail "the Docker engine does not answer (${reason:-docker info failed}): start it (systemctl start docker, or run dockerd in the background as root) or fix DOCKER_HOST, then run this again."
  fi
}

# Sets jdk: JAVA_HOME's when it has jlink (as the build takes JAVA_HOME's javac), else the one jlink on PATH belongs to.
image_find_jdk() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/jlink" ]; then
    jdk=$JAVA_HOME
  elif command -v jlink >/dev/null 2>&1; then
    jdk=$(dirname "$(dirname "$(readlink -f "$(command -v jlink)")")")
  else
    fail "no JDK with jlink found: install a JDK 17 or later (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless) or point JAVA_HOME at one."
  fi
  command -v ldd >/dev/null 2>&1 || fail "ldd is not installed, and it lists the C libraries the image needs: install it (Debian/Ubuntu: apt-get install libc-bin)."
}

# Sets busybox, the image's shell: static from Debian's busybox-static, installed with apt-get when missing and run as
# root; a dynamic one works too, as its libraries are copied like the others.
image_find_busybox() {
  if ! command -v busybox >/dev/null 2>&1; then
    if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
      fail "busybox is not installed, and it is the image's shell: install it (Debian/Ubuntu: apt-get install busybox-static), then run this again."
    fi
    # The package lists may be missing or old on a fresh machine: update them only when the install fails without.
    if ! apt-get install -y -q busybox-static >/dev/null 2>&1; then
      apt-get update -q >/dev/null 2>&1 || true
      apt-get install -y -q busybox-static >/dev/null 2>&1 \
        || fail "apt-get could not install busybox-static (try: apt-get update && apt-get install busybox-static), and busybox is the image's shell."
    fi
  fi
  busybox=$(readlink -f "$(command -v busybox)")
}

# image_copy_libraries LDD_OUTPUT ROOTFS: every library `ldd` listed (the loader itself included), copied to the path the
# loader looks for, but for those already inside ROOTFS; plus the extra paths given on standard input.
image_copy_libraries() {
  local listed=$1 rootfs=$2 lib
  { awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' "$listed"; cat; } | sort -u | grep -v "^$rootfs/" \
    | while read -r lib; do
        [ -n "$lib" ] || continue
        mkdir -p "$rootfs$(dirname "$lib")"
        cp -L "$lib" "$rootfs$lib"
      done
}

# image_install_busybox ROOTFS: busybox and its applets (sh, env, sed, cat, mkdir, id, sleep, ...) as links where a
# system has them, and the users root and nobody (everything in the images runs as root).
image_install_busybox() {
  local rootfs=$1 applet
  cp "$busybox" "$rootfs/bin/busybox"
  "$busybox" --list-full | while read -r applet; do
    [ -e "$rootfs/$applet" ] && continue
    mkdir -p "$rootfs/$(dirname "$applet")"
    ln -s /bin/busybox "$rootfs/$applet"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$rootfs/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
}

# image_import ROOTFS IMAGE [docker import options...]: streams ROOTFS, owned by root whoever builds it, into the engine
# (no tar file is written) as IMAGE. The image it replaces, untagged by the import, is removed rather than left as
# <none> - unless a container still uses it or another name tags it, as docker rmi then refuses.
image_import() {
  local rootfs=$1 image=$2 previous log
  shift 2
  previous=$(docker image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
  if ! log=$(tar --numeric-owner --owner=0 --group=0 -C "$rootfs" -cf - . | docker import "$@" - "$image" 2>&1); then
    fail "docker import of the root file system failed ($(tail -1 <<<"$log" | cut -c1-200)): check the engine's disk space and logs, then run this again."
  fi
  if [ -n "$previous" ] && [ "$previous" != "$(docker image inspect --format '{{.Id}}' "$image")" ]; then
    docker rmi "$previous" >/dev/null 2>&1 || true
  fi
}
