#pragma once
// A tree as a view draws it: its nodes in order (index = in-order rank) with depth, colour,
// interval, subtree_last and links by index, taken from a real tree or from an animation's
// replay. Views lay this out and paint it; they never touch the tree itself.

#include <cstdint>
#include <functional>
#include <vector>

#include "TreeSet.h"
#include "itree/ReplayTree.h"

namespace immap::session {

struct DrawNode {
    itree::Index start = 0;
    itree::Index last = 0;
    itree::Index subtreeLast = 0;
    bool red = false;
    int depth = 0;                           // the root is 0
    int parent = -1, left = -1, right = -1;  // indices into DrawTree::nodes
    int id = -1;                             // VmaEntry id in the TreeSet
    int homeNode = 0;
    std::int64_t pid = 0;
};

struct DrawTree {
    std::vector<DrawNode> nodes;  // in order
    int root = -1;
    int height = 0;  // levels (0 when empty)

    int indexOfId(int id) const;  // -1 if absent (linear)

    static DrawTree of(const itree::IntervalTree& tree, const TreeSet& set);
    static DrawTree of(const itree::ReplayTree& replay, const TreeSet& set);
    // Any tree whose nodes the caller can describe (a trace replay's): `describe` fills a
    // node's id, home node and pid; the rest comes from the tree.
    static DrawTree of(const itree::IntervalTree& tree,
                       const std::function<void(const itree::Node*, DrawNode&)>& describe);
};

}  // namespace immap::session
