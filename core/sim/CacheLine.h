#pragma once
// One cache line's coherence state as the simulator keeps it: enough of MESI to price a touch.
// The CPUs holding the line are its writer and up to kFew others kept in the line itself (most
// lines: sets of at most three), or, past that, a bit set in the line's CacheModel slot. A
// write leaves only the writer, which invalidates every other copy at once. Kept inline and
// small (16 bytes, beside the rb node's fields in SimVma's first host cache line) because the
// bit set is elsewhere in the host's memory: reading it cost a host cache miss on most touches.

#include <cstdint>

namespace immap::sim {

struct CacheLine {
    static constexpr std::uint32_t kNoSlot = 0xffffffffu;
    static constexpr std::uint8_t kFew = 2;
    static constexpr std::uint8_t kSpilled = 0xff;      // `count`: the set is in the slot's bits
    static constexpr std::int32_t kMaxFewCpu = 0xfffe;  // CPUs kept in `few` (16 bits)
    // The line's key in CacheModel (its L1 set, and its bit set once spilled); kept when the
    // line is reused for a new VMA, so that a run needs as many slots as live lines.
    std::uint32_t slot = kNoSlot;
    // CPU (position in the topology's PU order) that wrote it last, or that first read it
    // while nobody held it (it had it exclusive); -1: only in memory, nobody holds it.
    std::int32_t writer = -1;
    std::uint16_t few[kFew] = {};  // holders besides the writer, while count <= kFew
    std::uint8_t count = 0;        // holders in few, or kSpilled
    bool shared = false;           // read by a CPU other than the writer since the last write

    // The line of a new VM area in a reused struct: in memory only, nobody holds it.
    void reset() {
        writer = -1;
        count = 0;
        shared = false;
    }
};
static_assert(sizeof(CacheLine) == 16, "SimVma keeps it in the rb node's host cache line");

}  // namespace immap::sim
