#include "measure/LoadLatencyBench.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <vector>

namespace immap::measure {

namespace {

struct alignas(64) Line {
    const Line* next;
};

// Each pass's end is stored here before the clock is read, so the loads stay inside the timing.
const Line* volatile gSink = nullptr;

}  // namespace

double LoadLatencyBench::chase(std::size_t bytes, std::size_t loads) {
    const std::size_t n = std::max<std::size_t>(2, bytes / sizeof(Line));
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    // A random cycle: the prefetchers cannot guess the next line.
    std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
    std::vector<Line> lines(n);
    for (std::size_t i = 0; i < n; ++i)
        lines[order[i]].next = &lines[order[(i + 1) % n]];
    const Line* p = &lines[0];
    for (std::size_t i = 0; i < 4 * n; ++i)  // warm: the buffer is in the cache it measures
        p = p->next;
    double best = 0;
    for (int pass = 0; pass < 5; ++pass) {
        const auto t0 = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < loads; ++i)
            p = p->next;
        gSink = p;
        const auto t1 = std::chrono::steady_clock::now();
        const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() /
                          static_cast<double>(std::max<std::size_t>(loads, 1));
        best = pass == 0 ? ns : std::min(best, ns);
    }
    return best;
}

LoadLatencyResult LoadLatencyBench::run(std::size_t loads) {
    return {chase(16 * 1024, loads), chase(256 * 1024, loads)};
}

}  // namespace immap::measure
