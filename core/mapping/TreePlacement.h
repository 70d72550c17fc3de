#pragma once
// The one rule for how many trees a file's i_mmap has under a policy on a topology, and which
// of them a VMA joins. FileMapping (the trees the app draws), the simulator and the tree-lock
// bench all ask it, so the trees they build are the same trees.
//
//   single:       one tree.
//   split-trees,  one tree per NUMA node; a VMA joins the tree of numa_node_id() on the CPU
//   split-locks:  that mapped it (the proposal's __vma_link_file), and never moves.
//   sharded:K:    one tree per K CPUs in hwloc's logical order (the review's partition "by core
//                 count"; no patch was posted, so the grouping is ours): logical order keeps SMT
//                 siblings and cores that share a cache together, where OS numbering often puts
//                 siblings half the machine apart. A VMA joins the shard of the CPU that mapped
//                 it; without a known CPU, the shard of its home node's first CPU.

#include <cstddef>
#include <vector>

#include "mapping/Policy.h"

namespace immap::topology {
class Topology;
}

namespace immap::mapping {

struct Vma;

class TreePlacement {
public:
    // Keeps a reference to `topo`, which must outlive it (the session's or the run's topology).
    TreePlacement(const Policy& policy, const topology::Topology& topo);

    const Policy& policy() const { return policy_; }
    std::size_t treeCount() const { return count_; }
    // cpu: the OS index of the mapping CPU, -1 when unknown; node: its logical NUMA node, -1
    // when unknown. Always a valid index below treeCount().
    std::size_t treeOf(int cpu, int node) const;
    std::size_t treeOf(const Vma& v) const;

private:
    Policy policy_;
    std::size_t count_ = 1;
    const topology::Topology* topo_;
    std::vector<std::size_t> shardOfNode_;  // sharded: the shard of each node's first logical PU
};

}  // namespace immap::mapping
