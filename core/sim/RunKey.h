#pragma once
// What decides a simulation run's result, as text and as a hash: the cache key of RunCache
// (docs/cache.md). The text names every field of SimConfig that the simulator reads (the
// machine as loaded, not its spec alone; the recipe's content, not its path; the policy; the
// counts, seed, window and walkers; every CostParams field; the unlink batch; the extra shared
// lines) and kModelVersion. A field added to SimConfig, Recipe, RecipeFile, RecipeStep, Policy
// ExtraSharedLine or SharedLineKind stops RunKey.cpp compiling until it is named here, so that no
// field can decide a result without deciding its key.

#include <string>

#include "sim/ModelVersion.h"
#include "sim/Simulator.h"

namespace immap::sim {

class RunKey {
public:
    // One "name=value" a line, numbers exact (shortest round-trip form).
    // `modelVersion` is kModelVersion but in tests of a bump.
    static std::string canonicalText(const SimConfig& config, int modelVersion = kModelVersion);
    // SHA-256 of canonicalText, 64 lowercase hex digits.
    static std::string of(const SimConfig& config, int modelVersion = kModelVersion);
    // Whether `text` looks like a key (64 lowercase hex digits).
    static bool wellFormed(const std::string& text);
};

}  // namespace immap::sim
