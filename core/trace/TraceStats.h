#pragma once
// `immap trace stats`: what a trace holds, per file: tree inserts and removes, lock holds
// (acquisitions), and how many VMAs are left in its trees at the end; per exec too.

#include <cstdint>
#include <string>
#include <vector>

#include "trace/ExecRate.h"

namespace immap::trace {

class TraceReader;

struct TraceFileStats {
    std::string path;
    std::uint64_t inserts = 0;
    std::uint64_t removes = 0;
    std::uint64_t lockHolds = 0;
    std::uint64_t finalVmas = 0;
};

struct TraceStats {
    std::uint64_t events = 0;
    std::uint64_t execs = 0;  // exec begin events
    ExecRate rate;            // over the trace's first to last event
    std::uint64_t inferredEvents = 0;
    std::vector<TraceFileStats> files;
    std::string error;  // the reader's complaint if the trace stopped early ("" if clean)

    // Reads the rest of the trace. Throws TraceError when the events contradict each other.
    static TraceStats of(TraceReader& reader);
    // {"events", "execs", "files": [{"path", "inserts", "removes", "lock_holds",
    //  "per_exec": {...}, "final_vmas"}], "inferred_events"} (+ "error" when cut short).
    std::string toJson() const;
};

}  // namespace immap::trace
