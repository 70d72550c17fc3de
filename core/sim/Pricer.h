#pragma once
// Prices one tree update's memory touches by where each line is (CacheModel), for either tree
// structure: the rbtree's node touches (a node is a VMA's line), and the B-tree's byte ranges
// of its own nodes plus the VMAs' back-pointer lines. Both go through the same cache-state
// model, so the L1, the coherence states and the NUMA distances are the rbtree's.
//
// A B-tree node has no room for a CacheLine (it is exactly cache lines), so the pricer keeps
// one per node line, keyed by the line's address; nodes are never returned to the heap during
// a run (the index reuses its freed ones), so an address names one node line for the run. A
// node is homed on the node of the CPU that made it (kmalloc is node-local) and is that CPU's
// at once: made outside the hold, as the maple tree preallocates its nodes before taking the
// lock (mas_preallocate), and zeroed there.

#include <cstdint>
#include <unordered_map>

#include "btree/TouchObserver.h"
#include "itree/TouchObserver.h"
#include "sim/CacheLine.h"
#include "sim/CacheModel.h"
#include "sim/SimVma.h"

namespace immap::sim {

class Pricer final : public itree::TouchObserver, public btree::TouchObserver {
public:
    CacheModel* cache = nullptr;
    double cost = 0;          // ns, since start()
    std::uint64_t reads = 0;  // lines read while enabled, over the run
    bool enabled = true;      // false: the untimed set-up (touches are not priced)

    // The next touches are CPU `cpu`'s (its position in the topology's PU order). `setUpNode`:
    // where a node made while pricing is off is homed.
    void start(int cpu) {
        cpu_ = cpu;
        cost = 0;
    }
    void setUpNode(int node) { setUpNode_ = node; }

    // The rbtree's: a node is a VMA (SimVma). Inline, and called without a virtual call
    // through FileTree (itree/ObservedUpdate.h): these are the simulator's hottest calls.
    void read(const itree::Node* n) override {
        if (!enabled) return;
        ++reads;
        const auto* v = static_cast<const SimVma*>(n);
        cost += cache->read(v->line, cpu_, v->home);
    }
    // Repeated writes to one node in one update are free: the first leaves it held alone.
    void write(const itree::Node* n) override {
        if (!enabled) return;
        const auto* v = static_cast<const SimVma*>(n);
        cost += cache->write(v->line, cpu_, v->home);
    }

    // The B-tree's.
    void read(const void* p, std::size_t bytes) override;
    void write(const void* p, std::size_t bytes) override;
    void readItem(const btree::Item* item) override;
    void backPointer(const btree::Item* item) override;
    void created(const void* p, std::size_t bytes) override;

private:
    struct NodeLine {
        CacheLine line;
        std::int32_t home = 0;
    };
    NodeLine& lineAt(std::uintptr_t line);

    int cpu_ = 0;
    int setUpNode_ = 0;
    std::unordered_map<std::uintptr_t, NodeLine> lines_;  // by address / 64
};

}  // namespace immap::sim
