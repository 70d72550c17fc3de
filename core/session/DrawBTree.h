#pragma once
// A B-tree index as a view draws it (issue 20): its nodes level by level, left to right, each a
// box of slots. A leaf's slots are its items (start, last, and the VMA's id and home node); an
// inner node's are its children (the separator bounding each from below, and the max `last`
// under it, the augmentation a query prunes on). Taken from a real index, at any step of an
// update (BTreeRecorder); views lay it out and paint it, never touching the index.

#include <cstdint>
#include <functional>
#include <vector>

#include "btree/IntervalBTree.h"

namespace immap::session {

struct DrawBNode {
    bool leaf = true;
    int level = 0;  // the root is 0
    int parent = -1;
    int parentSlot = -1;
    std::vector<btree::Index> key;   // leaf: starts; inner: separators (key[0] is unused)
    std::vector<btree::Index> last;  // leaf: lasts; inner: the max last under each child
    std::vector<int> child;          // inner: draw indices of the children
    std::vector<int> id;             // leaf: the items' ids (TreeSet entries; -1 unknown)
    std::vector<int> home;           // leaf: the items' home NUMA nodes
    const void* address = nullptr;   // the index's node: the same node across steps
    int count() const { return static_cast<int>(key.size()); }
};

struct DrawBTree {
    std::vector<DrawBNode> nodes;  // by level from the root, each level left to right
    int height = 0;                // levels (0 when empty)
    std::size_t items = 0;
    std::size_t linkBytes = 0;      // the index's IntervalBTree::linkBytes() when pictured
    int capacity = btree::kFanout;  // slots per node box

    int indexOf(const void* address) const;  // -1 if absent
    // The leaf and slot holding entry `id`; {-1, -1} if absent.
    std::pair<int, int> slotOfId(int id) const;
    std::vector<int> leaves() const;  // draw indices of the leaves, left to right
    // The item `step` places from entry `id` in key order, across leaves (clamped at the ends);
    // the first item when `id` is not here; -1 when the tree is empty.
    int stepFrom(int id, int step) const;

    // `describe` gives an item's id and home node (TreeSet::describe for a TreeSet's trees).
    static DrawBTree of(
        const btree::IntervalBTree& tree,
        const std::function<void(const btree::Item*, int& id, int& home)>& describe);
};

bool operator==(const DrawBNode& a, const DrawBNode& b);
bool operator==(const DrawBTree& a, const DrawBTree& b);

}  // namespace immap::session
