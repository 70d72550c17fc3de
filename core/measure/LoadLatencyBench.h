#pragma once
// The load-to-use latency of this CPU's L1 and L2 data caches, measured now: a pointer chase
// through a random cyclic order of 64-byte lines (each load's address is the previous load's
// value, so no two loads overlap), in a buffer of half the L1 (every load an L1 hit) and in
// one of 256 KiB (past any L1 of 32-48 KiB, within any L2 of 512 KiB or more: L2 hits). These
// are the model's cache_l1_hit_ns and cache_hit_ns on this host, the way the lmbench
// lat_mem_rd microbenchmark measures them. Wall clock; best of 5 passes.

#include <cstddef>

namespace immap::measure {

struct LoadLatencyResult {
    double l1Ns = 0;
    double l2Ns = 0;
};

class LoadLatencyBench {
public:
    // loads: chased loads per pass (20,000,000 for a steady figure).
    static LoadLatencyResult run(std::size_t loads);

private:
    // One buffer size's latency per load.
    static double chase(std::size_t bytes, std::size_t loads);
};

}  // namespace immap::measure
