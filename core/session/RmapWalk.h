#pragma once
// An rmap walk over one tree, instrumented: the same iter_first / iter_next pruning the tree's
// own query uses (docs/kernel.md, "1.6 Queries"), but recording every node examined, every subtree
// skipped because its subtree_last ends before the range, and every VMA found, so that a view
// can animate it and the split's cost (more trees, more nodes visited) can be counted.

#include <cstddef>
#include <vector>

#include "TreeSet.h"

namespace immap::session {

struct WalkEvent {
    enum class Kind { Visit, Prune, Match };
    Kind kind = Kind::Visit;
    int id = -1;  // Visit/Match: the node; Prune: the root of the skipped subtree
};

struct WalkResult {
    std::vector<WalkEvent> events;
    std::vector<int> matches;  // in order, as iter_first/iter_next return them
    std::size_t visited = 0;   // Visit events
};

class RmapWalk {
public:
    // Pages [first, last] of the file (a closed range, like the tree's keys).
    static WalkResult run(const itree::IntervalTree& tree, itree::Index first, itree::Index last);
};

}  // namespace immap::session
