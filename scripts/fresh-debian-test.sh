#!/usr/bin/env bash
# Runs ./test.sh as a new user would: in a fresh Debian 12 (bookworm) minbase chroot with nothing
# installed, so that scripts/setup.sh must install every package itself. A package that our
# machines carry but the list lacks fails here, not on the user's machine.
#
#   sudo scripts/fresh-debian-test.sh [ctest arguments...]
#
# What it does, all as root:
# - debootstraps bookworm minbase from the mirror this machine's own apt sources name (nothing
#   is written in the repository), once: the pristine tree is kept as a tarball in
#   $IMMAP_CHROOT_CACHE (default /var/cache/immap-lab, outside the checkout) and unpacked
#   afresh for every run; downloaded .debs are kept there too, so a re-run saves the download
#   but still installs every package;
# - copies the working tree (tracked and untracked files, not build output) to
#   /srv/immap-lab inside it, and nothing else: the repository needs nothing from outside it,
#   so every test runs from the checkout alone, as on a user's clone;
# - mounts /proc, a read-only /sys, a /dev of its own (a tmpfs with the usual device nodes, so
#   no test can touch the host's devices) and a tmpfs /tmp, and unmounts them on every exit,
#   failure and interrupt included;
# - when CCACHE_DIR is set (CI sets it), mounts that directory at /var/cache/immap-lab/ccache,
#   where setup.sh points the compiler cache for root, and installs ccache in the chroot before
#   ./test.sh: CI's build tool, not the project's (ccache's few libraries are none of ours), so
#   a warm cache spares the chroot's build and a package missing from the list still fails;
# - runs ./test.sh there with a clean environment; its exit status is this script's.
# IMMAP_CHROOT_KEEP=1 keeps the chroot afterwards (its path is printed).
set -euo pipefail

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
SUITE=bookworm
CACHE=${IMMAP_CHROOT_CACHE:-/var/cache/immap-lab}
log() { echo "fresh-debian: $*" >&2; }

if [[ $(id -u) -ne 0 ]]; then
  log "needs root (debootstrap, chroot and mount): sudo $0 $*"
  exit 1
fi

# The first URI serving SUITE in this machine's apt sources, one-line (.list) or deb822
# (.sources) format; empty when there is none.
mirror_for() {
  local suite=$1 f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -r $f ]] || continue
    awk -v s="$suite" '$1 == "deb" {
        i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/) i++; if ($2 ~ /^\[/) i++
        if ($(i + 1) == s) { print $i; exit } }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r $f ]] || continue
    # Stanzas are separated by blank lines; a stanza with Types: deb, the suite and URIs.
    awk -v s="$suite" 'BEGIN { RS = ""; FS = "\n" } {
        uri = ""; ok = 0; deb = 0
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^Types:/ && $i ~ /[ \t]deb([ \t]|$)/) deb = 1
          if ($i ~ /^URIs:/) { split($i, u, /[ \t]+/); uri = u[2] }
          if ($i ~ /^Suites:/) { n = split($i, w, /[ \t]+/); for (j = 2; j <= n; j++) if (w[j] == s) ok = 1 }
        }
        if (deb && ok && uri != "") { print uri; exit } }' "$f"
  done | head -n 1
}

MIRROR=$(mirror_for "$SUITE")
if [[ -z $MIRROR ]]; then
  log "no apt source for '$SUITE' in /etc/apt/sources.list{,.d}: cannot tell which mirror to use"
  exit 1
fi
SECURITY=$(mirror_for "$SUITE-security")

if ! command -v debootstrap >/dev/null; then
  log "installing debootstrap"
  apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap >&2
fi

ARCH=$(dpkg --print-architecture)
mkdir -p "$CACHE/debs"
BASE="$CACHE/$SUITE-minbase-$ARCH.tar"
start=$SECONDS
if [[ ! -s $BASE ]]; then
  log "debootstrap $SUITE minbase ($ARCH) from $MIRROR, cached as $BASE"
  fresh=$(mktemp -d /var/tmp/immap-debootstrap.XXXXXX)
  if ! debootstrap --variant=minbase --arch="$ARCH" "$SUITE" "$fresh" "$MIRROR" >&2; then
    log "debootstrap failed; its log: $fresh/debootstrap/debootstrap.log"
    exit 1
  fi
  tar -C "$fresh" -cf "$BASE.part" . && mv "$BASE.part" "$BASE"
  rm -rf --one-file-system "$fresh"
fi
log "base system ready in $((SECONDS - start)) s"

CHROOT=$(mktemp -d /var/tmp/immap-fresh.XXXXXX)
MOUNTS=()  # mounted paths, in mount order

mounted_below() { awk -v d="$CHROOT/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts; }

cleanup() {
  local rc=$? i
  for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
    umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" || true
  done
  if [[ -n $(mounted_below) ]]; then
    # Never delete through a mount: that would reach the host's files.
    log "still mounted below $CHROOT, not deleting it:"
    mounted_below >&2
  elif [[ ${IMMAP_CHROOT_KEEP:-0} == 1 ]]; then
    log "kept $CHROOT"
  else
    rm -rf --one-file-system "$CHROOT"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mnt() {  # mnt TARGET MOUNT-ARGS...: mount and remember it for cleanup
  local target=$1
  shift
  mkdir -p "$target"
  mount "$@" "$target"
  MOUNTS+=("$target")
}

tar -C "$CHROOT" -xf "$BASE"

# Apt as a fresh install has it: the main suite, its updates and its security suite.
{
  echo "deb $MIRROR $SUITE main"
  echo "deb $MIRROR $SUITE-updates main"
  [[ -n $SECURITY ]] && echo "deb $SECURITY $SUITE-security main"
} >"$CHROOT/etc/apt/sources.list"
cp -L /etc/resolv.conf "$CHROOT/etc/resolv.conf" 2>/dev/null || true
# No package may start a daemon inside the chroot.
printf '#!/bin/sh\nexit 101\n' >"$CHROOT/usr/sbin/policy-rc.d"
chmod +x "$CHROOT/usr/sbin/policy-rc.d"

mnt "$CHROOT/proc" -t proc proc
mnt "$CHROOT/sys" -t sysfs -o ro,nosuid,nodev,noexec sysfs
mnt "$CHROOT/dev" -t tmpfs -o mode=0755,nosuid tmpfs
for node in "null c 1 3" "zero c 1 5" "full c 1 7" "random c 1 8" "urandom c 1 9" "tty c 5 0"; do
  read -r name type major minor <<<"$node"
  mknod -m 0666 "$CHROOT/dev/$name" "$type" "$major" "$minor"
done
ln -s /proc/self/fd "$CHROOT/dev/fd"
ln -s /proc/self/fd/0 "$CHROOT/dev/stdin"
ln -s /proc/self/fd/1 "$CHROOT/dev/stdout"
ln -s /proc/self/fd/2 "$CHROOT/dev/stderr"
mnt "$CHROOT/dev/pts" -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts
ln -s pts/ptmx "$CHROOT/dev/ptmx"
mnt "$CHROOT/dev/shm" -t tmpfs -o mode=1777,nosuid,nodev tmpfs
mnt "$CHROOT/tmp" -t tmpfs -o mode=1777,nosuid,nodev tmpfs
mnt "$CHROOT/var/cache/apt/archives" --bind "$CACHE/debs"

# The project as a user's clone would hold it: tracked and untracked files, no build trees.
mkdir -p "$CHROOT/srv/immap-lab"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
    tar --null --ignore-failed-read -T - -cf -) | tar -C "$CHROOT/srv/immap-lab" -xf -
else  # an unpacked release: everything but build trees
  tar -C "$ROOT" --exclude='./build' --exclude='./build-*' -cf - . | tar -C "$CHROOT/srv/immap-lab" -xf -
fi

ENV_CCACHE=()
if [[ -n ${CCACHE_DIR:-} ]]; then
  mkdir -p "$CCACHE_DIR"
  mnt "$CHROOT/var/cache/immap-lab/ccache" --bind "$CCACHE_DIR"
  start=$SECONDS
  chroot "$CHROOT" apt-get update >&2
  DEBIAN_FRONTEND=noninteractive chroot "$CHROOT" apt-get install -y --no-install-recommends ccache >&2
  log "ccache installed in $((SECONDS - start)) s; its cache is $CCACHE_DIR"
  ENV_CCACHE=(CCACHE_DIR=/var/cache/immap-lab/ccache)
fi

log "running ./test.sh $* in $CHROOT (/srv/immap-lab)"
start=$SECONDS
set +e
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 TERM=dumb CI="${CI:-}" "${ENV_CCACHE[@]}" \
  chroot "$CHROOT" /bin/bash -c 'cd /srv/immap-lab && exec ./test.sh "$@"' test.sh "$@"
rc=$?
set -e
log "./test.sh exited $rc after $((SECONDS - start)) s"
exit "$rc"
