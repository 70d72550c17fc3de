// Sweep's walker dimension: the grid is walker rates outermost, then policies, then copies;
// each run gets its slice's rate (a slice is exactly the one-rate sweep at that rate); one rate
// is the grid as it was; a speedup is over single at the same copy count and walker rate; a bad
// rate is refused before any run.
#include <QTest>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include "SmallSweep.h"
#include "Suites.h"
#include "limits/LimitError.h"
#include "sim/SingleRuns.h"
#include "sim/Sweep.h"
#include "topology/Topology.h"

using namespace immap;
using namespace immap::sim;

namespace {

// 2,000 walks/s: tens of walks in a window of 20 execs per copy (about 18 ms).
constexpr double kRate = 2000;

SweepConfig grid() {
    return testing::smallSweep({1, 4}, 1);
}

// Each run's summary, as the sweep's JSON prints it.
std::vector<std::string> summaries(const std::vector<SimResult>& runs) {
    std::vector<std::string> out;
    for (const SimResult& r : runs)
        out.push_back(r.toJson(false));
    return out;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');)
        out.push_back(cell);
    return out;
}

SimResult point(const char* policy, unsigned copies, double walkers, double execs) {
    SimResult r;
    r.policy = policy;
    r.copies = copies;
    r.walkersPerSecond = walkers;
    r.execsPerSecond = execs;
    return r;
}

}  // namespace

class TestSweep : public QObject {
    Q_OBJECT

private slots:
    void gridIsRatesThenPoliciesThenCopies() {
        SweepConfig c = grid();
        c.walkerRates = {0, kRate};
        QCOMPARE(c.gridSize(), std::size_t{8});
        const std::vector<SimResult> runs = Sweep::run(c);
        QCOMPARE(runs.size(), std::size_t{8});
        const char* policies[] = {"single", "split-locks"};
        const unsigned copies[] = {1, 4};
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const double rate = i < 4 ? 0 : kRate;
            QCOMPARE(runs[i].walkersPerSecond, rate);
            QCOMPARE(runs[i].policy, std::string(policies[i / 2 % 2]));
            QCOMPARE(runs[i].copies, copies[i % 2]);
            // The walkers ran where the rate says, and only there.
            if (rate > 0)
                QVERIFY2(runs[i].walks > 0, qPrintable(QString::number(i)));
            else
                QCOMPARE(runs[i].walks, std::uint64_t{0});
        }
    }

    // Each slice is the one-rate sweep at its rate, run for run: the grid hands each run its
    // rate and nothing else changes.
    void eachSliceIsTheSweepAtItsRate() {
        SweepConfig both = grid();
        both.seeds = 2;
        both.walkerRates = {kRate, 0};  // any order: the grid keeps it
        const std::vector<std::string> all = summaries(Sweep::run(both));
        SweepConfig alone = grid();
        alone.seeds = 2;
        alone.run.walkersPerSecond = kRate;
        const std::vector<std::string> with = summaries(Sweep::run(alone));
        alone.run.walkersPerSecond = 0;
        const std::vector<std::string> without = summaries(Sweep::run(alone));
        QCOMPARE(std::vector<std::string>(all.begin(), all.begin() + 4), with);
        QCOMPARE(std::vector<std::string>(all.begin() + 4, all.end()), without);
        QVERIFY(with != without);
    }

    // No walkerRates is run.walkersPerSecond alone, the grid and outputs as before there were
    // several rates; the CSV's last column is the rate.
    void oneRateIsTheOldGrid() {
        SweepConfig c = grid();
        c.run.walkersPerSecond = kRate;
        QCOMPARE(c.rates(), std::vector<double>{kRate});
        QCOMPARE(c.gridSize(), std::size_t{4});
        const std::vector<SimResult> implicit = Sweep::run(c);
        c.walkerRates = {kRate};
        const std::vector<SimResult> explicitly = Sweep::run(c);
        QCOMPARE(Sweep::toCsv(implicit), Sweep::toCsv(explicitly));
        QCOMPARE(Sweep::toJson(implicit), Sweep::toJson(explicitly));
        std::stringstream csv(Sweep::toCsv(implicit));
        std::string header, line;
        std::getline(csv, header);
        QCOMPARE(header,
                 std::string("policy,copies,execs_per_s,speedup_vs_single,max_lock_utilisation,"
                             "walker_latency_mean_ns,walker_latency_p99_ns,memory_per_inode_bytes,"
                             "seed,seeds,execs_per_s_min,execs_per_s_max,walkers_per_s"));
        while (std::getline(csv, line))
            QCOMPARE(split(line).back(), std::string("2000"));
    }

    // The index against a scan of every run (the rule before the index): random grids with
    // repeated points (the first single counts), missing singles, single at 0 execs/s, and
    // band draws with a zero.
    void singleIndexAgreesWithAScan() {
        std::uint64_t x = 12345;
        auto next = [&](std::uint64_t n) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            return (x >> 33) % n;
        };
        const char* policies[] = {"single", "split-locks", "sharded:4"};
        for (int trial = 0; trial < 50; ++trial) {
            std::vector<SimResult> runs;
            for (std::uint64_t i = 0, n = 1 + next(60); i < n; ++i) {
                SimResult r = point(policies[next(3)], static_cast<unsigned>(1 + next(4)),
                                    next(2) ? 0.0 : 28.0, static_cast<double>(next(5)) * 100);
                for (int d = 0; d < 3; ++d)
                    r.bandRates.push_back(static_cast<double>(next(3)));
                runs.push_back(r);
            }
            const SingleRuns singles(runs);
            for (const SimResult& r : runs) {
                const SimResult* s = nullptr;
                for (const SimResult& c : runs)
                    if (c.policy == "single" && c.copies == r.copies &&
                        c.walkersPerSecond == r.walkersPerSecond) {
                        s = &c;
                        break;
                    }
                const double want =
                    s && s->execsPerSecond > 0 ? r.execsPerSecond / s->execsPerSecond : 0.0;
                QCOMPARE(singles.speedup(r), want);
                const std::vector<double> draws = singles.draws(r);
                QCOMPARE(draws.size(), s ? std::size_t{3} : std::size_t{0});
                for (std::size_t d = 0; d < draws.size(); ++d)
                    if (s->bandRates[d] > 0)
                        QCOMPARE(draws[d], r.bandRates[d] / s->bandRates[d]);
                    else
                        QVERIFY(std::isnan(draws[d]));
            }
        }
    }

    // Hand-made points where the rate decides the answer: split-locks at 100 walks/s is twice
    // single at 100 walks/s, and would read 1.0 against single without walkers.
    void speedupIsOverSingleAtTheSameRate() {
        const std::vector<SimResult> runs = {
            point("single", 8, 0, 1000),        point("split-locks", 8, 0, 4000),
            point("single", 8, 100, 500),       point("split-locks", 8, 100, 1000),
            point("split-locks", 16, 100, 900),  // no single at 16
        };
        const SingleRuns singles(runs);
        QCOMPARE(singles.speedup(runs[1]), 4.0);
        QCOMPARE(singles.speedup(runs[3]), 2.0);
        QCOMPARE(singles.speedup(runs[2]), 1.0);
        QCOMPARE(singles.speedup(runs[4]), 0.0);
        // The same rule in the rows the outputs print.
        const std::vector<SweepRow> rows = Sweep::rows(runs);
        QCOMPARE(SingleRuns(rows).speedup(rows[3]), 2.0);
        QCOMPARE(rows[3].walkersPerSecond, 100.0);
    }

    // In a simulated two-rate sweep, every CSV line's speedup against the ratio worked out from
    // the CSV's own execs/s, policy, copies and walkers_per_s columns.
    void csvSpeedupsMatchTheirOwnColumns() {
        SweepConfig c = grid();
        c.walkerRates = {0, kRate};
        std::stringstream csv(Sweep::toCsv(Sweep::run(c)));
        std::string line;
        std::getline(csv, line);
        std::vector<std::vector<std::string>> rows;
        while (std::getline(csv, line))
            rows.push_back(split(line));
        QCOMPARE(rows.size(), std::size_t{8});
        std::map<std::pair<std::string, std::string>, double> single;  // (copies, rate)
        for (const auto& r : rows)
            if (r[0] == "single") single[{r[1], r[12]}] = std::stod(r[2]);
        QCOMPARE(single.size(), std::size_t{4});
        for (const auto& r : rows) {
            const double want = std::stod(r[2]) / single.at({r[1], r[12]});
            QVERIFY2(std::abs(std::stod(r[3]) - want) <= 1e-8 * want,
                     qPrintable(QString::fromStdString(r[0] + " " + r[1] + " " + r[12])));
        }
        // The walkers cost single something at 4 copies: the two slices differ.
        QVERIFY(single.at({"4", "0"}) != single.at({"4", "2000"}));
    }

    // A point without a steady state carries its verdict into the sweep's CSV (a last column,
    // quoted: the verdict has commas) and JSON; the others have an empty field.
    void overloadReachesTheRows() {
        const topology::Topology two = topology::Topology::fromSpec("synthetic:pu:2");
        SweepConfig c;
        c.run.topology = &two;
        c.run.durationMs = 1;
        c.run.params.warmupMaxMs = 10;
        c.policies = {mapping::Policy{}};
        c.copies = {2};
        c.walkerRates = {0, 1e6};
        c.seeds = 1;
        c.threads = 1;
        const std::vector<SimResult> runs = Sweep::run(c);
        QCOMPARE(runs.size(), std::size_t{2});
        QVERIFY(runs[0].overload.empty());
        QVERIFY(runs[1].overload.find("no steady state") != std::string::npos);
        const std::string csv = Sweep::toCsv(runs);
        std::istringstream in(csv);
        std::string header, quiet, saturated;
        std::getline(in, header);
        std::getline(in, quiet);
        std::getline(in, saturated);
        QVERIFY2(header.size() > 9 && header.substr(header.size() - 9) == ",overload",
                 header.c_str());
        QVERIFY2(quiet.back() == ',', quiet.c_str());  // empty last field
        QVERIFY2(saturated.find(",\"the walkers saturate libc.so.6: ") != std::string::npos,
                 saturated.c_str());
        QVERIFY(Sweep::toJson(runs).find("\"overload\": \"the walkers saturate") !=
                std::string::npos);
    }

    void checkRefusesABadRate() {
        for (double bad : {-1.0, 1e9, std::numeric_limits<double>::quiet_NaN()}) {
            SweepConfig c = grid();
            c.walkerRates = {0, bad};
            try {
                Sweep::check(c);
                QFAIL(qPrintable(QString("rate %1 accepted").arg(bad)));
            } catch (const limits::LimitError& e) {
                QVERIFY2(std::string(e.what()).find("walkers must be from 0 to 1000000 per s") !=
                             std::string::npos,
                         e.what());
            }
        }
        SweepConfig c = grid();
        c.walkerRates = {0, kRate};
        Sweep::check(c);  // does not throw
    }
};

IMMAP_TEST_SUITE(TestSweep);
#include "TestSweep.moc"
