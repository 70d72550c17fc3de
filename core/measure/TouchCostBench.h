#pragma once
// What one warm tree update costs on this host, per node it reads: trees of 2^k intervals with
// a shared library's repeated keys, each remove-and-reinsert of a random node timed without an
// observer, then repeated with a counting observer (same nodes, same order) to count the node
// reads. The all-in time per read at a shared library's tree sizes (1,024 and 4,096 nodes) is
// the model's cache_hit_ns; a least-squares line through (reads per op, ns per op) splits it
// into a part per read and a fixed part per operation. Sizes stay within a private L2 (up to
// 4,096 nodes of 64 bytes), as the model's per-CPU table does. Wall clock.

#include <cstddef>
#include <vector>

namespace immap::measure {

struct TouchCostPoint {
    std::size_t nodes = 0;
    double readsPerOp = 0;
    double nsPerOp = 0;  // best of 5 passes
};

struct TouchCostResult {
    std::vector<TouchCostPoint> points;  // 16, 64, 256, 1,024 and 4,096 nodes
    double slopeNsPerRead = 0;
    double interceptNsPerOp = 0;
    double allInNsPerRead = 0;  // the model's cache_hit_ns on this host, now
};

class TouchCostBench {
public:
    // opsPerSize: timed remove-and-reinsert pairs per tree size (200,000 for a steady figure).
    static TouchCostResult run(std::size_t opsPerSize);
};

}  // namespace immap::measure
