#pragma once
// Checks everything the kernel's tree promises (docs/kernel.md, "1.8 Invariants"): red-black rules,
// parent links, in-order starts non-decreasing, subtree_last exact, the leftmost cache, and the
// node count. Also measures the shape (height, black height) that views and stats report.

#include <cstddef>
#include <string>

namespace immap::itree {

class IntervalTree;

struct TreeShape {
    std::size_t nodes = 0;
    int height = 0;       // nodes on the longest root-to-leaf path (0 when empty)
    int blackHeight = 0;  // black nodes on every root-to-leaf path
};

struct CheckResult {
    bool ok = true;
    std::string error;  // the first violation found, naming the node by its interval
    TreeShape shape;
};

class InvariantChecker {
public:
    static CheckResult check(const IntervalTree& tree);
};

}  // namespace immap::itree
