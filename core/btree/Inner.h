#pragma once
// An internal node of the B-tree interval index: up to kFanout children (leaves, or inner
// nodes one level up), each with a lower bound of its starts (sep[0] is unused: the node's own
// bound is in its parent) and the max `last` in its subtree, the augmentation a query prunes
// on as vma_interval_tree_iter_first/next prune on rb_subtree_last. Separators are bounds, not
// copies of keys: everything in child i-1 starts at or before sep[i], everything in child i at
// or after it, which lets thousands of equal starts (libc's five segments) span many leaves.

#include <cstdint>

#include "Leaf.h"

namespace immap::btree {

class alignas(64) Inner {
public:
    Inner* parent = nullptr;
    int count = 0;
    bool leaves = false;  // children are leaves
    Index max = 0;        // the largest maxLast[i] (Leaf::max says why)

    alignas(64) Index sep[kFanout] = {};
    Index maxLast[kFanout] = {};
    void* child[kFanout] = {};

    Leaf* leaf(int i) const { return static_cast<Leaf*>(child[i]); }
    Inner* inner(int i) const { return static_cast<Inner*>(child[i]); }
};

}  // namespace immap::btree
