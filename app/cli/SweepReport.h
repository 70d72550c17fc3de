#pragma once
// `immap sweep`'s text output: one line per point, and for a banded sweep the headline ratios
// with their bands and the parameters that move them most.

#include <string>
#include <vector>

#include "sim/CostParams.h"
#include "sim/SimResult.h"

namespace immap::cli {

class SweepReport {
public:
    static std::string table(const std::vector<sim::SimResult>& runs);
    // Each policy over single at the largest copy count, per walker rate, with its 10-90% band
    // ("split-locks/single at 384: 7.9x [4.6, 13.0]"), then for each at the first walker rate
    // the `top` drawn parameters that move it most (Sensitivity). `base`, `bands` and `seed`
    // are the sweep's (its draws are made again from them). Empty without bands.
    static std::string bands(const std::vector<sim::SimResult>& runs, const sim::CostParams& base,
                             unsigned bands, std::uint64_t seed, std::size_t top = 6);
};

}  // namespace immap::cli
