#pragma once
// The clock a benchmark times with, and what one reading of it costs: each timed run of ops
// has one clock pair's cost taken off. Shared by TreeBench and tests/bench.

#include <algorithm>
#include <chrono>
#include <vector>

namespace immap::itree {

using BenchClock = std::chrono::steady_clock;

inline double nsBetween(BenchClock::time_point a, BenchClock::time_point b) {
    return std::chrono::duration<double, std::nano>(b - a).count();
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// The median cost of one clock pair.
inline double clockOverheadNs() {
    std::vector<double> d(2001);
    for (double& x : d) {
        const auto a = BenchClock::now();
        const auto b = BenchClock::now();
        x = nsBetween(a, b);
    }
    return median(d);
}

}  // namespace immap::itree
