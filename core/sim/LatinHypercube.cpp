#include "sim/LatinHypercube.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace immap::sim {

namespace {

bool drawn(const CostParams::Info& info, const CostParams& base) {
    return info.low < info.high && base.*info.field == info.defaultValue;
}

// [0, 1) from the generator's top 53 bits.
double unit(std::mt19937_64& gen) {
    return static_cast<double>(gen() >> 11) * 0x1p-53;
}

}  // namespace

bool LatinHypercube::logScale(double low, double high) {
    return low > 0 && high >= 10 * low;
}

std::vector<std::string> LatinHypercube::drawnNames(const CostParams& base) {
    std::vector<std::string> out;
    for (const CostParams::Info& info : CostParams::table())
        if (drawn(info, base)) out.emplace_back(info.name);
    return out;
}

std::vector<CostParams> LatinHypercube::draw(const CostParams& base, unsigned n,
                                             std::uint64_t seed) {
    std::vector<CostParams> sets(n, base);
    if (n == 0) return sets;
    std::mt19937_64 gen(seed);
    std::vector<unsigned> strata(n);
    for (const CostParams::Info& info : CostParams::table()) {
        if (!drawn(info, base)) continue;
        // Which stratum each set takes: a Fisher-Yates shuffle of 0..n-1 (the modulo's bias is
        // below 2^-40 for any n this takes).
        std::iota(strata.begin(), strata.end(), 0u);
        for (unsigned i = n - 1; i > 0; --i)
            std::swap(strata[i], strata[static_cast<unsigned>(gen() % (i + 1))]);
        const bool log = logScale(info.low, info.high);
        const double a = log ? std::log(info.low) : info.low;
        const double b = log ? std::log(info.high) : info.high;
        for (unsigned i = 0; i < n; ++i) {
            const double u = (strata[i] + unit(gen)) / n;
            const double x = a + u * (b - a);
            // Clamped: rounding must not leave the plausible range.
            sets[i].*info.field = std::clamp(log ? std::exp(x) : x, info.low, info.high);
        }
    }
    return sets;
}

}  // namespace immap::sim
