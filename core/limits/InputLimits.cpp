#include "limits/InputLimits.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace immap::limits {

const std::vector<InputLimits::Range>& InputLimits::table() {
    // The upper bounds keep every product the code forms (copies x events, files x trees)
    // inside 64-bit integers and the simulated clock (int64 ns); memory is checked separately
    // against the machine (MemoryBudget), since it depends on the combination.
    static const std::vector<Range> t = {
        {"copies", "copies", 1, 100'000, "execl copies simulated (simulate, sweep, the app)"},
        {"duration_ms", "ms", 0.001, 1e7,
         "simulated time measured after the warm-up; also at least one exec per copy"},
        {"walkers_per_s", "per s", 0, 1e6,
         "whole-file walkers per second: each arrival is an event, so a run's walks are at "
         "most this x (warmup_max_ms + window_max_ms), 1e7 at the defaults"},
        {"processes", "processes", 1, 100'000'000,
         "processes of a synthetic host or of `tree libc` (also checked against memory)"},
        {"cycles", "cycles", 0, 1e10,
         "exit+exec cycles of `tree libc` (also checked against memory)"},
        {"nodes", "nodes", 1, 4096, "NUMA nodes of a synthetic host"},
        {"recipe_weight", "share", 1e-6, 1e6,
         "a recipe work step's weight, when not 0 (a share of unlocked_ns_per_exec)"},
        {"trace_files", "files", 1, 65'536, "files a trace header lists"},
        {"trace_trees", "trees", 1, 1'048'576,
         "trees a trace replay builds: files x trees_per_file"},
        {"trace_locks", "locks", 1, 1'048'576, "locks a trace header lists"},
        {"trace_copy_cpus", "CPUs", 0, 1'000'000,
         "entries of a trace header's copy_cpus (one per copy)"},
        {"cpu", "OS index", 0, 1'048'575, "a CPU number in a trace header"},
        // A sweep's grid, as --policies, --copies, a scenario or a sweep part gives it: each
        // point costs a run, so a longer list is a mistake, and a merge sizes its grid by them.
        {"sweep_policies", "entries", 1, 256, "policies in a sweep's grid"},
        {"sweep_copies", "entries", 1, 1024, "copy counts in a sweep's grid"},
        {"sweep_points", "points", 1, 100'000,
         "points in a sweep's grid: walker rates x policies x copy counts"},
        {"bench_copies", "copies", 1, 4096, "concurrent copies of a real `bench execl` run"},
    };
    return t;
}

const InputLimits::Range& InputLimits::range(std::string_view name) {
    for (const Range& r : table())
        if (name == r.name) return r;
    throw std::out_of_range("InputLimits: no range named " + std::string(name));
}

std::string InputLimits::number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

bool InputLimits::check(std::string_view name, double value, std::string& error,
                        std::string_view label) {
    const Range& r = range(name);
    if (std::isfinite(value) && value >= r.min && value <= r.max) return true;
    error = std::string(label.empty() ? name : label) + " must be from " + number(r.min) + " to " +
            number(r.max) + " " + r.unit;
    return false;
}

}  // namespace immap::limits
