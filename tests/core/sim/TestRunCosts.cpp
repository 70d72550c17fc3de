// RunCosts, the order a sweep's runs are taken in and the time left, on a made-up clock: phase
// first, then the costliest estimate; a group's measured wall time replaces its prior; the time
// left is the work left over the work done per second, all worked out by hand below.
#include <QTest>

#include "Suites.h"
#include "sim/RunCosts.h"

using namespace immap::sim;

class TestRunCosts : public QObject {
    Q_OBJECT

private slots:
    // Phase 0 is taken first, costliest prior first; in phase 1 the measured times decide,
    // though they reverse the priors.
    void measuredCostsOrderThePhases() {
        RunCosts c({{0, 0, 1}, {0, 1, 3}, {1, 0, 1}, {1, 1, 3}});
        QVERIFY(!c.secondsLeft(0));  // nothing finished: no estimate
        QCOMPARE(c.take(0), std::size_t{1});
        QCOMPARE(c.take(0), std::size_t{0});
        c.finish(1, 1);  // group 1: 1 s
        c.finish(0, 4);  // group 0: 4 s
        QCOMPARE(c.estimate(2), 4.0);
        QCOMPARE(c.estimate(3), 1.0);
        // Work left 4 + 1 = 5 s; 5 s of work done in 4 s of wall time: 5 x 4 / 5.
        QCOMPARE(*c.secondsLeft(4), 4.0);
        QCOMPARE(c.take(4), std::size_t{2});
        QCOMPARE(c.take(4), std::size_t{3});
        // At 5 s: run 2 has 4 - 1 = 3 s left, run 3 is past its estimate (0 left); work done
        // 5 + 1 + 1 = 7 s in 5 s: 3 x 5 / 7.
        QCOMPARE(*c.secondsLeft(5), 3.0 * 5 / 7);
        c.finish(3, 5);
        c.finish(2, 8);
        QCOMPARE(*c.secondsLeft(8), 0.0);
        QCOMPARE(c.finished(), std::size_t{4});
    }

    // A group never run costs its prior times the seconds per prior unit measured so far:
    // priors 2 and 6 took 1 s and 5 s, so 6 s per 8 units, and a prior of 4 costs 3 s.
    void unrunGroupsScaleTheirPrior() {
        RunCosts c({{0, 0, 2}, {0, 1, 6}, {0, 2, 4}});
        QCOMPARE(c.estimate(2), 4.0);  // prior units while nothing has finished
        QCOMPARE(c.take(0), std::size_t{1});
        QCOMPARE(c.take(0), std::size_t{2});  // 4 before 2
        c.finish(1, 5);
        QCOMPARE(c.take(5), std::size_t{0});
        c.finish(0, 6);
        QCOMPARE(c.estimate(2), 4 * 6.0 / 8);
        // Run 2 has run 6 s, past its 3: nothing left of it, yet it has not finished.
        QCOMPARE(*c.secondsLeft(6), 0.0);
    }

    void leftTextRoundsUp() {
        QCOMPARE(RunCosts::leftText(std::nullopt), std::string("time left: after the first run"));
        QCOMPARE(RunCosts::leftText(17.2), std::string("about 18 s left"));
        QCOMPARE(RunCosts::leftText(0.0), std::string("about 1 s left"));
        QCOMPARE(RunCosts::leftText(119.0), std::string("about 119 s left"));
        QCOMPARE(RunCosts::leftText(150.0), std::string("about 3 min left"));
    }
};

IMMAP_TEST_SUITE(TestRunCosts);
#include "TestRunCosts.moc"
