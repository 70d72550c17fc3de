#include "sim/CacheModel.h"

#include <utility>

namespace immap::sim {

CacheModel::CacheModel(std::vector<int> nodeOfCpu, const std::vector<std::vector<double>>* cost,
                       double hitNs, double writeFraction)
    : node_(std::move(nodeOfCpu)),
      cost_(cost),
      hitNs_(hitNs),
      writeFraction_(writeFraction),
      table_(node_.size() * kLinesPerCpu),
      recent_(node_.size() * kSets) {}

bool CacheModel::holds(const CacheLine& line, int cpu) const {
    const int w = find(line.id, cpu);
    return w >= 0 &&
           table_[2 * set(line.id, cpu) + static_cast<std::size_t>(w)].version == line.version;
}

void CacheModel::fill(const CacheLine& line, int cpu) {
    const std::size_t s = set(line.id, cpu);
    int w = find(line.id, cpu);
    if (w < 0) w = recent_[s] ^ 1;  // the least recently used way
    table_[2 * s + static_cast<std::size_t>(w)] = {line.id, line.version};
    recent_[s] = static_cast<std::uint8_t>(w);
}

void CacheModel::own(CacheLine& line, int cpu) {
    ++line.version;
    if (line.version == 0) line.version = 1;  // 0 marks an empty table entry
    line.writer = cpu;
    line.shared = false;
    fill(line, cpu);
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
        recent_[set(line.id, cpu)] = static_cast<std::uint8_t>(find(line.id, cpu));
        return hitNs_;
    }
    const double ns = fetch(line, cpu, home);
    // A line nobody owned comes in exclusive (MESI's E): a write by this CPU is then silent.
    if (line.writer < 0)
        line.writer = cpu;
    else if (line.writer != cpu)
        line.shared = true;
    fill(line, cpu);
    return ns;
}

double CacheModel::write(CacheLine& line, int cpu, int home) {
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
    return ns;
}

}  // namespace immap::sim
