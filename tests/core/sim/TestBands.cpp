// Bands (issue 18, point 3): the Latin hypercube covers each plausible range once per stratum;
// the band's quantiles and Spearman's rho against hand computations; a banded sweep's draws are
// exactly runs under the drawn parameters (brute force); and at one copy, where an exec is its
// unlocked work plus a few µs, each draw's rate is within the hand bound 1e9 / (unlocked + rest)
// and the band holds the point estimate.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "SmallSweep.h"
#include "Suites.h"
#include "sim/Band.h"
#include "sim/LatinHypercube.h"
#include "sim/Sensitivity.h"
#include "sim/SingleRuns.h"
#include "sim/Sweep.h"
#include "sim/SweepRow.h"
#include "topology/Topology.h"

using namespace immap;
using namespace immap::sim;

namespace {

const CostParams::Info& info(const std::string& name) {
    for (const CostParams::Info& i : CostParams::table())
        if (name == i.name) return i;
    qFatal("no parameter %s", name.c_str());
}

}  // namespace

class TestBands : public QObject {
    Q_OBJECT

private slots:
    // Each drawn parameter takes each of the n strata of its range exactly once (on a log
    // scale for a range of 10x or more); ranges that are a point, and values the user set,
    // stay; the same seed draws the same sets, another seed others.
    void latinHypercubeUsesEveryStratumOnce() {
        CostParams base;
        base.memLocalNs = 55;  // set by the user: not drawn
        const unsigned n = 17;
        const std::vector<CostParams> sets = LatinHypercube::draw(base, n, 42);
        QCOMPARE(sets.size(), std::size_t{n});
        const std::vector<std::string> drawn = LatinHypercube::drawnNames(base);
        QVERIFY(std::find(drawn.begin(), drawn.end(), "mem_local_ns") == drawn.end());
        QVERIFY(std::find(drawn.begin(), drawn.end(), "pcpu_lock_lines") != drawn.end());
        for (const CostParams::Info& i : CostParams::table()) {
            const bool isDrawn = std::find(drawn.begin(), drawn.end(), i.name) != drawn.end();
            QCOMPARE(isDrawn, i.low < i.high && std::string(i.name) != "mem_local_ns");
            std::set<int> strata;
            for (const CostParams& p : sets) {
                const double v = p.*i.field;
                if (!isDrawn) {
                    QCOMPARE(v, base.*i.field);
                    continue;
                }
                QVERIFY2(v >= i.low && v <= i.high, i.name);
                const bool log = LatinHypercube::logScale(i.low, i.high);
                const double u =
                    log ? (std::log(v) - std::log(i.low)) / (std::log(i.high) - std::log(i.low))
                        : (v - i.low) / (i.high - i.low);
                strata.insert(std::min(static_cast<int>(n) - 1, static_cast<int>(u * n)));
            }
            if (isDrawn) QVERIFY2(strata.size() == n, i.name);
        }
        QVERIFY(LatinHypercube::logScale(info("work_lines_per_us").low,
                                         info("work_lines_per_us").high));
        const std::vector<CostParams> again = LatinHypercube::draw(base, n, 42);
        const std::vector<CostParams> other = LatinHypercube::draw(base, n, 43);
        for (unsigned d = 0; d < n; ++d) {
            QCOMPARE(again[d].pcpuLockLines, sets[d].pcpuLockLines);
            QCOMPARE(again[d].writeFraction, sets[d].writeFraction);
        }
        QVERIFY(other[0].pcpuLockLines != sets[0].pcpuLockLines);
        QVERIFY(LatinHypercube::draw(base, 0, 1).empty());
    }

    // R's and NumPy's default quantiles (type 7) of 1..10: 1.9, 5.5, 9.1.
    void bandQuantilesByHand() {
        const Band b = Band::of({7, 3, 10, 1, 9, 2, 8, 4, 6, 5});
        QVERIFY(b.valid);
        QCOMPARE(b.p10, 1.9);
        QCOMPARE(b.median, 5.5);
        QCOMPARE(b.p90, 9.1);
        QVERIFY(b.contains(1.9) && b.contains(9.1) && !b.contains(9.2) && !b.contains(1.8));
        const Band one = Band::of({4});
        QCOMPARE(one.p10, 4.0);
        QCOMPARE(one.p90, 4.0);
        QVERIFY(!Band::of({}).valid);
        QVERIFY(!Band{}.contains(0));
    }

    // rho = 1 - 6 sum d^2 / (n (n^2 - 1)) without ties; mid-ranks with them.
    void spearmanByHand() {
        const std::vector<double> x = {1, 2, 3, 4, 5};
        QCOMPARE(Sensitivity::spearman(x, {1, 8, 27, 64, 125}), 1.0);
        QCOMPARE(Sensitivity::spearman(x, {5, 4, 3, 2, 1}), -1.0);
        QCOMPARE(Sensitivity::spearman(x, {2, 1, 4, 3, 5}), 0.8);
        QCOMPARE(Sensitivity::spearman(x, {7, 7, 7, 7, 7}), 0.0);
        // Ties: ranks of {1, 2, 2, 3} are {1, 2.5, 2.5, 4}; against 1..4 the Pearson
        // correlation of the ranks is 4.5 / sqrt(5 * 4.5).
        QVERIFY(std::abs(Sensitivity::spearman({1, 2, 2, 3}, {1, 2, 3, 4}) -
                         4.5 / std::sqrt(5 * 4.5)) < 1e-12);
    }

    // The noise level against every ordering (issue 47, point 7): over n unrelated sets each
    // of the n! orderings of the results is equally likely, so the share of them whose |rho|
    // exceeds noiseLevel(n) is the chance of a spurious rho that large. Counted exhaustively.
    void noiseLevelIsOneTimeInTwentyOverEveryOrdering() {
        for (std::size_t n : {6, 8}) {
            std::vector<double> x(n), y(n);
            std::iota(x.begin(), x.end(), 1.0);
            y = x;
            std::size_t above = 0, all = 0;
            do {
                above += std::abs(Sensitivity::spearman(x, y)) > Sensitivity::noiseLevel(n) + 1e-12;
                ++all;
            } while (std::next_permutation(y.begin(), y.end()));
            const double share = static_cast<double>(above) / static_cast<double>(all);
            // At most 5%; the normal approximation is a little strict for few sets (exact
            // counts: 24 of 720 at 6 sets, 1,482 of 40,320 at 8).
            QVERIFY2(share <= 0.05 && share > 0.03, qPrintable(QString::number(share)));
        }
        // At 4 sets a perfect ordering, either way, is 2 of the 24: more than one time in 20.
        QVERIFY(2.0 / 24 > 0.05);
        QVERIFY(Sensitivity::noiseLevel(4) > 1);
        QVERIFY(std::abs(Sensitivity::noiseLevel(10) - 0.653) < 1e-3);
        QVERIFY(std::abs(Sensitivity::noiseLevel(24) - 0.409) < 1e-3);
    }

    // Below kMinSets no table: at 1 set the lower half was empty (its median printed 0.00x),
    // at 2 every rho was +-1.
    void noTableBelowTheMinimum() {
        CostParams base;
        const std::vector<std::string> names = LatinHypercube::drawnNames(base);
        for (std::size_t n : {std::size_t{1}, std::size_t{2}, Sensitivity::kMinSets - 1}) {
            const std::vector<CostParams> sets =
                LatinHypercube::draw(base, static_cast<unsigned>(n), 1);
            std::vector<double> result(n);
            std::iota(result.begin(), result.end(), 1.0);
            QVERIFY(Sensitivity::rank(sets, names, result).empty());
        }
        const std::size_t n = Sensitivity::kMinSets;
        const std::vector<CostParams> sets =
            LatinHypercube::draw(base, static_cast<unsigned>(n), 1);
        std::vector<double> result;
        for (const CostParams& p : sets)
            result.push_back(p.get(names.front()));
        const auto ranked = Sensitivity::rank(sets, names, result);
        QCOMPARE(ranked.size(), names.size());
        QCOMPARE(ranked.front().name, names.front());
        QCOMPARE(ranked.front().rho, 1.0);
        // Each half holds 5 sets: their medians are the 3rd and 8th smallest results.
        std::vector<double> sorted = result;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(ranked.front().lowHalf, sorted[2]);
        QCOMPARE(ranked.front().highHalf, sorted[7]);
    }

    // A banded point's draws are the runs under the drawn sets, seeded after the point's seeds;
    // its speedup band is the draws' own ratios; the point's fields are the plain sweep's.
    void bandedSweepDrawsAreRunsUnderTheDrawnSets() {
        SweepConfig c = testing::smallSweep({2, 4}, 2);
        const std::vector<SimResult> plain = Sweep::run(c);
        c.bands = 4;
        const std::vector<SimResult> banded = Sweep::run(c);
        QCOMPARE(banded.size(), plain.size());
        const std::vector<CostParams> sets = LatinHypercube::draw(c.run.params, 4, c.run.seed);
        for (std::size_t i = 0; i < banded.size(); ++i) {
            QCOMPARE(banded[i].execsPerSecond, plain[i].execsPerSecond);
            QCOMPARE(banded[i].seedRates, plain[i].seedRates);
            QCOMPARE(banded[i].bandRates.size(), std::size_t{4});
            for (unsigned d = 0; d < 4; ++d) {
                SimConfig one = c.run;
                one.policy = c.policies[i / c.copies.size()];
                one.copies = banded[i].copies;
                one.params = sets[d];
                one.seed = c.run.seed + c.seeds + d;
                QCOMPARE(banded[i].bandRates[d], Simulator(one).run().execsPerSecond);
            }
        }
        const SimResult& split = banded[2];  // split-locks at 2 copies
        QCOMPARE(split.policy, std::string("split-locks"));
        std::vector<double> ratios;
        for (unsigned d = 0; d < 4; ++d)
            ratios.push_back(split.bandRates[d] / banded[0].bandRates[d]);
        const Band want = Band::of(ratios), got = SingleRuns(banded).band(split);
        QCOMPARE(got.p10, want.p10);
        QCOMPARE(got.median, want.median);
        QCOMPARE(got.p90, want.p90);
        QVERIFY(!SingleRuns(plain).band(plain[2]).valid);
    }

    // One copy on the capture host: an exec is unlocked_ns_per_exec plus 18 µs of locked and
    // shared-line work at the defaults (under 50 µs anywhere in the plausible ranges), so each
    // draw's rate lies between 1e9 / (unlocked + 50 µs) and 1e9 / unlocked, and the band
    // (850-950 µs around the default 888 µs) holds the point. The
    // unlocked work is what moves the rate: it ranks first, with rho near -1.
    void oneCopyBandIsTheHandFigure() {
        const topology::Topology host = topology::Topology::fromSpec(
            std::string("xml:") + IMMAP_SAMPLES + "/topologies/host-2cpu.xml");
        SweepConfig c;
        c.run.topology = &host;
        c.run.durationMs = 200;
        c.policies = {mapping::Policy{}};
        c.copies = {1};
        c.seeds = 1;
        c.bands = 12;
        const std::vector<SimResult> r = Sweep::run(c);
        QCOMPARE(r.size(), std::size_t{1});
        const std::vector<CostParams> sets = LatinHypercube::draw(c.run.params, 12, c.run.seed);
        std::vector<double> rates;
        for (unsigned d = 0; d < 12; ++d) {
            const double u = sets[d].unlockedNsPerExec;
            QVERIFY2(
                r[0].bandRates[d] <= 1e9 / u && r[0].bandRates[d] >= 1e9 / (u + 50'000),
                qPrintable(QString("draw %1: %2 for %3 ns").arg(d).arg(r[0].bandRates[d]).arg(u)));
            rates.push_back(r[0].bandRates[d]);
        }
        const Band b = Band::of(rates);
        QVERIFY2(
            b.contains(r[0].execsPerSecond),
            qPrintable(
                QString("%1 outside [%2, %3]").arg(r[0].execsPerSecond).arg(b.p10).arg(b.p90)));
        const auto ranked =
            Sensitivity::rank(sets, LatinHypercube::drawnNames(c.run.params), rates);
        QCOMPARE(ranked.front().name, std::string("unlocked_ns_per_exec"));
        QVERIFY(ranked.front().rho < -0.9);
        QVERIFY(ranked.front().lowHalf > ranked.front().highHalf);
    }
};

IMMAP_TEST_SUITE(TestBands);
#include "TestBands.moc"
