// Benchmark, not a test: `immap validate`'s scorecard (issue 48, point 6) cold, into an empty
// run cache in a temporary directory, and warm, answered by that cache, in one process: the
// cold run is the baseline. Prints both wall times, the ratio, and checks that the warm
// scorecard is the cold one (same JSON) and that no warm run was simulated.
//   validate_cache_bench [--quick] [--threads T]
// --quick: no parameter sets drawn and one seed (the CTest smoke pass).
#include <QTemporaryDir>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "sim/RunCache.h"
#include "sim/Scorecard.h"

using namespace immap;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    sim::ScorecardConfig c;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick")) {
            c.bands = 0;
            c.seeds = 1;
        } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
            c.threads = static_cast<unsigned>(std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: validate_cache_bench [--quick] [--threads T]\n");
            return 2;
        }
    }
    QTemporaryDir dir;
    if (!dir.isValid()) return 1;
    sim::RunCache cache(dir.path().toStdString());
    c.cache = &cache;
    const std::size_t runs = sim::Scorecard::runsPerSet() * (c.bands + c.seeds);
    auto timed = [&](std::string& json) {
        const auto t0 = Clock::now();
        json = sim::Scorecard::toJson(sim::Scorecard::run(c), c);
        return std::chrono::duration<double>(Clock::now() - t0).count();
    };
    std::string cold, warm;
    const double coldS = timed(cold);
    const std::uint64_t simulated = cache.counts().misses;
    const double warmS = timed(warm);
    const sim::RunCache::Counts n = cache.counts();
    std::printf(
        "validate, %zu runs, %u threads: cold %.2f s (%llu simulated), warm %.3f s (%llu "
        "from the cache), cold/warm %.0fx\n",
        runs, c.threads, coldS, static_cast<unsigned long long>(simulated), warmS,
        static_cast<unsigned long long>(n.diskHits + n.memoryHits),
        warmS > 0 ? coldS / warmS : 0.0);
    if (warm != cold || n.misses != simulated) {
        std::fprintf(stderr, "the warm scorecard is not the cold one\n");
        return 1;
    }
    return 0;
}
