#pragma once
// The contention timeline as Chrome / Perfetto trace-event JSON (ui.perfetto.dev, or
// chrome://tracing): one track per CPU, named; each lock hold and each wait as a slice naming
// the lock; whole-file walks and exec iterations as slices; the kernel's own contention
// tracepoints (imported recordings) as slices naming the lock address. Written streaming.

#include <string>

namespace immap::trace {

class TraceReader;

struct PerfettoSummary {
    std::uint64_t slices = 0;
    std::uint64_t tracks = 0;
};

// Writes atomically to `outPath` (io::AtomicFile). Throws TraceError on a bad trace or write.
PerfettoSummary exportPerfetto(TraceReader& reader, const std::string& outPath);

// The replayed lock statistics as CSV: one line per lock.
void exportLockCsv(TraceReader& reader, const std::string& outPath);

}  // namespace immap::trace
