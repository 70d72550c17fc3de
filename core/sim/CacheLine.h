#pragma once
// One cache line's coherence state as the simulator keeps it: enough of MESI to price a touch.
// Which CPUs hold the line is a bit set kept by CacheModel in the line's slot: a write leaves
// only the writer's bit, which invalidates every other copy at once.

#include <cstdint>

namespace immap::sim {

struct CacheLine {
    static constexpr std::uint32_t kNoSlot = 0xffffffffu;
    // The line's holder set in CacheModel; kept when the line is reused for a new VMA (the
    // set is cleared on its next touch), so that a run needs as many slots as live lines.
    std::uint32_t slot = kNoSlot;
    bool stale = false;   // reused: the slot's holder set belongs to the previous VMA
    bool shared = false;  // read by a CPU other than the writer since the last write
    // CPU (position in the topology's PU order) that wrote it last, or that first read it
    // while nobody held it (it had it exclusive); -1: only in memory.
    std::int32_t writer = -1;

    // The line of a new VM area in a reused struct: in memory only, nobody holds it.
    void reset() {
        stale = slot != kNoSlot;
        shared = false;
        writer = -1;
    }
};

}  // namespace immap::sim
