#pragma once
// The arithmetic behind a SimResult, shared by the simulator and by trace replay so that a
// replayed run reports exactly what the live one did: the execs/s estimator, latency
// percentiles and the per-file tree summary.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "itree/IntervalTree.h"
#include "sim/SimResult.h"
#include "sim/Time.h"
#include "sim/WaitHistogram.h"

namespace immap::sim {

// One copy's completed execs in the measured window.
struct CopyExecs {
    std::uint64_t count = 0;
    // An exec ended at t: it counts when the window is open and t is not past its end.
    void ended(Time t, bool inWindow, Time end) {
        if (inWindow && t <= end) ++count;
    }
};

// A whole-file walk asked for its locks at `arrival` and ended at t: its latency counts when
// both lie in the window.
inline void walkEnded(WaitHistogram& latencies, Time arrival, Time t, bool inWindow,
                      Time windowStart, Time end) {
    if (inWindow && arrival >= windowStart && t <= end) latencies.record(t - arrival);
}

// A trylock walker gave up at t: counted as walkEnded counts a walk that ends at t.
inline void walkGaveUp(std::uint64_t& skipped, Time t, bool inWindow, Time end) {
    if (inWindow && t <= end) ++skipped;
}

// The cost counters of a run: copies' lock holds, their tree operations and the node reads
// those made.
struct CostCounters {
    std::uint64_t holds = 0;
    std::uint64_t treeOps = 0;
    std::uint64_t reads = 0;
    void writeTo(SimResult& r) const;
};

// UnixBench's score (Run's runOnePass): every copy's iterations summed, over the time they ran:
// the execs completed in the window over its length. Unbiased for copies at random phases;
// exact to one exec per copy, which window_execs makes small (MeasureWindow).
double execsPerSecond(const std::vector<CopyExecs>& copies, Time from, Time at);
// The fewest execs any copy completed in the window (0 for no copies).
std::uint64_t fewestExecs(const std::vector<CopyExecs>& copies);

// Where one copy's time goes: unlocked work, waiting for locks, inside critical sections.
// Spin is a wait on its CPU (optimistic spinning in the OSQ): counted in waitNs and in spinNs.
// Accumulates only inside the measured window.
struct PhaseClock {
    enum class Phase : std::uint8_t { Idle, Work, Wait, Spin, Hold };
    Phase phase = Phase::Idle;
    Time start = 0;
    double workNs = 0, waitNs = 0, holdNs = 0, spinNs = 0;

    void set(Phase next, Time t, bool inWindow, Time windowStart);
    // The window opened at `t`: time before it does not count.
    void windowOpened(Time t) { start = std::max(start, t); }
    // Adds this copy's totals, the current phase closed at `at`, to `cpu`.
    void addTo(CpuResult& cpu, Time at, Time from, bool inWindow) const;
};

// Per CPU, summed over the copies on it (sorted by CPU).
struct CopyPlace {
    unsigned cpu;
    int node;
    const PhaseClock* clock;
};
std::vector<CpuResult> cpuSplit(const std::vector<CopyPlace>& copies, Time at, Time from,
                                bool inWindow);

// Mean (exact) and nearest-rank 99th percentile (within WaitHistogram's 1/128); both 0 for no
// samples.
void latencyStats(const WaitHistogram& samples, double& mean, double& p99);

// Levels from the root to the deepest leaf (0 for an empty tree).
int treeHeight(const itree::IntervalTree& tree);

FileResult summarizeFile(const std::string& name,
                         const std::vector<std::unique_ptr<itree::IntervalTree>>& trees,
                         std::uint64_t inserts, std::uint64_t removes);
class FileTree;
FileResult summarizeFile(const std::string& name,
                         const std::vector<std::unique_ptr<FileTree>>& trees, std::uint64_t inserts,
                         std::uint64_t removes);

}  // namespace immap::sim
