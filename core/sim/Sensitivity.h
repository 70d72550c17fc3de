#pragma once
// Which drawn parameters move a result most (issue 18, point 3): over the parameter sets of a
// band (LatinHypercube), Spearman's rank correlation between each parameter's value and the
// result, and the result's median over the sets with the parameter in the lower and the upper
// half of its range. A user reads it as "measure these on your machine first".

#include <string>
#include <vector>

#include "sim/CostParams.h"

namespace immap::sim {

class Sensitivity {
public:
    struct Entry {
        std::string name;
        double rho = 0;       // -1..1; 0 when either side is constant
        double lowHalf = 0;   // the result's median over the sets below the parameter's median
        double highHalf = 0;  // ... and at or above it
    };
    // One entry per name in `names` (parameters of `draws`), sorted by |rho|, largest first.
    // `result[d]` is the result under draws[d]; sizes must match (else empty).
    static std::vector<Entry> rank(const std::vector<CostParams>& draws,
                                   const std::vector<std::string>& names,
                                   const std::vector<double>& result);
    // Spearman's rho of two equally long samples (mid-ranks for ties); 0 if either is constant.
    static double spearman(const std::vector<double>& x, const std::vector<double>& y);
};

}  // namespace immap::sim
