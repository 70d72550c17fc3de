// MeasureWindow on hand timelines: when the measured window ends for a given sequence of exec
// completions, worked out by hand from the rule (at least the duration, then until every copy
// has window_execs execs in it, at most window_max_ms).
#include <QTest>

#include "Suites.h"
#include "sim/MeasureWindow.h"

using namespace immap::sim;

class TestMeasureWindow : public QObject {
    Q_OBJECT

private slots:
    // No exec requirement: exactly the duration.
    void zeroExecsIsAFixedWindow() {
        MeasureWindow w(2.0, 0, 100, 3);  // 2 ms
        QCOMPARE(w.open(1'000), Time{2'001'000});
        QCOMPARE(w.counted(1, 1'500'000), Time{2'001'000});
    }

    // Two copies, 3 execs each: open until both have 3; the second copy's third exec at 5 ms
    // is after the 2 ms floor, so the window ends there.
    void endsAtTheLastCopysNthExec() {
        MeasureWindow w(2.0, 3, 100, 2);
        const Time cap = 100'000'000;
        QCOMPARE(w.open(0), cap);
        QCOMPARE(w.counted(1, 1'000'000), cap);              // copy A
        QCOMPARE(w.counted(2, 2'000'000), cap);              // copy A
        QCOMPARE(w.counted(3, 3'000'000), cap);              // copy A has 3
        QCOMPARE(w.counted(1, 3'500'000), cap);              // copy B
        QCOMPARE(w.counted(4, 4'000'000), cap);              // copy A's 4th changes nothing
        QCOMPARE(w.counted(2, 4'500'000), cap);              // copy B
        QCOMPARE(w.counted(3, 5'000'000), Time{5'000'000});  // copy B has 3: the end
        QCOMPARE(w.counted(5, 5'000'000), Time{5'000'000});
    }

    // Both copies have their execs before the floor: the floor is the end.
    void theDurationIsAFloor() {
        MeasureWindow w(10.0, 1, 100, 2);
        w.open(0);
        w.counted(1, 1'000'000);
        QCOMPARE(w.counted(1, 2'000'000), Time{10'000'000});
    }

    // One copy, 2 execs per copy but 5 in all: the total keeps the window open past both the
    // floor and the per-copy count, to the 5th exec.
    void theTotalKeepsItOpen() {
        MeasureWindow w(1.0, 2, 100, 1, 5);
        const Time cap = 100'000'000;
        QCOMPARE(w.open(0), cap);
        for (Time t : {Time{1'000'000}, Time{2'000'000}, Time{3'000'000}, Time{4'000'000}})
            QCOMPARE(w.counted(static_cast<std::uint64_t>(t / 1'000'000), t), cap);
        QCOMPARE(w.counted(5, 5'000'000), Time{5'000'000});
        // Two copies: the total is reached first, the slower copy's 2nd exec ends it.
        MeasureWindow two(1.0, 2, 100, 2, 3);
        two.open(0);
        QCOMPARE(two.counted(1, 1'000'000), cap);  // A
        QCOMPARE(two.counted(2, 2'000'000), cap);  // A
        QCOMPARE(two.counted(3, 3'000'000), cap);  // A: 3 in all, but B has none
        QCOMPARE(two.counted(1, 4'000'000), cap);  // B
        QCOMPARE(two.counted(2, 6'000'000), Time{6'000'000});
        // With no per-copy count, the total alone; reopening starts the count afresh.
        MeasureWindow total(1.0, 0, 100, 3, 2);
        QCOMPARE(total.open(0), cap);
        QCOMPARE(total.counted(1, 200'000), cap);
        QCOMPARE(total.counted(1, 300'000), Time{1'000'000});  // the floor is later
        QCOMPARE(total.open(10'000'000), Time{110'000'000});
    }

    // A copy that never gets its execs: the window stops at window_max_ms; a cap below the
    // duration is the duration.
    void theCapBoundsTheWait() {
        MeasureWindow w(2.0, 5, 7.0, 2);
        QCOMPARE(w.open(1'000'000), Time{8'000'000});
        QCOMPARE(w.counted(5, 3'000'000), Time{8'000'000});
        MeasureWindow low(2.0, 5, 0.5, 1);
        QCOMPARE(low.open(0), Time{2'000'000});
    }
};

IMMAP_TEST_SUITE(TestMeasureWindow);
#include "TestMeasureWindow.moc"
