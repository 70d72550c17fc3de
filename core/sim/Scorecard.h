#pragma once
// `immap validate`: the model against every published observation (Observation::published),
// each on its own machine shape, at the default parameters (over seeds) and over parameter sets
// drawn across the plausible ranges (LatinHypercube): the published figure is a hit when it lies
// in the model's 10-90% band. Misses are reported as plainly as hits (docs/validation.md).

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/Band.h"
#include "sim/CostParams.h"
#include "sim/Observation.h"
#include "sim/ParallelRuns.h"

namespace immap::sim {

class RunCache;

struct ScorecardConfig {
    unsigned bands = 24;  // parameter sets drawn per observation
    unsigned seeds = 3;   // runs at the default parameters: seed, seed + 1, ...
    std::uint64_t seed = 1;
    unsigned threads = ParallelRuns::defaultThreads();
    double durationMs = 20;     // every run's window floor (SimConfig::durationMs)
    CostParams params;          // parameters that differ from their defaults are not drawn
    RunCache* cache = nullptr;  // answers runs it has kept (RunCache); null: all simulated
};

struct ScoreLine {
    const Observation* observation = nullptr;
    bool modelled = false;
    double point = 0;                // the model at the defaults, from the seeds' mean rates
    std::vector<double> seedValues;  // each seed's figure at the defaults
    Band band;                       // over the drawn parameter sets
    unsigned draws = 0;
    // No sets drawn (--bands 0): `band` is then the seeds' 10-90% spread at the defaults, the
    // run-to-run noise only, and the verdict is judged against it by the same rules.
    bool overSeeds = false;
    bool hit = false;
    // "inside the band", "above the band", "below the band" (where the published figure lies),
    // "the band reaches it", "the band stays below it", "not modelled"; "seeds' spread" for
    // "band" when overSeeds.
    std::string verdict;
};

// How a scorecard came out: hits among the modelled observations, and how many were not
// modelled. The one count the CLI, the JSON and the app print.
struct ScoreTally {
    std::size_t hits = 0;
    std::size_t modelled = 0;
    std::size_t notModelled = 0;
    std::size_t predictions = 0;  // lines with nothing published (Bound::None): not counted above
    bool overSeeds = false;       // the lines' bands are the seeds' spread (no sets drawn)
    // "2 of 9 modelled observations inside the model's 10-90% band (1 not modelled; 2
    // predictions, nothing published)"; without sets "... inside the seeds' 10-90% spread at
    // the defaults (no parameter sets drawn; ...)".
    std::string text() const;
};

// A row as soon as its runs have finished (rows finish out of order), and the run's progress.
struct ScoreUpdate {
    std::size_t index = 0;  // in run()'s lines
    ScoreLine line;         // as run() returns it
    std::size_t rowsDone = 0, rows = 0;
    std::size_t runsDone = 0, runs = 0;
    std::optional<double> secondsLeft;  // from the finished runs' cost (RunCosts); none yet
    // "rows: 3/12 · runs: 120/324 · about 40 s left".
    std::string text() const;
};

class Scorecard {
public:
    // Every observation's line, in Observation::all() order. `progress(done, total)` over
    // runs; an empty result when `cancel` became true. Throws what a topology spec or the
    // simulator throws for a bad configuration. Rows are run cheapest first, each row's runs
    // costliest first (RunCosts), in one queue; `row` is called once per row as soon as its
    // runs have finished (a row not modelled at once, before any run), from the worker
    // threads, one call at a time, under the scorecard's lock: it must be quick. The lines do
    // not depend on it, nor on the order.
    static std::vector<ScoreLine> run(
        const ScorecardConfig& config,
        const std::function<void(std::size_t, std::size_t)>& progress = {},
        const std::atomic<bool>* cancel = nullptr,
        const std::function<void(const ScoreUpdate&)>& row = {});
    // The runs one parameter set needs over all observations (what run() does per set).
    static std::size_t runsPerSet();

    static std::string toJson(const std::vector<ScoreLine>& lines, const ScorecardConfig& config);
    // What the band column is: "10-90% band", or "seeds' 10-90% spread" without sets drawn.
    static std::string bandTitle(const std::vector<ScoreLine>& lines);
    // The scorecard as a Markdown table (docs/validation.md) and as the CLI prints it.
    static std::string toMarkdown(const std::vector<ScoreLine>& lines);
    // One line's row of that table ("| claim | machine | ... |", no newline).
    static std::string markdownRow(const ScoreLine& line);
    static ScoreTally tally(const std::vector<ScoreLine>& lines);
    // "1.77x", "91.5%", "16 copies".
    static std::string format(double value, const std::string& unit);
};

}  // namespace immap::sim
