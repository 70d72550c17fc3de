// Benchmark, not a test: what one warm tree update costs on this host, split into a part per
// node the update touches and a fixed part per operation (measure::TouchCostBench). The all-in
// cost per read is the model's cache_hit_ns; the intercept is tree_op_ns's check.
//   touch_cost_bench [--quick]
#include <cstdio>
#include <cstring>

#include "measure/TouchCostBench.h"

using namespace immap;

int main(int argc, char** argv) {
    const bool quick = argc > 1 && !std::strcmp(argv[1], "--quick");
    const measure::TouchCostResult r = measure::TouchCostBench::run(quick ? 2000 : 200000);
    std::printf("%8s %12s %10s\n", "nodes", "reads/op", "ns/op");
    for (const measure::TouchCostPoint& p : r.points)
        std::printf("%8zu %12.1f %10.1f\n", p.nodes, p.readsPerOp, p.nsPerOp);
    std::printf("slope per read: %.2f ns, intercept per op: %.1f ns\n", r.slopeNsPerRead,
                r.interceptNsPerOp);
    std::printf("all-in per read at 1,024-4,096 nodes (the model's cache_hit_ns): %.2f ns\n",
                r.allInNsPerRead);
    return 0;
}
