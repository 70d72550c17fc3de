#include "sim/L1Cache.h"

#include <algorithm>
#include <bit>

namespace immap::sim {

L1Cache::L1Cache(std::uint32_t lines, std::uint32_t ways)
    : ways_(std::clamp<std::uint32_t>(ways, 1, 255)),
      sets_(std::max<std::uint32_t>(1, lines / ways_)) {
    if ((sets_ & (sets_ - 1)) == 0) shift_ = std::countr_zero(sets_);
}

bool L1Cache::touchSet(std::uint32_t key) {
    if (newest_.empty()) {
        const Way empty{kEmpty, 0u - ways_};
        newest_.assign(sets_, empty);
        constexpr std::size_t kPerLine = 64 / sizeof(Way);
        way_.assign(static_cast<std::size_t>(sets_) * ways_ + kPerLine, empty);
        base_ =
            (kPerLine - (reinterpret_cast<std::uintptr_t>(way_.data()) / sizeof(Way)) % kPerLine) %
            kPerLine;
    }
    const std::uint32_t s = setOf(key);
    // The older ways are read on a fifth of the touches, each a host cache miss (384 CPUs'
    // sets are 1.5 MB): asked for now, that miss overlaps the newest way's.
    __builtin_prefetch(older(s) + 1);
    Way& top = newest_[s];
    const auto now = static_cast<std::uint32_t>(streamedInto(s, streamed_));
    // The way at rank i has i newer tree lines and the streamed lines since its touch above it;
    // ranks and ages both grow down the set, so the first way out of it ends the search, and a
    // way once out stays out. The newest way out: the whole set is out (the unlocked work
    // emptied it), and the line takes its place without reading the older ways.
    if (static_cast<std::uint32_t>(now - top.seen) >= ways_) {
        top = {key, now};
        return false;
    }
    if (top.key == key) {  // a re-read of the set's newest line
        top.seen = now;
        return true;
    }
    Way* w = older(s);
    std::uint32_t at = 1;
    bool hit = false;
    for (; at < ways_ && std::uint64_t{at} + static_cast<std::uint32_t>(now - w[at].seen) < ways_;
         ++at)
        if (w[at].key == key) {
            hit = true;
            break;
        }
    // A hit leaves rank `at`; a miss takes the first way out (or the oldest): the ways above
    // move down one, the newest becomes rank 1, and the line the newest.
    const std::uint32_t last = hit ? at : std::min(at, ways_ - 1);
    for (std::uint32_t i = last; i > 1; --i)
        w[i] = w[i - 1];
    if (last >= 1) w[1] = top;
    top = {key, now};
    return hit;
}

}  // namespace immap::sim
