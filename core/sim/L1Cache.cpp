#include "sim/L1Cache.h"

#include <algorithm>
#include <bit>

namespace immap::sim {

L1Cache::L1Cache(std::uint32_t lines, std::uint32_t ways)
    : ways_(std::clamp<std::uint32_t>(ways, 1, 255)),
      sets_(std::max<std::uint32_t>(1, lines / ways_)) {
    if ((sets_ & (sets_ - 1)) == 0) shift_ = std::countr_zero(sets_);
}

std::uint32_t L1Cache::setOf(std::uint32_t key) const {
    // Fibonacci hashing spreads consecutive slots over the sets.
    const std::uint64_t h = (std::uint64_t{key} + 1) * 0x9e3779b97f4a7c15ull;
    return static_cast<std::uint32_t>(((h >> 32) * sets_) >> 32);  // no division
}

bool L1Cache::touchSet(std::uint32_t key) {
    if (way_.empty()) {
        const std::size_t n = static_cast<std::size_t>(sets_) * ways_;
        constexpr std::size_t kPerLine = 64 / sizeof(Way);
        way_.assign(n + kPerLine, Way{kEmpty, 0u - ways_});
        base_ =
            (kPerLine - (reinterpret_cast<std::uintptr_t>(way_.data()) / sizeof(Way)) % kPerLine) %
            kPerLine;
    }
    const std::uint32_t s = setOf(key);
    Way* w = set(s);
    const auto now = static_cast<std::uint32_t>(streamedInto(s, streamed_));
    // The newest way of its set, and alive: a re-read of a path's line (the common case).
    if (w[0].key == key && static_cast<std::uint32_t>(now - w[0].seen) < ways_) {
        w[0].seen = now;
        return true;
    }
    // The way at rank i has i newer tree lines and the streamed lines since its touch above it;
    // ranks and arrivals both grow down the set, so the first way out of it ends the search,
    // and a way once out stays out.
    std::uint32_t at = 0;
    bool hit = false;
    for (; at < ways_ && std::uint64_t{at} + static_cast<std::uint32_t>(now - w[at].seen) < ways_;
         ++at)
        if (w[at].key == key) {
            hit = true;
            break;
        }
    // A hit moves its way to the top; a miss takes the oldest live way's place (or the first
    // dead one's) and pushes the newer ones down.
    for (std::uint32_t i = hit ? at : std::min(at, ways_ - 1); i > 0; --i)
        w[i] = w[i - 1];
    w[0] = {key, now};
    return hit;
}

}  // namespace immap::sim
