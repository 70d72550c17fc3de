#include "FileMapping.h"

#include <algorithm>

#include "itree/InvariantChecker.h"
#include "topology/Topology.h"

namespace immap::mapping {

FileMapping::FileMapping(const MappedFile& file, const topology::Topology& topo, Policy policy)
    : file_(&file), policy_(policy) {
    std::size_t count = 1;
    switch (policy.kind) {
        case Policy::Kind::Single:
            break;
        case Policy::Kind::SplitTrees:
        case Policy::Kind::SplitLocks:
            count = std::max<std::size_t>(1, topo.nodeCount());
            break;
        case Policy::Kind::Sharded: {
            // CPUs are numbered by OS index; shard s holds CPUs [s*K, (s+1)*K).
            unsigned maxPu = 0;
            for (const auto& pu : topo.pus())
                maxPu = std::max(maxPu, pu.osIndex);
            pus_ = maxPu + 1;
            count = (pus_ + policy.cpusPerShard - 1) / policy.cpusPerShard;
            for (const auto& n : topo.nodes())
                shardOfNode_.push_back(
                    n.pus.empty() ? 0 : static_cast<int>(n.pus.front() / policy.cpusPerShard));
            break;
        }
    }
    for (std::size_t i = 0; i < count; ++i)
        trees_.push_back(std::make_unique<itree::IntervalTree>());
    nodes_ = std::make_unique<TreeNode[]>(file.vmas.size());
    for (std::size_t i = 0; i < file.vmas.size(); ++i) {
        const Vma& v = file.vmas[i];
        TreeNode& n = nodes_[i];
        n.start = v.first();
        n.last = v.last();
        n.vma = &v;
        trees_[treeIndexOf(v)]->insert(&n);
    }
}

std::size_t FileMapping::treeIndexOf(const Vma& v) const {
    const std::size_t count = trees_.size();
    switch (policy_.kind) {
        case Policy::Kind::Single:
            return 0;
        case Policy::Kind::SplitTrees:
        case Policy::Kind::SplitLocks:
            return static_cast<std::size_t>(std::max(0, v.homeNode)) % count;
        case Policy::Kind::Sharded:
            if (v.cpu >= 0) return (static_cast<std::size_t>(v.cpu) / policy_.cpusPerShard) % count;
            if (v.homeNode >= 0 && static_cast<std::size_t>(v.homeNode) < shardOfNode_.size())
                return static_cast<std::size_t>(shardOfNode_[v.homeNode]) % count;
            return 0;
    }
    return 0;
}

TreeStats FileMapping::stats(std::size_t i) const {
    const itree::CheckResult r = itree::InvariantChecker::check(*trees_[i]);
    return {trees_[i]->size(), r.shape.height, r.shape.blackHeight};
}

}  // namespace immap::mapping
