#include "FileMapping.h"

#include <algorithm>

#include "itree/InvariantChecker.h"
#include "topology/Topology.h"

namespace immap::mapping {

FileMapping::FileMapping(const MappedFile& file, const topology::Topology& topo, Policy policy)
    : file_(&file), placement_(policy, topo) {
    const std::size_t count = placement_.treeCount();
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

TreeStats FileMapping::stats(std::size_t i) const {
    const itree::CheckResult r = itree::InvariantChecker::check(*trees_[i]);
    return {trees_[i]->size(), r.shape.height, r.shape.blackHeight};
}

}  // namespace immap::mapping
