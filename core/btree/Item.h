#pragma once
// One entry of the B-tree interval index, embedded by the caller like itree::Node (a VMA would
// hold one in place of its rb node): the index never allocates or owns items. The index copies
// the interval into its leaf's arrays, so that a search scans contiguous keys instead of
// chasing pointers, and keeps a back pointer here to the leaf holding the item: removing a VMA
// needs no search (the leaf's 16 slots are scanned for the item, two cache lines), and the
// pointer is rewritten whenever a split, merge or borrow moves the item to another leaf.

#include <cstdint>

namespace immap::btree {

// pgoff_t: a page offset into the file (the same as itree::Index).
using Index = std::uint64_t;

class Leaf;

class Item {
public:
    Item() = default;
    Item(Index s, Index l) : start(s), last(l) {}
    Item(const Item&) = delete;  // linked by address
    Item& operator=(const Item&) = delete;

    // The key: the closed interval [start, last]. Must not change while the item is indexed.
    Index start = 0;
    Index last = 0;

    const Leaf* leaf() const { return leaf_; }

private:
    friend class IntervalBTree;
    friend class BTreeChecker;
    Leaf* leaf_ = nullptr;
};

}  // namespace immap::btree
