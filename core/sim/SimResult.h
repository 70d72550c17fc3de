#pragma once
// What one simulation run reports (issue 4, item 5), and its JSON form (docs/simulator.md).

#include <cstdint>
#include <string>
#include <vector>

#include "sim/CostParams.h"
#include "sim/RwSemModel.h"

namespace immap::sim {

struct LockResult {
    std::string name;  // "libc.so.6", "libc.so.6/node3", "libc.so.6/top", "libc.so.6/shard5"
    int file = -1;
    RwSemModel::Stats stats;
};

// Where one CPU's time went over the measured window, summed over the copies placed on it.
struct CpuResult {
    unsigned cpu = 0;  // OS index
    int node = 0;      // logical NUMA node
    unsigned copies = 0;
    double workNs = 0;  // unlocked work
    double waitNs = 0;  // waiting for i_mmap locks (spinning or asleep)
    double holdNs = 0;  // inside critical sections

    // The share of its measured time the CPU spent waiting for locks (0 when it ran nothing).
    double waitShare() const {
        const double total = workNs + waitNs + holdNs;
        return total > 0 ? waitNs / total : 0;
    }
};

struct FileResult {
    std::string name;
    unsigned trees = 0;
    std::uint64_t inserts = 0;  // over the whole run, set-up included
    std::uint64_t removes = 0;
    std::uint64_t finalVmas = 0;  // in its trees at the end
    std::vector<int> heights;     // per tree at the end
};

struct SimResult {
    std::string policy;
    std::string topology;
    std::string recipe;
    unsigned copies = 0;
    std::uint64_t seed = 0;
    double durationMs = 0;  // measured window (after warm-up)
    double warmupMs = 0;    // simulated time before the window opened
    double walkersPerSecond = 0;

    double execsPerSecond = 0;  // UnixBench execl lps: all copies together
    std::uint64_t execs = 0;    // completed in the window
    std::vector<LockResult> locks;
    std::vector<CpuResult> cpus;
    std::vector<FileResult> files;

    std::uint64_t walks = 0;  // whole-file walks completed in the window
    double walkerLatencyMeanNs = 0;
    double walkerLatencyP99Ns = 0;
    std::size_t memoryPerInodeBytes = 0;

    std::uint64_t lockHolds = 0;  // over the whole run: simulated lock operations
    std::uint64_t treeOps = 0;
    double nodesPerTreeOp = 0;  // mean node touches (reads) per insert/remove
    std::uint64_t events = 0;
    CostParams params;

    // `detail` adds per-CPU and per-file sections; the keys of issue 4 item 6 are always there.
    std::string toJson(bool detail = true) const;
};

}  // namespace immap::sim
