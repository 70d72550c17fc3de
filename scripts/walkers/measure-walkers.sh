#!/bin/bash
# How often reclaim walks libc.so.6's i_mmap tree on this host while it execs under memory
# pressure: the source of the simulator's default whole-file walker rate (docs/walkers.md).
#
#   sudo scripts/walkers/measure-walkers.sh [--fill-gb G] [--stream-gb S] [--seconds T]
#                                           [--copies N] [--immap PATH]
#
# Fills all but a few GiB of RAM with tmpfs pages (not reclaimable: no swap), re-reads a file
# of S GiB in a loop (page-cache churn: a backup, a log scan, a build), runs N copies of
# immap's execl loop, and records reclaim's file-LRU scanning once a second with bpftrace
# (reclaim-scan.bt), the file LRU sizes (/proc/meminfo) and libc's mapped folios
# (mapped-folios.py). Prints the means over the run in one line. Needs root, bpftrace
# and tracefs; undoes everything it set up on exit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fill_gb=0 stream_gb=8 seconds=30 copies=2 immap="$here/../../build/app/cli/immap"
while [ $# -gt 0 ]; do
    case "$1" in
    --fill-gb) fill_gb=$2; shift 2 ;;
    --stream-gb) stream_gb=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --copies) copies=$2; shift 2 ;;
    --immap) immap=$2; shift 2 ;;
    *) echo "measure-walkers.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" = 0 ] || { echo "measure-walkers.sh: run as root (bpftrace, /proc/kpageflags)" >&2; exit 2; }
command -v bpftrace >/dev/null || { echo "measure-walkers.sh: install bpftrace (apt-get install bpftrace)" >&2; exit 2; }
[ -x "$immap" ] || { echo "measure-walkers.sh: $immap not built (scripts/setup.sh)" >&2; exit 2; }
libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
work=$(mktemp -d /var/tmp/immap-walkers.XXXXXX)
fill=$work/fill
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    mountpoint -q "$fill" && umount "$fill"
    rm -rf "$work"
}
trap cleanup EXIT
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing

echo "# $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)," \
     "fill ${fill_gb} GiB, stream ${stream_gb} GiB, ${copies} execl copies, ${seconds} s"
if [ "$fill_gb" != 0 ]; then
    mkdir "$fill" && mount -t tmpfs -o "size=${fill_gb}g" immap-fill "$fill"
    head -c "${fill_gb}G" /dev/zero >"$fill/x"
fi
dd if=/dev/zero of="$work/stream" bs=1M count=$((stream_gb * 1024)) status=none
(while :; do cat "$work/stream" >/dev/null; done) &
pids+=($!)
"$immap" bench execl --copies "$copies" --seconds $((seconds + 10)) --repeat 1 >/dev/null &
pids+=($!)
sleep 3
: >"$work/scan"
bpftrace "$here/reclaim-scan.bt" "$(stat -c %i "$libc")" 2>/dev/null >>"$work/scan" &
pids+=($!)
while [ "$(grep -c '^tick' "$work/scan" || true)" -lt "$seconds" ]; do
    { awk '/^Active\(file\)/ {a=$2} /^Inactive\(file\)/ {i=$2} END {printf "lru %d %d ", a/4, i/4}' /proc/meminfo
      python3 "$here/mapped-folios.py" "$libc"; } >>"$work/lru"
    sleep 0.5
done
kill "${pids[2]}"; sleep 1
# Per second: the file pages reclaim scanned on each list, the list's size, libc's mapped
# folios on it, libc folios evicted and read back, execs. A scan takes pages from the list's
# tail and puts survivors back at its head, so each second it passes over scanned/size of the
# list, and walks that share of libc's mapped folios on it (each folio_referenced() call on a
# mapped folio is one walk of libc's tree); an evicted mapped folio costs one more walk
# (try_to_unmap), counted separately.
awk '
    FNR == NR { if ($1 == "lru") { n++; sa += $2; si += $3; sla += $10; sli += $12 } next }
    $1 == "tick" && t < '"$seconds"' { t++; at += $2; is += $4; ev += $6; rd += $7; ex += $8 }
    END { if (!t || !n) exit 1
          a = sa / n; i = si / n; la = sla / n; li = sli / n
          w = (a > 0 ? at / t / a * la : 0) + (i > 0 ? is / t / i * li : 0)
          printf "over %d s: file pages scanned %.0f/s of %.0f active, %.0f/s of %.0f inactive;", t, at / t, a, is / t, i
          printf " libc mapped folios %.0f active, %.0f inactive; libc folios evicted %.2f/s, read %.2f/s;", la, li, ev / t, rd / t
          printf " execs %.0f/s; libc walks %.2f/s\n", ex / t, w }
' "$work/lru" "$work/scan"
