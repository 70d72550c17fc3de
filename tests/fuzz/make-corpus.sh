#!/usr/bin/env bash
# Assembles the seed corpora of the fuzz targets from samples/ (the host250 snapshot among them) and
# tests/data/bad, one directory per target: make-corpus.sh OUTDIR [IMMAP]
# IMMAP (default build/app/cli/immap, if built) records a small native trace as a trace seed;
# without it the trace target starts from the bad traces only.
set -euo pipefail

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${1:?usage: make-corpus.sh OUTDIR [IMMAP]}
IMMAP=${2:-$ROOT/build/app/cli/immap}
SNAP=$ROOT/samples/snapshots/host250
SNAP=$ROOT/samples/snapshots/host250
BAD=$ROOT/tests/data/bad
mkdir -p "$OUT"
OUT=$(cd -- "$OUT" && pwd)

seed() {  # seed TARGET FILE...: copies each file under a name unique in TARGET's corpus
    local dir=$OUT/$1
    shift
    mkdir -p "$dir"
    for f in "$@"; do
        [[ -f $f ]] && cp -- "$f" "$dir/$(echo "$f" | md5sum | cut -c1-12)-$(basename -- "$f")"
    done
    return 0
}

# /proc files: a dozen processes of each kind from the real capture (they repeat a lot).
pids=$(ls "$SNAP" | grep -E '^[0-9]+$' | head -12)
for p in $pids; do
    seed fuzz_maps "$SNAP/$p/maps"
    seed fuzz_numa_maps "$SNAP/$p/numa_maps"
    seed fuzz_status "$SNAP/$p/status"
    seed fuzz_stat "$SNAP/$p/stat"
    seed fuzz_source_spec "$SNAP/$p/maps"
done
if [[ -d $SNAP ]]; then
    p=$(ls "$SNAP" | grep -E '^[0-9]+$' | tail -1)
    seed fuzz_maps "$SNAP/$p/maps"
    seed fuzz_numa_maps "$SNAP/$p/numa_maps"
fi
seed fuzz_maps "$BAD"/maps-*
seed fuzz_numa_maps "$BAD"/numa_maps-*
seed fuzz_status "$BAD"/status-*
seed fuzz_stat "$BAD"/stat-*

# Archives: three processes and the topology, as .tar and .tar.gz, plus the bad ones.
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
small=$(ls "$SNAP" | grep -E '^[0-9]+$' | head -3)
(cd "$SNAP" && tar -cf "$tmp/small.tar" $small && tar -czf "$tmp/small.tar.gz" $small)
seed fuzz_snapshot_archive "$tmp/small.tar" "$tmp/small.tar.gz" "$BAD"/*.tar*

# Op scripts, synthetic specs, topologies, recipes.
seed fuzz_opscript "$ROOT"/samples/scripts/*.ops "$ROOT"/tests/data/itree-reference/*.ops \
    "$BAD"/ops-*
printf 'libc?processes=12&nodes=2&seed=7' >"$tmp/spec1"
printf 'libc?processes=3' >"$tmp/spec2"
printf 'libc' >"$tmp/spec3"
seed fuzz_source_spec "$tmp/spec1" "$tmp/spec2" "$tmp/spec3"
printf 'package:2 numa:6 core:2 pu:2;distances=10:12:32;note=x' >"$tmp/topo1"
printf 'numa:2 core:2 pu:1;distances=10,20,20,10' >"$tmp/topo2"
seed fuzz_topology_spec "$tmp/topo1" "$tmp/topo2" "$ROOT"/samples/topologies/host-2cpu.xml \
    "$BAD"/topology-*
seed fuzz_topology_xml "$ROOT"/samples/topologies/*.xml "$BAD"/topology-*
if [[ -x $IMMAP ]]; then  # hwloc's own export of a small synthetic machine with distances
    "$IMMAP" topology show --xml 'synthetic:package:2 numa:2 core:2 pu:2;distances=10:12:32' \
        >"$tmp/topo.xml" && seed fuzz_topology_xml "$tmp/topo.xml"
fi
seed fuzz_recipe "$ROOT"/samples/recipes/*.json "$BAD"/recipe-*
seed fuzz_scenario "$ROOT"/samples/workshops/*.json "$BAD"/scenario-*

# Traces: a short real-recording prefix for the importer; a small simulated run for the reader.
head -n 250 "$ROOT/samples/traces/trace-execl-2x500.bt.txt" >"$tmp/bt-head.txt"
seed fuzz_bpftrace "$tmp/bt-head.txt" "$BAD"/bt-*
if [[ -x $IMMAP ]]; then
    "$IMMAP" simulate --copies 2 --duration-ms 1 --trace "$tmp/sim.trace" >/dev/null
    head -n 400 "$tmp/sim.trace" >"$tmp/sim-head.trace"
    "$IMMAP" trace import "$tmp/bt-head.txt" -o "$tmp/import.trace" 2>/dev/null || true
    # A whole recording (with its end record) and its first 400 lines (cut, without one).
    seed fuzz_trace "$tmp/sim.trace" "$tmp/sim-head.trace" "$tmp/import.trace"
fi
seed fuzz_trace "$BAD"/trace-*
echo "corpora in $OUT:" && for d in "$OUT"/*/; do echo "  $(basename "$d"): $(ls "$d" | wc -l)"; done
