#pragma once
// Which drawn parameters move a result most (issue 18, point 3): over the parameter sets of a
// band (LatinHypercube), Spearman's rank correlation between each parameter's value and the
// result, and the result's median over the sets with the parameter in the lower and the upper
// half of its range. A user reads it as "measure these on your machine first".

#include <cstddef>
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
    // The fewest parameter sets a table is made from. Over n sets with no relation at all,
    // chance alone gives |rho| above noiseLevel(n) one time in 20; below 5 sets not even a
    // perfect ordering means anything (at 4 sets one in 12 is perfect by chance), and at
    // 1 or 2 every rho is 0 or +-1 and one half is empty. At 10 sets the level is 0.65 and
    // each half's median is over 5 sets: a parameter that orders the results nearly alone
    // stands out, and that is the least a "measure these first" table must show.
    static constexpr std::size_t kMinSets = 10;
    // The |rho| that n unrelated sets exceed one time in 20 (two-sided 5%): 1.96 / sqrt(n - 1),
    // rho's normal approximation under independence (0.65 at 10 sets, 0.41 at 24).
    static double noiseLevel(std::size_t sets);
    // One entry per name in `names` (parameters of `draws`), sorted by |rho|, largest first.
    // `result[d]` is the result under draws[d]; sizes must match and be at least kMinSets
    // (else empty).
    static std::vector<Entry> rank(const std::vector<CostParams>& draws,
                                   const std::vector<std::string>& names,
                                   const std::vector<double>& result);
    // Spearman's rho of two equally long samples (mid-ranks for ties); 0 if either is constant.
    static double spearman(const std::vector<double>& x, const std::vector<double>& y);
};

}  // namespace immap::sim
