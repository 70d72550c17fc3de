#pragma once
// The throughput sweep: every (walker rate, policy, copies) point of a grid simulated with the
// same seeds, recipe and parameters, spread over worker threads (each run is independent and
// deterministic, so the results do not depend on the thread count). Each point runs `seeds`
// seeds (run.seed, run.seed + 1, ...), as UnixBench runs each test several times: the point's
// execs/s is their mean and its spread their range. With bands, each point also runs once per
// parameter set drawn over the parameters' plausible ranges: a band run costs what a plain run
// costs.

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/ParallelRuns.h"
#include "sim/Simulator.h"
#include "sim/SweepRow.h"

namespace immap::sim {

class RunCache;

struct SweepConfig {
    SimConfig run;  // every run's configuration; the grid sets its walkers, policy and copies
    // Whole-file walkers per second, each a slice of the grid, so that a policy is seen with and
    // without walkers side by side (SimSettings gives {0, rate}). Empty: run.walkersPerSecond
    // alone, a grid of one slice as before there were several.
    std::vector<double> walkerRates;
    std::vector<mapping::Policy> policies;
    std::vector<unsigned> copies;
    unsigned seeds = 1;
    // Parameter sets drawn over the plausible ranges (LatinHypercube, seeded with run.seed):
    // each point also runs once per set, draw d with seed run.seed + seeds + d, and reports
    // the rates as SimResult::bandRates. 0: no band.
    unsigned bands = 0;
    unsigned threads = ParallelRuns::defaultThreads();
    // The grid points to run, as sorted indices in grid order (walker rates outermost, then
    // policies, copies inner); none given: all of them. A shard's (SweepShard::points), which
    // may be empty.
    std::optional<std::vector<std::size_t>> points;
    // Answers runs it has kept (RunCache); null: every run is simulated.
    RunCache* cache = nullptr;

    // The walker rates the grid runs: walkerRates, or run.walkersPerSecond when it is empty.
    std::vector<double> rates() const;
    // The number of points in the grid: rates x policies x copies.
    std::size_t gridSize() const;
};

// How far a sweep has come, as its progress line says it.
struct SweepProgress {
    std::size_t points = 0;    // in the grid (of config.points, if any)
    std::size_t drawn = 0;     // points whose first seed has finished: on the curves
    std::size_t seedRuns = 0;  // the seeds' runs (points x seeds), and those finished
    std::size_t seedsDone = 0;
    std::size_t bandRuns = 0;  // the drawn parameter sets' runs (points x bands)
    std::size_t bandsDone = 0;
    std::optional<double> secondsLeft;  // from the finished runs' cost (RunCosts); none yet
    // "curves: 12/60 points · seeds: 70/180 runs · bands: 40/600 runs · about 18 s left"
    // (the seeds without more than one, the bands without any).
    std::string text() const;
};

// A point as its runs finish: what run() will return for it, over the seeds and parameter
// sets finished so far (execsPerSecond their mean, seedRates and bandRates theirs, in seed and
// draw order), and the sweep's progress then.
struct SweepUpdate {
    std::size_t index = 0;  // in run()'s results
    SimResult point;
    unsigned seedsDone = 0;  // of max(1, config.seeds)
    unsigned drawsDone = 0;  // of config.bands
    SweepProgress progress;
};

// One run of a sweep: its configuration, and which of its point's runs it is (0 .. seeds - 1
// its seeds, then its parameter draws).
struct SweepRun {
    SimConfig config;
    unsigned run = 0;
    // A draw's run is one number of its point's band (RunCache::Need::Rate); a seed's is whole.
    bool isDraw(unsigned seeds) const { return run >= seeds; }
};

class Sweep {
public:
    // Throws what Simulator::checkConfig throws for any run of the grid, before one starts,
    // and what checkGrid throws.
    static void check(const SweepConfig& config);
    // Throws limits::LimitError for a grid larger than a sweep runs (InputLimits sweep_policies,
    // sweep_copies, sweep_points): the one bound for sweeps, scenarios and merged parts.
    static void checkGrid(std::size_t rates, std::size_t policies, std::size_t copies);
    // Results in grid order: walker rates outermost, then policies, copies inner; one per point
    // (of config.points, if any), its first seed's run
    // with execsPerSecond the seeds' mean, seedRates each seed's and bandRates each drawn
    // parameter set's (config.bands of them). `progress(done, total)` is
    // called from the worker threads after each run. When `cancel` becomes true, runs not yet
    // started are skipped and the function returns an empty vector.
    // The runs go in three phases, each costliest first (RunCosts): every point's first seed
    // (the curves at the default parameters), then the other seeds, then the parameter sets'
    // draws, one queue, so that the threads never wait at a phase's end. `point` is called
    // after each run once its point's first seed has finished, with the point so far; from the
    // worker threads, one call at a time, under the sweep's lock: it must be quick. The results
    // do not depend on it, nor on the order (each run's seed is its own).
    static std::vector<SimResult> run(
        const SweepConfig& config,
        const std::function<void(std::size_t, std::size_t)>& progress = {},
        const std::atomic<bool>* cancel = nullptr,
        const std::function<void(const SweepUpdate&)>& point = {});

    // Every run of the sweep in grid order, each point's seeds then its draws: what run()
    // simulates (or asks its cache for), and what a scenario's results are looked up by.
    static std::vector<SweepRun> runs(const SweepConfig& config);

    // The grid as users type it, the same in the CLI and the app: "single,split-locks" and
    // "1,2,4". False with the reason for an unknown policy, a count outside 1..100000, an
    // empty list or one longer than InputLimits allows.
    static bool parsePolicies(std::string_view text, std::vector<mapping::Policy>& out,
                              std::string& error);
    static bool parseCopies(std::string_view text, std::vector<unsigned>& out, std::string& error);
    // 1, 2, 4, ... below the PU count, then the PU count: the default copy counts of a machine.
    static std::vector<unsigned> defaultCopies(unsigned pus);

    // The busiest lock's utilisation in a run.
    static double maxUtilisation(const SimResult& r);

    // The rows the outputs below are made of (SweepRow).
    static std::vector<SweepRow> rows(const std::vector<SimResult>& runs);
    // {"runs": [...]} with each run's summary (SimResult::toJson without detail).
    static std::string toJson(const std::vector<SimResult>& runs);
    // One line per run: policy,copies,execs_per_s,speedup_vs_single,... with a header.
    static std::string toCsv(const std::vector<SimResult>& runs);
};

}  // namespace immap::sim
