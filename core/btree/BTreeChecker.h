#pragma once
// Every invariant of an IntervalBTree, checked from scratch: starts in order along the leaves;
// every leaf at the same depth; fill (every node but the root at least kMinFill entries, the
// root at least one, or two when it is inner); separators bound their children (all of child
// i-1 at or before sep[i], all of child i at or after it); each max-last exact; parents and
// items' back pointers right; the counts (items, leaves, inner nodes) the index reports.

#include <string>

#include "IntervalBTree.h"

namespace immap::btree {

struct BTreeCheck {
    bool ok = true;
    std::string error;
};

class BTreeChecker {
public:
    static BTreeCheck check(const IntervalBTree& tree);
};

}  // namespace immap::btree
