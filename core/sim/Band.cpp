#include "sim/Band.h"

#include <algorithm>
#include <cmath>

namespace immap::sim {

double Band::quantile(const std::vector<double>& sorted, double q) {
    const double h = (static_cast<double>(sorted.size()) - 1) * q;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

Band Band::of(std::vector<double> values) {
    Band b;
    if (values.empty()) return b;
    std::sort(values.begin(), values.end());
    b.p10 = quantile(values, 0.1);
    b.median = quantile(values, 0.5);
    b.p90 = quantile(values, 0.9);
    b.valid = true;
    return b;
}

}  // namespace immap::sim
