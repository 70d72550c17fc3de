// A sweep's points as they stream in: the results with a point callback are exactly those
// without one (the known answer: the plain run on one thread); each update is the point over
// the runs finished so far (its mean the mean of its seeds' rates, its bands that many draws),
// the last one of each point is the point returned; the updates come in phase order (every
// first seed, costliest first, then the other seeds, then the draws); what a plot drawn from
// them shows (SweepPartial) keeps only complete bands; the progress line by hand.
#include <QTest>
#include <map>
#include <mutex>
#include <numeric>

#include "SmallSweep.h"
#include "Suites.h"
#include "sim/Sweep.h"
#include "sim/SweepPartial.h"

using namespace immap;
using namespace immap::sim;

namespace {

SweepConfig grid(unsigned threads) {
    SweepConfig c = testing::smallSweep({1, 2, 4}, 3);
    c.bands = 2;
    c.threads = threads;
    return c;
}

void same(const SimResult& a, const SimResult& b) {
    QCOMPARE(a.toJson(false), b.toJson(false));
    QCOMPARE(a.seedRates, b.seedRates);
    QCOMPARE(a.bandRates, b.bandRates);
    QCOMPARE(a.overload, b.overload);
}

}  // namespace

class TestSweepStream : public QObject {
    Q_OBJECT

private slots:
    void streamedResultsAreThePlainOnes() {
        const std::vector<SimResult> plain = Sweep::run(grid(1));
        QCOMPARE(plain.size(), std::size_t{6});
        std::mutex lock;
        std::vector<SweepUpdate> updates;
        const std::vector<SimResult> streamed =
            Sweep::run(grid(2), {}, nullptr, [&](const SweepUpdate& u) {
                std::lock_guard<std::mutex> hold(lock);
                updates.push_back(u);
            });
        QCOMPARE(streamed.size(), plain.size());
        for (std::size_t i = 0; i < plain.size(); ++i)
            same(streamed[i], plain[i]);
        // One update per run once its point's first seed is in: at most 5 per point, at
        // least 1.
        QVERIFY(updates.size() >= 6 && updates.size() <= 30);
        std::map<std::size_t, SweepUpdate> last;
        for (const SweepUpdate& u : updates) {
            QVERIFY(u.index < plain.size());
            // The point so far: its seeds' mean over the seeds finished, its draws so far.
            QCOMPARE(u.point.seedRates.size(), std::size_t{u.seedsDone});
            QCOMPARE(u.point.bandRates.size(), std::size_t{u.drawsDone});
            const double mean =
                std::accumulate(u.point.seedRates.begin(), u.point.seedRates.end(), 0.0) /
                u.seedsDone;
            QCOMPARE(u.point.execsPerSecond, mean);
            // A point's updates only grow.
            if (last.count(u.index)) {
                QVERIFY(u.seedsDone + u.drawsDone >
                        last[u.index].seedsDone + last[u.index].drawsDone);
                for (std::size_t s = 0; s < last[u.index].point.bandRates.size(); ++s)
                    QVERIFY(std::count(u.point.bandRates.begin(), u.point.bandRates.end(),
                                       last[u.index].point.bandRates[s]) > 0);
            }
            last[u.index] = u;
        }
        QCOMPARE(last.size(), plain.size());
        for (const auto& [i, u] : last) {
            QCOMPARE(u.seedsDone, 3u);
            QCOMPARE(u.drawsDone, 2u);
            same(u.point, plain[i]);
        }
        const SweepProgress& end = updates.back().progress;
        QCOMPARE(end.drawn, std::size_t{6});
        QCOMPARE(end.seedsDone, std::size_t{18});
        QCOMPARE(end.bandsDone, std::size_t{12});
    }

    // On one thread the order is the queue's: the 6 first seeds (4 copies, then 2, then 1),
    // then the 12 other seeds, then the 12 draws.
    void updatesComeInPhaseOrder() {
        std::vector<SweepUpdate> updates;
        Sweep::run(grid(1), {}, nullptr, [&](const SweepUpdate& u) { updates.push_back(u); });
        QCOMPARE(updates.size(), std::size_t{30});
        for (std::size_t i = 0; i < 30; ++i) {
            const SweepUpdate& u = updates[i];
            if (i < 6) {
                QCOMPARE(u.seedsDone, 1u);
                QCOMPARE(u.drawsDone, 0u);
                QCOMPARE(u.progress.drawn, i + 1);
                if (i > 0) QVERIFY(u.point.copies <= updates[i - 1].point.copies);
            } else if (i < 18) {
                QVERIFY(u.seedsDone > 1);
                QCOMPARE(u.drawsDone, 0u);
            } else {
                QCOMPARE(u.seedsDone, 3u);
                QVERIFY(u.drawsDone > 0);
            }
        }
        QCOMPARE(updates[0].point.copies, 4u);
        QCOMPARE(updates[5].point.copies, 1u);
        QVERIFY(updates.front().progress.secondsLeft.has_value());
    }

    // What a plot drawn mid-sweep shows: each point's seeds so far, a band only when complete.
    void partialShowsOnlyCompleteBands() {
        SweepPartial p(2, 2, 2);
        QVERIFY(p.empty());
        SweepUpdate u;
        u.index = 1;
        u.point.copies = 8;
        u.point.execsPerSecond = 100;
        u.point.seedRates = {100};
        u.point.bandRates = {90};
        u.seedsDone = 1;
        u.drawsDone = 1;
        u.progress.drawn = 1;
        p.update(u);
        QVERIFY(!p.empty());
        std::vector<SimResult> shown = p.shown();
        QCOMPARE(shown.size(), std::size_t{1});
        QCOMPARE(shown[0].copies, 8u);
        QVERIFY(shown[0].bandRates.empty());  // 1 of 2 draws: no band yet
        QCOMPARE(p.pointsShort(), std::size_t{1});
        QCOMPARE(p.bandsMissing(), std::size_t{2});
        u.point.bandRates = {90, 120};
        u.point.seedRates = {100, 110};
        u.point.execsPerSecond = 105;
        u.seedsDone = 2;
        u.drawsDone = 2;
        p.update(u);
        shown = p.shown();
        QCOMPARE(shown[0].bandRates, (std::vector<double>{90, 120}));
        QCOMPARE(shown[0].execsPerSecond, 105.0);
        QCOMPARE(p.pointsShort(), std::size_t{0});
        QCOMPARE(p.bandsMissing(), std::size_t{1});  // point 0 has not come
    }

    void progressLineByHand() {
        SweepProgress p;
        p.points = 12;
        p.drawn = 12;
        p.seedRuns = 36;
        p.seedsDone = 36;
        p.bandRuns = 120;
        p.bandsDone = 40;
        p.secondsLeft = 17.2;
        QCOMPARE(p.text(), std::string("curves: 12/12 points \u00b7 seeds: 36/36 runs \u00b7 "
                                       "bands: 40/120 runs \u00b7 about 18 s left"));
        // One seed, no bands, nothing finished yet.
        SweepProgress q;
        q.points = 4;
        q.seedRuns = 4;
        QCOMPARE(q.text(), std::string("curves: 0/4 points \u00b7 time left: after the first run"));
        q.drawn = q.seedsDone = 4;
        q.secondsLeft = 0;
        QCOMPARE(q.text(), std::string("curves: 4/4 points"));
    }
};

IMMAP_TEST_SUITE(TestSweepStream);
#include "TestSweepStream.moc"
