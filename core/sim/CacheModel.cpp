#include "sim/CacheModel.h"

#include <algorithm>
#include <utility>

namespace immap::sim {

CacheModel::CacheModel(std::vector<int> nodeOfCpu, const std::vector<std::vector<double>>* cost,
                       double hitNs, double writeFraction, double l1HitNs, double l1Lines,
                       double l1Ways)
    : node_(std::move(nodeOfCpu)),
      cost_(cost),
      hitNs_(hitNs),
      writeFraction_(writeFraction),
      l1HitNs_(l1HitNs),
      l1_(node_.size(), L1Cache(static_cast<std::uint32_t>(std::clamp(l1Lines, 1.0, 1e6)),
                                static_cast<std::uint32_t>(std::clamp(l1Ways, 1.0, 255.0)))),
      words_(std::max<std::size_t>(1, (node_.size() + 63) / 64)) {}

void CacheModel::addHolder(CacheLine& line, int cpu) {
    if (line.writer == cpu) return;
    if (line.count < CacheLine::kFew && cpu <= CacheLine::kMaxFewCpu) {
        line.few[line.count++] = static_cast<std::uint16_t>(cpu);
        return;
    }
    const std::size_t at = std::size_t{line.slot} * words_;
    if (bits_.size() < at + words_) bits_.resize(at + words_);
    std::uint64_t* h = &bits_[at];
    if (line.count != CacheLine::kSpilled) {  // more than fit: the whole set moves to the slot
        std::fill_n(h, words_, 0);
        h[word(line.writer)] |= bit(line.writer);
        for (std::uint8_t i = 0; i < line.count; ++i)
            h[word(line.few[i])] |= bit(line.few[i]);
        line.count = CacheLine::kSpilled;
    }
    h[word(cpu)] |= bit(cpu);
}

void CacheModel::own(CacheLine& line, int cpu) {
    giveSlot(line);
    line.writer = cpu;
    line.count = 0;
    line.shared = false;
}

}  // namespace immap::sim
