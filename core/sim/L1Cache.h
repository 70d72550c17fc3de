#pragma once
// One CPU's L1 data cache as a set-associative LRU cache of tree lines: a line is still in it
// when fewer than `ways` distinct lines of its set were touched since its own last touch, as
// in a real L1 (Zen 4: 32 KiB, 64 sets of 8 ways; Golden Cove: 48 KiB, 64 sets of 12).
// Distinct lines, not touches: a path re-read many times by one hold costs one way, not one
// per read. The unlocked work between holds streams distinct lines through the sets in turn
// (round robin, one line per set), counted rather than stored: a tree line's set has seen
// `arrivals(then, now)` of them since it was touched, so residency is exact LRU without a
// slot per streamed line. Keys are the simulator's line slots (deterministic, not addresses);
// a key's set is a hash of it, as a physical address's set bits are to software.
//
// Each set's newest way is kept apart, 8 bytes a set (512 B for 64 sets): most touches are
// answered there (a re-read of the set's newest line, or a set the unlocked work has emptied),
// so the simulator's 384 caches mostly stay in the host's L2; the older ways, 8 bytes each, are
// read only for the rest. Arrival counts are 32-bit and compared modulo 2^32, exact while a set
// sees fewer than 2^32 streamed lines between two touches of a line (at the largest
// work_lines_per_us, 10,000 lines per µs into one set, 0.4 simulated seconds; the default
// spreads 10 per µs over 64 sets).

#include <cstdint>
#include <vector>

namespace immap::sim {

class L1Cache {
public:
    // lines: the cache's capacity in lines; ways: lines per set (sets = lines / ways, >= 1).
    L1Cache(std::uint32_t lines, std::uint32_t ways);

    // Touches `key`: returns whether it was in the cache; it is now the newest of its set.
    bool touch(std::uint32_t key) {
        // The same key again with nothing streamed since: a hit that changes nothing (a write
        // after a read of the same node), answered without the set.
        if (key == lastKey_ && streamed_ == lastStreamed_) return true;
        lastKey_ = key;
        lastStreamed_ = streamed_;
        return touchSet(key);
    }
    // `lines` distinct lines of other work pass through the cache (one per set, in turn).
    void stream(std::uint64_t lines) { streamed_ += lines; }

    std::uint32_t sets() const { return sets_; }
    std::uint32_t ways() const { return ways_; }
    std::uint32_t setOf(std::uint32_t key) const {
        // Fibonacci hashing spreads consecutive slots over the sets.
        const std::uint64_t hash = (std::uint64_t{key} + 1) * 0x9e3779b97f4a7c15ull;
        return static_cast<std::uint32_t>(((hash >> 32) * sets_) >> 32);  // no division
    }

private:
    // Streamed lines that landed in set `set` among the first `total` streamed.
    std::uint64_t streamedInto(std::uint32_t set, std::uint64_t total) const {
        const std::uint64_t rounds = shift_ >= 0 ? total >> shift_ : total / sets_;
        return rounds + (total - rounds * sets_ > set ? 1 : 0);
    }
    bool touchSet(std::uint32_t key);

    static constexpr std::uint32_t kEmpty = 0xffffffffu;  // CacheLine::kNoSlot: never a key
    struct Way {
        std::uint32_t key;
        std::uint32_t seen;  // streamed lines its set had seen when it was touched last
    };
    // The set's older ways: ranks 1 to ways_ - 1 are [1] to [ways_ - 1] ([0] is unused).
    Way* older(std::uint32_t s) {
        return way_.data() + base_ + static_cast<std::size_t>(s) * ways_;
    }

    std::uint32_t ways_;
    std::uint32_t sets_;
    int shift_ = -1;  // log2(sets_) when a power of two: no division per touch
    std::uint64_t streamed_ = 0;
    // The last touch (touch's shortcut).
    std::uint32_t lastKey_ = kEmpty;
    std::uint64_t lastStreamed_ = 0;
    // Allocated on first touch. An empty way is dead: its key matches nothing and its age is
    // at least ways_.
    std::vector<Way> newest_;  // rank 0 of each set
    // sets_ x ways_ from way_[base_] (64-byte aligned): each set's older ways, newest first.
    std::vector<Way> way_;
    std::size_t base_ = 0;
};

}  // namespace immap::sim
