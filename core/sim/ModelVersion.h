#pragma once
// The simulator's behaviour, as a number that the run cache (RunCache, docs/cache.md) puts in
// every key: a cached result is served only to a run of the same model version.
//
// BUMP kModelVersion IN ANY CHANGE THAT CAN CHANGE A SIMULATED FIGURE: the simulator, the cost
// model, placement, the rwsem, the caches, the recipe's planning, a parameter's meaning or
// default, a new SimResult field. Otherwise every user's cache keeps answering with the old
// model's figures. A pure speed-up that leaves every result bit-identical needs no bump.
// After a bump, bake the shipped workshops again (`immap sweep --scenario FILE --bake` for each
// of samples/workshops/*.json with "results"): TestWorkshop fails until every run is carried.

namespace immap::sim {

inline constexpr int kModelVersion = 1;

}  // namespace immap::sim
