#include "mapping/TreePlacement.h"

#include <algorithm>

#include "mapping/Vma.h"
#include "topology/Topology.h"

namespace immap::mapping {

TreePlacement::TreePlacement(const Policy& policy, const topology::Topology& topo)
    : policy_(policy), topo_(&topo) {
    switch (policy.kind) {
        case Policy::Kind::Single:
        case Policy::Kind::NoRmap:
            break;
        case Policy::Kind::SplitTrees:
        case Policy::Kind::SplitLocks:
            count_ = std::max<std::size_t>(1, topo.nodeCount());
            break;
        case Policy::Kind::Sharded: {
            const std::size_t k = std::max(1u, policy.cpusPerShard);
            count_ = std::max<std::size_t>(1, (topo.pus().size() + k - 1) / k);
            for (const auto& n : topo.nodes()) {
                std::size_t first = topo.pus().size();
                for (unsigned os : n.pus)
                    if (const topology::Pu* pu = topo.puByOsIndex(os))
                        first = std::min(first, static_cast<std::size_t>(pu - topo.pus().data()));
                shardOfNode_.push_back(first < topo.pus().size() ? first / k : 0);
            }
            break;
        }
    }
}

std::size_t TreePlacement::treeOf(int cpu, int node) const {
    const topology::Pu* pu = cpu >= 0 ? topo_->puByOsIndex(static_cast<unsigned>(cpu)) : nullptr;
    switch (policy_.kind) {
        case Policy::Kind::Single:
        case Policy::Kind::NoRmap:
            return 0;
        case Policy::Kind::SplitTrees:
        case Policy::Kind::SplitLocks:
            if (node < 0 && pu) node = pu->node;
            return node >= 0 ? static_cast<std::size_t>(node) % count_ : 0;
        case Policy::Kind::Sharded:
            if (pu)
                return static_cast<std::size_t>(pu - topo_->pus().data()) /
                       std::max(1u, policy_.cpusPerShard);
            if (node >= 0 && static_cast<std::size_t>(node) < shardOfNode_.size())
                return shardOfNode_[static_cast<std::size_t>(node)];
            return 0;
    }
    return 0;
}

std::size_t TreePlacement::treeOf(const Vma& v) const {
    return treeOf(v.cpu, v.homeNode);
}

}  // namespace immap::mapping
