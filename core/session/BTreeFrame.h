#pragma once
// One picture of a B-tree animation: the tree as a step leaves it, what the step points at,
// and what it says. Pictures of steps that change nothing (a descent, a query's visit) share
// the tree of the step before.

#include <memory>
#include <string>
#include <vector>

#include "DrawBTree.h"

namespace immap::session {

// A node box, or one slot of it (slot -1: the whole box); indices into DrawBTree::nodes.
struct BTreeMark {
    int node = -1;
    int slot = -1;
    friend bool operator==(const BTreeMark&, const BTreeMark&) = default;
};

struct BTreeHighlight {
    std::vector<int> path;           // nodes the current update went through, root first
    BTreeMark focus;                 // the step's node and slot
    std::vector<BTreeMark> flash;    // max-last slots the step wrote
    std::vector<int> touched;        // other nodes the step wrote: a sibling, the parent
    std::vector<int> visited;        // a query's nodes entered so far
    std::vector<BTreeMark> pruned;   // a query's children skipped on their max-last
    std::vector<BTreeMark> matches;  // a query's items found so far
    bool empty() const {
        return path.empty() && focus.node < 0 && flash.empty() && touched.empty() &&
               visited.empty() && pruned.empty() && matches.empty();
    }
};

struct BTreeFrame {
    std::shared_ptr<const DrawBTree> tree;
    BTreeHighlight mark;
    std::string caption;
};

}  // namespace immap::session
