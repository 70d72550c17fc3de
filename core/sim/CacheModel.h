#pragma once
// Prices a touch of a cache line by where the line is, not by where its memory is
// (docs/simulator.md, "Cache state"). Each CPU has a private table of the lines it holds and
// the version of each it saw; a line is a hit for a CPU whose table has its current version.
// Otherwise the read is a transfer from the CPU that wrote it last, if that CPU still holds it,
// or a read from memory on the line's home node; either is priced by the SLIT distance
// between the two nodes (CostParams::memoryNs). A write by a CPU that is the line's only
// holder is free beyond the read before it; otherwise it is an ownership upgrade that
// invalidates every other holder, a fraction of a transfer.
//
// Granularity is the CPU (a hardware thread's private L1/L2; SMT siblings do not share). A
// table has kLinesPerCpu entries in 2-way sets indexed by line id, least recently used out:
// the tree's hot lines survive the stream of new VMAs. Nothing else evicts: the exec's other
// work between holds is not modelled as touching these tables.

#include <cstdint>
#include <vector>

#include "sim/CacheLine.h"

namespace immap::sim {

class CacheModel {
public:
    // 4,096 lines of 64 bytes: 256 KiB, the i_mmap data's share of a private L2 of 1-2 MiB.
    static constexpr std::uint32_t kLinesPerCpu = 4096;

    struct Counters {
        std::uint64_t hits = 0;
        std::uint64_t transfers = 0;  // from another CPU's cache
        std::uint64_t memory = 0;     // from memory on the line's home node
        std::uint64_t upgrades = 0;   // writes to a held line that invalidated other holders
    };

    // cost[a][b]: one transfer between nodes a and b; nodeOfCpu: each CPU position's node.
    CacheModel(std::vector<int> nodeOfCpu, const std::vector<std::vector<double>>* cost,
               double hitNs, double writeFraction);

    // The price in ns of CPU `cpu` reading `line`, homed on node `home`; it then holds it.
    double read(CacheLine& line, int cpu, int home);
    // The price of CPU `cpu` writing `line`; it then holds the line alone, with a new version.
    double write(CacheLine& line, int cpu, int home);
    // Whether `cpu` holds `line`'s current version.
    bool holds(const CacheLine& line, int cpu) const;
    // `cpu` has just written `line` outside any priced path (a new VMA it initialised).
    void own(CacheLine& line, int cpu);

    const Counters& counters() const { return counters_; }

private:
    struct Entry {
        std::uint32_t id = 0;
        std::uint32_t version = 0;
    };
    static constexpr std::uint32_t kSets = kLinesPerCpu / 2;
    std::size_t set(std::uint32_t id, int cpu) const {
        return static_cast<std::size_t>(cpu) * kSets + (id & (kSets - 1));
    }
    // The way holding `id` in its set, or -1.
    int find(std::uint32_t id, int cpu) const {
        const Entry* w = &table_[2 * set(id, cpu)];
        return w[0].id == id ? 0 : w[1].id == id ? 1 : -1;
    }
    // Records that `cpu` now holds `line`'s current version, evicting the set's older way.
    void fill(const CacheLine& line, int cpu);
    // A miss: from the last writer's cache if it still holds the line, else from memory.
    double fetch(const CacheLine& line, int cpu, int home);
    double between(int a, int b) const {
        return (*cost_)[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
    }

    std::vector<int> node_;
    const std::vector<std::vector<double>>* cost_;
    double hitNs_;
    double writeFraction_;
    std::vector<Entry> table_;          // 2 ways per set
    std::vector<std::uint8_t> recent_;  // per set: the way used last
    Counters counters_;
};

}  // namespace immap::sim
