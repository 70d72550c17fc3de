#pragma once
// One cache line's coherence state as the simulator keeps it: enough of MESI to price a touch.
// Which CPUs hold the line is a set kept in the line itself while it has at most kFew members
// (most lines: a writer and one or two readers), and past that as a bit set in the line's
// CacheModel slot. A write leaves only the writer, which invalidates every other copy at once.
// Kept inline because the bit set is elsewhere in the host's memory: reading it cost a host
// cache miss on most touches.

#include <cstdint>

namespace immap::sim {

struct CacheLine {
    static constexpr std::uint32_t kNoSlot = 0xffffffffu;
    static constexpr std::uint8_t kFew = 3;
    static constexpr std::uint8_t kSpilled = 0xff;  // `count`: the set is in the slot's bits
    // The line's key in CacheModel (its L1 set, and its bit set once spilled); kept when the
    // line is reused for a new VMA, so that a run needs as many slots as live lines.
    std::uint32_t slot = kNoSlot;
    // CPU (position in the topology's PU order) that wrote it last, or that first read it
    // while nobody held it (it had it exclusive); -1: only in memory.
    std::int32_t writer = -1;
    std::int32_t few[kFew] = {};  // the holders, while count <= kFew
    std::uint8_t count = 0;       // holders in few, or kSpilled
    bool shared = false;          // read by a CPU other than the writer since the last write

    // The line of a new VM area in a reused struct: in memory only, nobody holds it.
    void reset() {
        count = 0;
        shared = false;
        writer = -1;
    }
};

}  // namespace immap::sim
