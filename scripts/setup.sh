#!/usr/bin/env bash
# Make this machine able to build immap-lab, then build it (Release, into build/).
#   scripts/setup.sh [--packages-only]
# run.sh and test.sh call it first, and CI gets here through .ci/run -> test.sh, so a fresh
# Debian 12 machine needs nothing installed by hand. When everything is present it does no apt
# call and only lets Ninja check that build/ is up to date.
# All its output goes to stderr: run.sh's stdout belongs to the program it starts.
set -euo pipefail

# The one list of Debian packages the project needs. Add new ones here.
# Use real package names, not virtual ones: dpkg-query never reports a virtual name as installed,
# so it would trigger apt on every run. (Qt SVG's dev files are qt6-svg-dev; libqt6svg6-dev is
# only a name it provides.)
PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libgl-dev
  libhwloc-dev hwloc
  # hwloc's libxml2 XML importer. Only a Recommends of libhwloc15, so --no-install-recommends
  # leaves it out and hwloc falls back to its minimal built-in parser; we choose libxml2's, on
  # purpose (core/topology/XmlWellFormed.h), and check every XML with libxml2 ourselves first.
  libhwloc-plugins libxml2-dev
  libarchive-dev
  libboost-graph-dev
  libqcustomplot-dev
  xvfb xauth
  # GNU parallel: the suite runs a sharded sweep's shards with it (docs/sharding.md).
  parallel
)

# --packages-only: install what is missing and stop (CI's sanitizer stage builds its own tree).
packages_only=0
[[ ${1:-} == --packages-only ]] && packages_only=1

# Repo root from this file's own location, so it works from any directory (and when sourced).
ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
BUILD="$ROOT/build"
GENERATOR=Ninja

# dpkg-query prints an error and fails for a package it has never heard of; that just means
# "not installed", hence 2>/dev/null and || true.
missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]} > 0)); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "immap-lab: installing missing Debian packages: ${missing[*]}" >&2
    apt-get update >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
  else
    # Without root we must not guess at sudo: say exactly what to run and stop.
    {
      echo "immap-lab needs these Debian packages; install them with:"
      echo "sudo apt-get install -y ${missing[*]}"
    } >&2
    exit 1
  fi
fi

((packages_only)) && exit 0

# The compiler cache (used when ccache is installed; see CMakeLists.txt): for root, in the same
# place as CI's (.ci/run), outside the checkout, so that a developer's builds warm CI's and the
# fresh-machine chroot (scripts/fresh-debian-test.sh mounts it) shares it.
if [[ -z ${CCACHE_DIR:-} && $(id -u) -eq 0 ]]; then
  export CCACHE_DIR=/var/cache/immap-lab/ccache
fi

# Configure only when there is no cache yet or it was made by another generator; otherwise the
# build step below re-runs CMake by itself whenever a CMakeLists.txt changed. CMake refuses to
# switch generators in an existing build tree, so the old cache has to go first.
cached_generator=""
if [[ -f $BUILD/CMakeCache.txt ]]; then
  cached_generator=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$BUILD/CMakeCache.txt")
fi
if [[ $cached_generator != "$GENERATOR" ]]; then
  rm -rf "$BUILD/CMakeCache.txt" "$BUILD/CMakeFiles"
  cmake -S "$ROOT" -B "$BUILD" -G "$GENERATOR" -DCMAKE_BUILD_TYPE=Release >&2
fi

cmake --build "$BUILD" --parallel "$(nproc)" >&2
