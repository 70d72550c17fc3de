// Benchmark, not a test: a sweep's outputs against the number of points (issue 47 point 8).
// Every output divides each point by single's at the same copy count and walker rate; a scan of
// all rows per row made the outputs O(rows^2). Builds rows for grids of N and 4N points (2
// walker rates x 10 policies x C copy counts, each with band draws, as a merged sweep holds) and
// times, median of 5 runs each:
//   speedups: every row's speedup and band (sim::SingleRuns, the index the outputs use);
//   csv:      SweepRow::toCsv, what `immap sweep --csv` and `sweep merge -o X.csv` write;
//   json:     SweepRow::toJson, what `--json` prints and `sweep merge -o X.json` writes.
// Prints each time and time(4N)/time(N): about 4 when linear (4.3 at N log N over these sizes),
// 16 when quadratic.
//   sweep_output_bench [--quick]     (--quick: N = 400 instead of 10,000, CTest's smoke pass)
#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "sim/SingleRuns.h"
#include "sim/SweepRow.h"

using namespace immap;
using Clock = std::chrono::steady_clock;

namespace {

// A grid of `copies` copy counts: rows in grid order (walker rates, policies, copies), their
// values made up but of a run's shape (seed rates, band draws, a summary with a lock).
std::vector<sim::SweepRow> rows(unsigned copies) {
    const char* policies[] = {"single",    "split-trees",      "split-locks", "sharded:2",
                              "sharded:4", "sharded:8",        "sharded:16",  "no-rmap",
                              "btree",     "btree+split-locks"};
    std::vector<sim::SweepRow> out;
    for (double rate : {0.0, 28.0})
        for (const char* policy : policies)
            for (unsigned c = 1; c <= copies; ++c) {
                sim::SweepRow r;
                r.policy = policy;
                r.copies = c;
                r.walkersPerSecond = rate;
                r.execsPerSecond = 1000.0 + c * 7.0 + static_cast<double>(r.policy.size());
                r.seedRates = {r.execsPerSecond - 1, r.execsPerSecond + 1};
                r.bandRates = {r.execsPerSecond * 0.9, r.execsPerSecond, r.execsPerSecond * 1.1};
                r.seed = 1;
                r.memoryPerInodeBytes = 872;
                r.maxUtilisation = 0.5;
                r.summary = {
                    {"policy", policy},
                    {"copies", static_cast<double>(c)},
                    {"execs_per_s", r.execsPerSecond},
                    {"locks", QJsonArray{QJsonObject{{"name", "libc"}, {"utilisation", 0.5}}}}};
                out.push_back(std::move(r));
            }
    return out;
}

// Median seconds of 5 runs of `f`.
double median(const std::function<void()>& f) {
    std::vector<double> s;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = Clock::now();
        f();
        s.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::sort(s.begin(), s.end());
    return s[2];
}

volatile double sink = 0;  // keeps the speedup pass from being optimised away

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && !std::strcmp(argv[1], "--quick");
    const unsigned copies = quick ? 20 : 500;  // N = 2 x 10 x copies points
    const std::vector<sim::SweepRow> small = rows(copies), large = rows(copies * 4);
    struct Output {
        const char* name;
        std::function<void(const std::vector<sim::SweepRow>&)> run;
    };
    const Output outputs[] = {
        {"speedups",
         [](const std::vector<sim::SweepRow>& r) {
             const sim::SingleRuns singles(r);
             double sum = 0;
             for (const sim::SweepRow& row : r)
                 sum += singles.speedup(row) + singles.band(row).median;
             sink = sum;
         }},
        {"csv",
         [](const std::vector<sim::SweepRow>& r) {
             sink = static_cast<double>(sim::SweepRow::toCsv(r).size());
         }},
        {"json",
         [](const std::vector<sim::SweepRow>& r) {
             sink = static_cast<double>(sim::SweepRow::toJson(r).size());
         }},
    };
    std::printf("sweep outputs, N = %zu and 4N = %zu points\n", small.size(), large.size());
    std::printf("%-10s %12s %12s %14s\n", "output", "N (ms)", "4N (ms)", "4N / N");
    for (const Output& o : outputs) {
        const double a = median([&] { o.run(small); }), b = median([&] { o.run(large); });
        std::printf("%-10s %12.2f %12.2f %14.2f\n", o.name, a * 1e3, b * 1e3, b / a);
    }
    std::printf("linear: about 4; quadratic (a scan of every row per row): about 16\n");
    return 0;
}
