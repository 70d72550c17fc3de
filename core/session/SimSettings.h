#pragma once
// What the simulator runs with, kept once for a window (in its Session) or a CLI command: the
// sweep grid, the simulated time, the seed, the exec recipe, the whole-file walkers and the cost
// parameters. config() is the one place a sim::SimConfig is made from them, so the sweep, a
// recording, the live contention run and `immap simulate`/`immap sweep` cannot disagree. A
// scenario file carries the same values (fromScenario/toScenario).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mapping/Policy.h"
#include "sim/CostParams.h"
#include "sim/Recipe.h"
#include "sim/Simulator.h"
#include "sim/Sweep.h"

namespace immap::session {

struct Scenario;

struct SimSettings {
    // The sweep grid: walker rates (walkerRates()) outermost, then policies, copy counts inner;
    // no copy counts = Sweep::defaultCopies.
    std::vector<mapping::Policy> policies = defaultPolicies();
    std::vector<unsigned> copies;
    double durationMs = 20;  // the measured window's floor per run, after the warm-up
    std::uint64_t seed = 1;
    unsigned seeds = 3;  // per sweep point: seed, seed + 1, ... (mean and spread)
    // Parameter sets per sweep point drawn over the plausible ranges (SweepConfig::bands); 0:
    // no bands. 0 here, for the CLI and a scenario without "bands": a script's sweep costs N
    // more runs per point only when it asks. A window starts at kAppBands (Session), so that
    // its plot shows how sure the model is without being asked.
    unsigned bands = 0;
    // 10 sets: 13 runs per point instead of 3 seeds' 3, and with type-7 quantiles the 10-90%
    // band is not just the two extreme draws.
    static constexpr unsigned kAppBands = 10;
    // Whole-file walkers (rmap walks, truncate) per second in every run. Not 0 by default: a
    // split policy's cost is on the walkers' side, and a result without them shows only its
    // gain.
    // 28: libc walks/s measured on a host under memory pressure (docs/walkers.md).
    static constexpr double kDefaultWalkersPerSecond = 28.0;
    double walkersPerSecond = kDefaultWalkersPerSecond;
    // The sweep runs each policy twice, without walkers and at walkersPerSecond, so that the
    // two curves sit side by side (when walkersPerSecond is above 0). A single run (a
    // recording, the live run, `immap simulate`) always uses walkersPerSecond.
    bool walkersSideBySide = true;
    // The exec recipe (null: Recipe::builtinDefault()) and where it came from, for saving: an
    // absolute path, or the embedded JSON text; both empty for the built-in one.
    std::shared_ptr<const sim::Recipe> recipe;
    std::string recipePath;
    std::string recipeJson;
    sim::CostParams params;

    static std::vector<mapping::Policy> defaultPolicies();

    // The one SimConfig: these settings, on `topology`, under `policy`, with `copies` copies.
    // The topology (and the recipe, which this object owns) must outlive the config.
    sim::SimConfig config(const topology::Topology& topology, const mapping::Policy& policy,
                          unsigned copies) const;
    // The sweep over the grid, each run config()'s (the grid's copy counts, or the topology's
    // default ones) at each of walkerRates().
    sim::SweepConfig sweep(const topology::Topology& topology, unsigned threads) const;
    // The walker rates a sweep runs: {0, walkersPerSecond} side by side, else
    // {walkersPerSecond}.
    std::vector<double> walkerRates() const;
    // The grid's copy counts on `topology`.
    std::vector<unsigned> copiesOn(const topology::Topology& topology) const;

    // A scenario's values over the defaults. Reads its recipe (throws what Recipe::fromJson or
    // Scenario::recipeText throws); `scenarioPath` resolves a relative recipe path.
    static SimSettings fromScenario(const Scenario& s, const std::string& scenarioPath);
    // Writes these values into `s` (the fields a scenario has for them); parameters only where
    // they differ from the defaults.
    void toScenario(Scenario& s) const;

    // Loads a recipe file as the one to run (throws sim::RecipeError or io::InputError).
    void useRecipeFile(const std::string& path);

    // The grid as text, as the throughput tab's fields show it.
    std::string policiesText() const;
    std::string copiesText() const;
};

}  // namespace immap::session
