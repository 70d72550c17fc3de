#pragma once
// Parameter sets drawn over the cost parameters' plausible ranges (CostParams::Info low..high)
// by Latin hypercube sampling (McKay, Beckman and Conover, 1979): each drawn parameter's range
// is cut into n equal-probability strata and every stratum is used exactly once, so n sets
// cover each range evenly even when n is small. A band over the sets says how much the
// parameters' uncertainty moves a result (issue 18, point 3).
//
// Drawn: the parameters whose plausible range is not a point and whose value in `base` is
// still the default (a value the user set is held where they set it). A range spanning a
// factor of 10 or more is drawn log-uniformly (its source gives an order of magnitude, not a
// value), others uniformly. Deterministic for a seed on every platform: the generator is
// std::mt19937_64 and the mapping to [0, 1) is written here, not left to a distribution.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/CostParams.h"

namespace immap::sim {

class LatinHypercube {
public:
    // The parameters draw() varies over `base`, in table order.
    static std::vector<std::string> drawnNames(const CostParams& base);
    // n parameter sets: `base` with each drawn parameter set to its stratum's value.
    static std::vector<CostParams> draw(const CostParams& base, unsigned n, std::uint64_t seed);
    // True when the range low..high is drawn log-uniformly.
    static bool logScale(double low, double high);
};

}  // namespace immap::sim
