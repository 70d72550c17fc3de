#pragma once
// One cache line's coherence state as the simulator keeps it: enough of MESI to price a touch.
// Which CPUs still hold the line is not stored here but in each CPU's CacheModel table, as the
// line's version they last saw: a write bumps the version, which invalidates every other copy
// at once (a holder whose version is older misses).

#include <cstdint>

namespace immap::sim {

struct CacheLine {
    std::uint32_t id = 0;       // unique over a run: the key in the CPUs' tables
    std::uint32_t version = 1;  // bumped by every write (0 means "never seen" in a table)
    // CPU (position in the topology's PU order) that wrote it last, or that first read it
    // while nobody held it (it had it exclusive); -1: only in memory.
    std::int32_t writer = -1;
    bool shared = false;  // read by a CPU other than the writer since the last write
};

}  // namespace immap::sim
