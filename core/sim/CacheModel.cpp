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
    giveSlot(line);
    if (line.count < CacheLine::kFew) {
        line.few[line.count++] = cpu;
        return;
    }
    const std::size_t at = std::size_t{line.slot} * words_;
    if (bits_.size() < at + words_) bits_.resize(at + words_);
    std::uint64_t* h = &bits_[at];
    if (line.count != CacheLine::kSpilled) {  // one more than fits: the set moves to the slot
        std::fill_n(h, words_, 0);
        for (const std::int32_t c : line.few)
            h[word(c)] |= bit(c);
        line.count = CacheLine::kSpilled;
    }
    h[word(cpu)] |= bit(cpu);
}

bool CacheModel::holds(const CacheLine& line, int cpu) const {
    // Only a write elsewhere takes a line from a CPU, and it makes that CPU the writer: the
    // writer still holds it.
    if (line.writer == cpu && line.count != 0) return true;
    if (line.count != CacheLine::kSpilled) {
        for (std::uint8_t i = 0; i < line.count; ++i)
            if (line.few[i] == cpu) return true;
        return false;
    }
    return (bits_[line.slot * words_ + word(cpu)] & bit(cpu)) != 0;
}

void CacheModel::own(CacheLine& line, int cpu) {
    giveSlot(line);
    line.few[0] = cpu;
    line.count = 1;
    line.writer = cpu;
    line.shared = false;
}

double CacheModel::fetch(const CacheLine& line, int cpu, int home) {
    const int me = node_[static_cast<std::size_t>(cpu)];
    if (line.writer >= 0 && line.writer != cpu && holds(line, line.writer)) {
        // The writer's cache has it (modified, or shared since): a cache-to-cache transfer.
        ++counters_.transfers;
        return between(node_[static_cast<std::size_t>(line.writer)], me);
    }
    ++counters_.memory;
    return between(home, me);
}

double CacheModel::read(CacheLine& line, int cpu, int home) {
    if (holds(line, cpu)) {
        ++counters_.hits;
        const bool inL1 = touch(line, cpu);
        if (inL1) ++counters_.l1Hits;
        return inL1 ? l1HitNs_ : hitNs_;
    }
    const double ns = fetch(line, cpu, home);
    // A line nobody owned comes in exclusive (MESI's E): a write by this CPU is then silent.
    if (line.writer < 0)
        line.writer = cpu;
    else if (line.writer != cpu)
        line.shared = true;
    addHolder(line, cpu);
    touch(line, cpu);
    return ns;
}

double CacheModel::write(CacheLine& line, int cpu, int home) {
    // The line's only holder writes it again (its last writer, nobody read it since): nothing
    // changes but the L1's order.
    if (line.writer == cpu && !line.shared && line.count != 0) {  // a writer has a slot
        touch(line, cpu);
        return 0;
    }
    double ns = 0;
    if (!holds(line, cpu)) {
        // A write to a line not held: one read-for-ownership brings it and invalidates the rest.
        ns = fetch(line, cpu, home);
    } else if (line.shared || line.writer != cpu) {
        // Others may hold it: the read-for-ownership invalidates them. Priced from the last
        // writer's node (where the line was last exclusive), or its home if never written.
        ++counters_.upgrades;
        const int from = line.writer >= 0 ? node_[static_cast<std::size_t>(line.writer)] : home;
        ns = writeFraction_ * between(from, node_[static_cast<std::size_t>(cpu)]);
    }
    own(line, cpu);
    touch(line, cpu);
    return ns;
}

}  // namespace immap::sim
