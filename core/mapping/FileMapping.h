#pragma once
// One file's i_mmap under a policy, built from the same VMAs: the single tree, the per-node
// trees or the shards, placed by TreePlacement (the simulator's rule too). The trees are real
// itree trees, in snapshot order of insertion.

#include <memory>
#include <vector>

#include "HostMappings.h"
#include "Policy.h"
#include "TreePlacement.h"
#include "itree/IntervalTree.h"

namespace immap::mapping {

struct TreeStats {
    std::size_t vmas = 0;
    int height = 0;
    int blackHeight = 0;
};

class FileMapping {
public:
    // Tree nodes are separate from the Vmas so that one Vma can sit in several policies' trees.
    struct TreeNode : itree::Node {
        const Vma* vma = nullptr;
    };

    FileMapping(const MappedFile& file, const topology::Topology& topo, Policy policy);
    FileMapping(const FileMapping&) = delete;
    FileMapping& operator=(const FileMapping&) = delete;

    const MappedFile& file() const { return *file_; }
    const Policy& policy() const { return placement_.policy(); }
    std::size_t treeCount() const { return trees_.size(); }
    const itree::IntervalTree& tree(std::size_t i) const { return *trees_[i]; }
    TreeStats stats(std::size_t i) const;
    // Which tree a VMA goes to under this policy.
    std::size_t treeIndexOf(const Vma& v) const { return placement_.treeOf(v); }
    std::size_t memoryPerInodeBytes() const { return policy().memoryPerInodeBytes(treeCount()); }

    static const Vma& vmaOf(const itree::Node* n) { return *static_cast<const TreeNode*>(n)->vma; }

private:
    const MappedFile* file_;
    TreePlacement placement_;
    std::unique_ptr<TreeNode[]> nodes_;
    std::vector<std::unique_ptr<itree::IntervalTree>> trees_;
};

}  // namespace immap::mapping
