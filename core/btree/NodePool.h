#pragma once
// The B-tree index's node cache: freed leaves and inner nodes are kept for the next split, as
// the kernel's node caches (kmem_cache) keep freed objects. exec/exit churn splits and merges
// all the time, and fresh heap pages would cost a page fault per few splits. A node handed out
// is cleared, as a fresh one would be.

#include <vector>

#include "Inner.h"
#include "Leaf.h"

namespace immap::btree {

class NodePool {
public:
    NodePool() = default;
    NodePool(const NodePool&) = delete;
    NodePool& operator=(const NodePool&) = delete;
    ~NodePool();

    Leaf* leaf();
    Inner* inner();
    void give(Leaf* l) { leaves_.push_back(l); }
    void give(Inner* n) { inners_.push_back(n); }

private:
    std::vector<Leaf*> leaves_;
    std::vector<Inner*> inners_;
};

}  // namespace immap::btree
