#pragma once
// Prices a touch of a cache line by where the line is, not by where its memory is
// (docs/simulator.md, "Cache state"). Each line keeps the set of CPUs holding it; a read by a
// holder is a hit. Otherwise the read is a transfer from the CPU that wrote it last, if that
// CPU still holds it, or a read from memory on the line's home node; either is priced by the
// SLIT distance between the two nodes (CostParams::memoryNs). A write by a CPU that is the
// line's only holder is free beyond the read before it; otherwise it is an ownership upgrade
// that invalidates every other holder, a fraction of a transfer.
//
// A hit costs `l1HitNs` when the line is still in the reading CPU's L1 data cache (L1Cache: a
// set-associative LRU of `l1Lines` lines in sets of `l1Ways`; a path re-read within an update,
// or the same descent one hold later), else `hitNs` (its L2).
//
// Granularity is the CPU (a hardware thread's private L1/L2; SMT siblings do not share). Only
// a write elsewhere takes a line from a CPU: capacity evictions are not modelled. A per-CPU
// 2-way LRU table of 4,096 lines, and one of 65,536, gave the same sweep within 0.3% on the
// 12-node sample (docs/simulator.md), so the i_mmap lines a CPU uses fit its L2; the exec's
// other work between holds streams through the L1 only (touchOthers). A line another CPU's
// write took away keeps its L1 way until it ages out (a real L1 frees it at once).

#include <cstdint>
#include <vector>

#include "sim/CacheLine.h"
#include "sim/L1Cache.h"

namespace immap::sim {

class CacheModel {
public:
    struct Counters {
        std::uint64_t hits = 0;  // all hits, l1Hits among them
        std::uint64_t l1Hits = 0;
        std::uint64_t transfers = 0;  // from another CPU's cache
        std::uint64_t memory = 0;     // from memory on the line's home node
        std::uint64_t upgrades = 0;   // writes to a held line that invalidated other holders
    };

    // cost[a][b]: one transfer between nodes a and b; nodeOfCpu: each CPU position's node.
    CacheModel(std::vector<int> nodeOfCpu, const std::vector<std::vector<double>>* cost,
               double hitNs, double writeFraction, double l1HitNs, double l1Lines, double l1Ways);

    // The price in ns of CPU `cpu` reading `line`, homed on node `home`; it then holds it.
    double read(CacheLine& line, int cpu, int home);
    // The price of CPU `cpu` writing `line`; it then holds the line alone.
    double write(CacheLine& line, int cpu, int home);
    // Whether `cpu` holds `line`.
    bool holds(const CacheLine& line, int cpu) const;
    // `cpu` has just written `line` outside any priced path (a new VMA it initialised).
    void own(CacheLine& line, int cpu);
    // `cpu` touched `lines` other lines (unlocked work): they push the tree's lines out of its L1.
    void touchOthers(int cpu, std::uint64_t lines) {
        l1_[static_cast<std::size_t>(cpu)].stream(lines);
    }

    const Counters& counters() const { return counters_; }
    // The NUMA node (logical) of CPU position `cpu`.
    int nodeOf(int cpu) const { return node_[static_cast<std::size_t>(cpu)]; }

private:
    // Gives `line` a slot (its L1 key) on its first holder.
    void giveSlot(CacheLine& line) {
        if (line.slot == CacheLine::kNoSlot) line.slot = slots_++;
    }
    // `cpu` joins the holders of `line` (which has a writer).
    void addHolder(CacheLine& line, int cpu);
    static std::uint64_t bit(int cpu) { return std::uint64_t{1} << (cpu & 63); }
    static std::size_t word(int cpu) { return static_cast<std::size_t>(cpu) >> 6; }
    // A miss: from the last writer's cache if it still holds the line, else from memory.
    double fetch(const CacheLine& line, int cpu, int home);
    double between(int a, int b) const {
        return (*cost_)[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
    }

    std::vector<int> node_;
    const std::vector<std::vector<double>>* cost_;
    // `cpu` touches `line` (which has a slot): was it in cpu's L1? It is now.
    bool touch(const CacheLine& line, int cpu) {
        return l1_[static_cast<std::size_t>(cpu)].touch(line.slot);
    }

    double hitNs_;
    double writeFraction_;
    double l1HitNs_;
    std::vector<L1Cache> l1_;  // per CPU
    std::uint32_t slots_ = 0;
    std::size_t words_;                // 64-bit words per holder set
    std::vector<std::uint64_t> bits_;  // spilled holder sets, by slot (grown as they spill)
    Counters counters_;
};

// The touch path, inline: the simulator calls it some 400 million times in sim_sweep_bench.

inline bool CacheModel::holds(const CacheLine& line, int cpu) const {
    // Only a write elsewhere takes a line from a CPU, and it makes that CPU the writer: the
    // writer still holds it, and a line without a writer has no holders.
    if (line.writer == cpu) return cpu >= 0;
    if (line.writer < 0) return false;
    if (line.count != CacheLine::kSpilled) {
        for (std::uint8_t i = 0; i < line.count; ++i)
            if (line.few[i] == cpu) return true;
        return false;
    }
    return (bits_[line.slot * words_ + word(cpu)] & bit(cpu)) != 0;
}

inline double CacheModel::fetch(const CacheLine& line, int cpu, int home) {
    const int me = node_[static_cast<std::size_t>(cpu)];
    if (line.writer >= 0 && line.writer != cpu && holds(line, line.writer)) {
        // The writer's cache has it (modified, or shared since): a cache-to-cache transfer.
        ++counters_.transfers;
        return between(node_[static_cast<std::size_t>(line.writer)], me);
    }
    ++counters_.memory;
    return between(home, me);
}

inline double CacheModel::read(CacheLine& line, int cpu, int home) {
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
    giveSlot(line);
    addHolder(line, cpu);
    touch(line, cpu);
    return ns;
}

inline double CacheModel::write(CacheLine& line, int cpu, int home) {
    // The line's only holder writes it again (its last writer, nobody read it since): nothing
    // changes but the L1's order.
    if (line.writer == cpu && !line.shared) {  // a writer has a slot
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
