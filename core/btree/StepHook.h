#pragma once
// The primitive steps of a B-tree update or query, reported as the algorithm makes them, so
// that an animation can show each one (session::BTreeRecorder takes a picture of the tree at
// every step). A step is reported when the tree is whole again: after a split has linked its
// new node, after a merge has unlinked the old one. Max-last writes are steps of their own,
// so the propagation up the tree is seen level by level.

#include "Item.h"

namespace immap::btree {

enum class StepKind {
    Begin,    // an update starts; item: the item going in or out
    Descend,  // node: an inner node read on the way down; slot: the child taken
    Place,    // node: the leaf the item went into; slot: its position
    Split,    // node: the full leaf that split, after the new one is linked (and any parent
              // split, up to a new root); slot: where the item went in it, or -1 if not
    Unplace,  // node: the leaf the item left (found from its back pointer); slot: its position
    MaxLast,  // node: inner node whose maxLast[slot] was written (raised or recomputed)
    Covered,  // node: where maxLast[slot] already covered the new last: propagation stops
    Borrow,   // node: the node that took an entry from a sibling; slot: 0 from left, 1 right
    Merge,    // node: the node the right one of a pair merged into
    Shrink,   // the root had one child left: node: the new root
    Visit,    // a query entered node
    Prune,    // a query skipped node's child `slot`: its maxLast is below the query's start
    Match,    // a query found the item in leaf `node`, slot `slot`
};

class StepHook {
public:
    virtual ~StepHook() = default;
    virtual void step(StepKind kind, const void* node, int slot, const Item* item) = 0;
};

}  // namespace immap::btree
