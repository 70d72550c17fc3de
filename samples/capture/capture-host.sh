#!/bin/sh
# capture-host.sh OUT[.tar.gz]: snapshot every readable process's maps, numa_maps, status and
# stat, plus the machine's topology (lstopo XML), laid out like /proc for immap-lab:
#   OUT/PID/{maps,numa_maps,status,stat}  OUT/topology.xml
# With a name ending in .tar.gz the snapshot is packed into that archive instead.
# Run as root to see every process; otherwise only your own are readable (others are skipped).
# Open it with: immap snapshot stats snapshot:OUT   (or in the app: File > Open).
set -eu
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR | OUT.tar.gz" >&2; exit 2; }
target=$1
case $target in
  *.tar.gz|*.tgz) dir=$(mktemp -d); pack=1 ;;
  *) dir=$target; pack=0; mkdir -p "$dir" ;;
esac
taken=0 skipped=0
for d in /proc/[0-9]*; do
  pid=${d#/proc/}
  # Kernel threads have an empty maps file; vanished or unreadable processes fail the read.
  # /proc files report size 0, so test what was read, not the file.
  if [ -r "$d/maps" ] && cat "$d/maps" > "$dir/.maps.$$" 2>/dev/null \
     && [ -s "$dir/.maps.$$" ]; then
    mkdir -p "$dir/$pid"
    mv "$dir/.maps.$$" "$dir/$pid/maps"
    for f in numa_maps status stat; do
      cat "$d/$f" > "$dir/$pid/$f" 2>/dev/null || rm -f "$dir/$pid/$f"
    done
    taken=$((taken + 1))
  else
    rm -f "$dir/.maps.$$"
    skipped=$((skipped + 1))
  fi
done
if command -v lstopo-no-graphics >/dev/null 2>&1; then
  lstopo-no-graphics --of xml > "$dir/topology.xml"
else
  echo "capture-host.sh: lstopo-no-graphics not found (Debian: apt-get install hwloc); no topology.xml" >&2
fi
if [ "$pack" = 1 ]; then
  tar -czf "$target" -C "$dir" .
  rm -rf "$dir"
fi
echo "captured $taken processes into $target ($skipped skipped: kernel threads, vanished or unreadable)"
