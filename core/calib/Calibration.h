#pragma once
// Two model parameters fitted to measured execl points (execs/s per copy count) by least
// squares on relative error, the model run by sim::Simulator (policy single) on the machine the
// points were measured on (docs/measurements.md, "Calibration"):
//   unlocked_ns_per_exec   U, the work outside the i_mmap locks;
//   lock_cost_scale        k, one factor on every per-hold hardware cost: mem_local_ns,
//                          mem_per_distance_ns, cache_hit_ns, tree_op_ns, lock_atomic_ns,
//                          split_store_ns, anon_vma_lock_ns.
// Those defaults come from other machines' cache-line figures; one factor keeps their sources'
// ratios and says only how much slower or faster a hold is here. With one copy count k cannot
// be told apart from U, so it stays 1.
// Method: U is tied to k by the smallest copy count (U(k) = copies/execs_per_s - k x L, L the
// locked time per exec at k = 1), a coarse log grid over k and a golden section along that
// valley pick the start, then Nelder-Mead on
// (log U, log k) minimises the mean squared relative error, restarted from its best point while
// that improves. Each prediction is the mean of kSeeds runs (seeds seed, seed+1, ...): one
// seed's curve is rough in the parameters (deterministic convoys at full locks shift with a
// 2% change of k), and a mean over start orders smooths it. Deterministic.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/InputError.h"
#include "sim/CostParams.h"
#include "sim/ParallelRuns.h"
#include "sim/Recipe.h"

namespace immap::topology {
class Topology;
}

namespace immap::calib {

// A bad fit file, or a calibration that cannot run, as every reader's errors are.
class CalibError : public io::InputError {
public:
    using io::InputError::InputError;
};

struct CalibPoint {
    unsigned copies = 0;
    double execsPerSecond = 0;
};

struct CalibrationConfig {
    const topology::Topology* topology = nullptr;
    std::vector<CalibPoint> points;
    sim::CostParams base;  // every other parameter, and k = 1
    double durationMs = 300;
    std::uint64_t seed = 1;  // the first of Calibration::kSeeds
    const sim::Recipe* recipe = nullptr;
    unsigned threads = sim::ParallelRuns::defaultThreads();
    unsigned maxEvaluations = 250;
};

struct PointFit {
    unsigned copies = 0;
    double measured = 0;
    double predicted = 0;         // with the fit
    double relError = 0;          // (predicted - measured) / measured
    double defaultPredicted = 0;  // with the base parameters
    double defaultRelError = 0;
};

struct CalibrationResult {
    double unlockedNsPerExec = 0;
    double lockCostScale = 1;
    sim::CostParams params;  // base with both applied
    std::vector<PointFit> points;
    double rmsRelError = 0;
    double defaultRmsRelError = 0;
    double lockedNsPerExec = 0;    // L: locked time per exec at one copy with the base costs
    bool scaleFitted = false;      // false with a single copy count
    bool scaleAtBound = false;     // k ended at 1e-3 or 1e3: the points say little about it
    bool unlockedAtBound = false;  // U ended at 1 µs: the model cannot fit the points' shape
    unsigned evaluations = 0;      // model evaluations (each simulates every copy count)
    std::string method;
};

class Calibration {
public:
    static constexpr double kMinScale = 1e-3;
    static constexpr double kMaxScale = 1e3;
    // Start orders each prediction averages over (UnixBench, too, runs a test several times).
    static constexpr unsigned kSeeds = 3;

    // The parameter names lock_cost_scale multiplies.
    static const std::vector<std::string>& scaledParams();
    // `base` with U and k applied.
    static sim::CostParams apply(const sim::CostParams& base, double unlockedNs, double scale);
    // Execs/s per copy count with these parameters (policy single).
    static std::vector<double> predict(const CalibrationConfig& config,
                                       const sim::CostParams& params);
    // Throws CalibError for no points, a missing topology or repeated copy counts.
    static CalibrationResult fit(const CalibrationConfig& config);
};

}  // namespace immap::calib
