#pragma once
// The default recipe's i_mmap work run for real: T threads pinned like placeCopies spreads
// execl copies (hwloc_set_cpubind), each planning its execs with sim::AddressSpace and running
// every Hold's tree operations on shared itree trees under a real std::shared_mutex, with
// spin-waited unlocked work in between, so that the lock is not all of the loop. Optional
// whole-file walkers take the read side of every lock of the walker file. Wall clock.
//   single       one tree and one lock per file;
//   split-locks  one tree and one lock per NUMA node per file (one per file on a 1-node host).
// std::shared_mutex sleeps on a futex when contended; the kernel's rwsem spins optimistically
// first, so waits here are an upper bound on the hand-off cost, not the kernel's own.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/Recipe.h"

namespace immap::topology {
class Topology;
}

namespace immap::measure {

struct TreeLockBenchConfig {
    const topology::Topology* topology = nullptr;  // this host's: the threads are pinned on it
    unsigned threads = 1;
    bool splitLocks = false;
    double seconds = 1;
    double workNsPerExec = 20'000;  // unlocked spin per exec, spread by the recipe's weights
    // Lines of a private buffer the unlocked work writes per µs of it (the model's
    // work_lines_per_us): an exec's other work pushes the tree's lines out of the L1.
    double workLinesPerUs = 10;
    double walkersPerSecond = 0;
    unsigned backgroundProcesses = 250;   // as the simulator's background_processes
    const sim::Recipe* recipe = nullptr;  // nullptr: the built-in default
};

struct TreeLockResult {
    std::string policy;
    unsigned threads = 0;
    unsigned nodes = 0;
    unsigned locksPerFile = 0;
    double seconds = 0;  // measured wall time
    double workNsPerExec = 0;
    double workLinesPerUs = 0;
    std::vector<unsigned> cpus;  // where each thread was pinned (OS indexes)
    bool pinned = false;         // every hwloc_set_cpubind succeeded
    std::uint64_t execs = 0;
    std::uint64_t holds = 0;
    std::uint64_t treeOps = 0;
    std::uint64_t contended = 0;  // holds whose first try_lock failed
    double execsPerSecond = 0;
    double holdsPerSecond = 0;
    double treeOpsPerSecond = 0;
    double meanWaitNs = 0;   // per hold, from asking to holding
    double meanHoldNs = 0;   // includes one clock read's own cost (clockReadNs)
    double clockReadNs = 0;  // median of back-to-back steady_clock reads, measured at the start
    double walkersPerSecond = 0;
    std::uint64_t walks = 0;
    double walkMeanNs = 0;  // from asking for the first lock to the last release
    std::string note;       // e.g. split-locks on a one-node host

    std::string toJson() const;  // one run (docs/measurements.md, "immap-tree-locks")
};

class TreeLockBench {
public:
    // Throws std::invalid_argument for an unusable config.
    static TreeLockResult run(const TreeLockBenchConfig& config);
    // {"format": "immap-tree-locks", "version": 1, "runs": [...]}
    static std::string toJson(const std::vector<TreeLockResult>& runs);
};

}  // namespace immap::measure
