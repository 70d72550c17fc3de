#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, one after another, on its corpus; prints each
# target's executions and whether it found something. Run from the fuzz build directory:
#   ../tests/fuzz/run-all.sh corpus 90 [TARGET...]
set -uo pipefail
CORPUS=${1:?usage: run-all.sh CORPUS SECONDS [TARGET...]}
SECONDS_EACH=${2:?usage: run-all.sh CORPUS SECONDS [TARGET...]}
shift 2
targets=("$@")
((${#targets[@]})) || targets=(fuzz_maps fuzz_numa_maps fuzz_status fuzz_stat
    fuzz_snapshot_archive fuzz_opscript fuzz_source_spec fuzz_topology_spec fuzz_topology_xml
    fuzz_recipe fuzz_scenario
    fuzz_trace fuzz_bpftrace)
mkdir -p crashes logs
# hwloc 2.9's own XML-import leak (lsan.supp says which) is not ours to report.
export LSAN_OPTIONS="suppressions=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)/lsan.supp"
for t in "${targets[@]}"; do
    mkdir -p "$CORPUS/$t"
    nice -n 10 "tests/fuzz/$t" "$CORPUS/$t" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 \
        -timeout=10 -max_len=65536 -artifact_prefix="crashes/$t-" -print_final_stats=1 \
        >"logs/$t.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "logs/$t.log" | tail -1)
    echo "$t: exit $rc, ${runs:-?} executions, findings: $(ls crashes | grep -c "^$t-")"
done
