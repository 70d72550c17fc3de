#include "sim/Sensitivity.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/Band.h"

namespace immap::sim {

namespace {

// 1-based ranks, ties given the mean of the ranks they span.
std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<std::size_t> order(v.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
            ++j;
        const double mid = (static_cast<double>(i + j) + 2) / 2;
        for (std::size_t k = i; k <= j; ++k)
            r[order[k]] = mid;
        i = j + 1;
    }
    return r;
}

}  // namespace

double Sensitivity::spearman(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size() || x.size() < 2) return 0;
    const std::vector<double> rx = ranks(x), ry = ranks(y);
    const double n = static_cast<double>(x.size());
    const double mean = (n + 1) / 2;
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < rx.size(); ++i) {
        sxy += (rx[i] - mean) * (ry[i] - mean);
        sxx += (rx[i] - mean) * (rx[i] - mean);
        syy += (ry[i] - mean) * (ry[i] - mean);
    }
    return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
}

double Sensitivity::noiseLevel(std::size_t sets) {
    return sets < 2 ? 1 : 1.96 / std::sqrt(static_cast<double>(sets) - 1);
}

std::vector<Sensitivity::Entry> Sensitivity::rank(const std::vector<CostParams>& draws,
                                                  const std::vector<std::string>& names,
                                                  const std::vector<double>& result) {
    std::vector<Entry> out;
    if (draws.size() != result.size() || draws.size() < kMinSets) return out;
    for (const std::string& name : names) {
        std::vector<double> x;
        for (const CostParams& p : draws)
            x.push_back(p.get(name));
        std::vector<double> sorted = x;
        std::sort(sorted.begin(), sorted.end());
        const double mid = Band::quantile(sorted, 0.5);
        std::vector<double> low, high;
        for (std::size_t d = 0; d < x.size(); ++d)
            (x[d] < mid ? low : high).push_back(result[d]);
        out.push_back({name, spearman(x, result), Band::of(low).median, Band::of(high).median});
    }
    std::stable_sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) {
        return std::abs(a.rho) > std::abs(b.rho);
    });
    return out;
}

}  // namespace immap::sim
