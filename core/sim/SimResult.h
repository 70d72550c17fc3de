#pragma once
// What one simulation run reports (issue 4, item 5), and its JSON form (docs/simulator.md).

#include <cstdint>
#include <string>
#include <vector>

#include "sim/CostParams.h"
#include "sim/RwSemModel.h"
#include "sim/SharedLines.h"

namespace immap::sim {

struct LockResult {
    std::string name;  // "libc.so.6", "libc.so.6/node3", "libc.so.6/top", "libc.so.6/shard5"
    int file = -1;
    RwSemModel::Stats stats;
    // Transfers of the lock word's line between CPUs in the window. The simulator's own (a
    // trace does not carry it), so not in the JSON report.
    std::uint64_t lineTransfers = 0;
};

// Where one CPU's time went over the measured window, summed over the copies placed on it.
struct CpuResult {
    unsigned cpu = 0;  // OS index
    int node = 0;      // logical NUMA node
    unsigned copies = 0;
    double workNs = 0;  // unlocked work
    double waitNs = 0;  // waiting for i_mmap locks (spinning or asleep)
    double holdNs = 0;  // inside critical sections
    double spinNs = 0;  // of waitNs: optimistically spinning in the OSQ, on the CPU

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
    // no-rmap: the file's VMAs mapped at the end that are in no tree (RWH_RMAP_EXCLUDE).
    std::uint64_t unlinkedVmas = 0;
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
    // A sweep point run over several seeds: each seed's execs/s (execsPerSecond is their mean,
    // every other field the first seed's). Empty for one run.
    std::vector<double> seedRates;
    // A banded sweep point: execs/s under each parameter set drawn over the plausible ranges
    // (Sweep, LatinHypercube), in draw order. Empty without bands.
    std::vector<double> bandRates;
    // Empty when the run reached a steady state. Otherwise why it did not, from what the run
    // saw (the walkers' demand on a lock, walks/s x their mean hold, at or above 1: its queue
    // never drains), and that the window then measured that state for duration_ms only.
    std::string overload;
    std::uint64_t execs = 0;            // completed in the window
    std::uint64_t execsPerCopyMin = 0;  // the fewest execs a copy completed in the window
    std::vector<LockResult> locks;
    std::vector<CpuResult> cpus;
    std::vector<FileResult> files;

    std::uint64_t walks = 0;  // whole-file walks completed in the window
    // Trylock walkers (walker_trylock) that arrived in the window and gave up at once because a
    // lock they need was busy: reclaim's "contended" folio_referenced calls.
    std::uint64_t walksSkipped = 0;
    double walkVmasMean = 0;  // VMAs a walk in the window found (mapping the walked pages)
    double walkerLatencyMeanNs = 0;
    double walkerLatencyP99Ns = 0;
    std::size_t memoryPerInodeBytes = 0;
    // i_mmap linkage per VMA in the trees at the end (FileTree::linkBytes over their VMAs): 32
    // for the rbtree; the B-tree's nodes and back pointers.
    double linkBytesPerVma = 0;

    std::uint64_t lockHolds = 0;  // over the whole run: simulated lock operations
    std::uint64_t treeOps = 0;
    double nodesPerTreeOp = 0;  // mean node touches (reads) per insert/remove
    // Over the whole run, tree nodes' lines (CacheModel): reads that hit, misses served by the
    // last writer's cache or by memory, writes that invalidated other holders; and touches of
    // a lock word that brought its line from another CPU.
    std::uint64_t cacheHits = 0;
    std::uint64_t cacheL1Hits = 0;  // among cacheHits: the line was still in the reader's L1
    std::uint64_t cacheTransfers = 0;
    std::uint64_t cacheMemoryReads = 0;
    std::uint64_t cacheUpgrades = 0;
    std::uint64_t lockLineTransfers = 0;
    std::uint64_t events = 0;
    // Each shared line besides i_mmap (SharedLines): touches, transfers and the copies' time
    // on it in the window.
    std::vector<SharedLineResult> sharedLines;
    CostParams params;

    // The share of the copies' CPU time (work, holds, spinning; not sleeping) spent spinning
    // on i_mmap locks: what `perf top` shows as osq_lock and rwsem_spin_on_owner.
    double spinShare() const;

    // `detail` adds per-CPU and per-file sections; the keys of issue 4 item 6 are always there.
    std::string toJson(bool detail = true) const;
};

}  // namespace immap::sim
