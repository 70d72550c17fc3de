// The contention view, offscreen: on the 12-node sample's 384 lanes (a live run of both
// policies) every lane's newest history column has the colour of its snapshot state (waiting
// where the snapshot says the CPU waits), its chip the colour of its lock, lanes are grouped
// per node in order with a gap between nodes; on a hand-made snapshot each lock's queue is
// drawn holder first then the waiting CPUs in arrival order; a click names the lane's CPU.
#include <QImage>
#include <QSignalSpy>
#include <QTest>

#include "Suites.h"
#include "live/LiveDriver.h"
#include "topology/Topology.h"
#include "views/ContentionView.h"

using namespace immap;
using views::ContentionView;

namespace {

const topology::Topology& numa12() {
    static const topology::Topology t =
        topology::Topology::fromSpec("synthetic:package:2 numa:6 core:16 pu:2;distances=10:12:32");
    return t;
}

QColor at(const QImage& img, QPoint p) {
    return img.pixelColor(p);
}

bool same(const QColor& a, const QColor& b) {
    return a.rgb() == b.rgb();
}

// CPU 3 waiting for libc's lock: the history tests' one lane.
live::RunSnapshot oneWaitingLane() {
    live::RunSnapshot r;
    r.locks = {{"libc.so.6", 0, {}, {}}};
    r.lanes = {{3, 0, live::LaneState::Waiting, 0, false, 1}};
    return r;
}

live::LiveSnapshot liveRun() {
    live::LiveConfig c;
    c.run.topology = &numa12();
    mapping::Policy a, b;
    std::string error;
    mapping::Policy::parse("single", a, error);
    mapping::Policy::parse("split-locks", b, error);
    c.policies = {a, b};
    c.run.copies = 384;
    live::LiveDriver d(c);
    d.advanceTo(1'500'000);
    return d.snapshot(false);
}

}  // namespace

class TestContentionView : public QObject {
    Q_OBJECT

private slots:
    void lanesShowTheSnapshotOn384Cpus() {
        const live::LiveSnapshot s = liveRun();
        int waitingInAll = 0;
        for (const live::RunSnapshot& run : s.runs) {
            QCOMPARE(run.lanes.size(), std::size_t{384});
            ContentionView v;
            v.resize(900, 1000);
            v.setSnapshot(run, s.now);
            v.setAllCollapsed(false);  // 384 lanes at 2 px each: started collapsed
            const QImage img = v.grab().toImage();
            int waiting = 0;
            for (int i = 0; i < 384; ++i) {
                const live::Lane& l = run.lanes[static_cast<std::size_t>(i)];
                const QRect r = v.laneRect(i);
                QVERIFY(r.height() >= 2);
                const QPoint newest(r.right() - 1, r.top() + r.height() / 2);
                const QColor want =
                    l.state == live::LaneState::Waiting   ? ContentionView::waitingColor()
                    : l.state == live::LaneState::Holding ? ContentionView::holdingColor()
                                                          : ContentionView::workingColor();
                QVERIFY2(same(at(img, newest), want),
                         qPrintable(QStringLiteral("lane %1 (CPU %2, %3)")
                                        .arg(i)
                                        .arg(l.cpu)
                                        .arg(live::laneStateName(l.state))));
                const QRect chip = v.chipRect(i);
                const QPoint c(chip.center().x(), r.top() + r.height() / 2);
                if (l.state == live::LaneState::Working) {
                    QVERIFY(!same(at(img, c), ContentionView::lockColor(0)));
                } else {
                    QVERIFY(same(at(img, c), ContentionView::lockColor(l.lock)));
                    waiting += l.state == live::LaneState::Waiting;
                }
            }
            waitingInAll += waiting;
            // Grouped per node in order: lane i is node i / 32, below the lane before it,
            // with a gap of background (no lane colour) between two nodes.
            for (int i = 1; i < 384; ++i) {
                QCOMPARE(run.lanes[static_cast<std::size_t>(i)].node, i / 32);
                QVERIFY(v.laneRect(i).top() > v.laneRect(i - 1).top());
                if (i % 32 == 0) {
                    const int y = v.laneRect(i - 1).bottom() + 1;
                    QVERIFY(v.laneRect(i).top() > y);
                    const QColor gap = at(img, QPoint(v.laneRect(i).center().x(), y));
                    QVERIFY(!same(gap, ContentionView::waitingColor()) &&
                            !same(gap, ContentionView::holdingColor()) &&
                            !same(gap, ContentionView::workingColor()));
                }
            }
        }
        // Single's one libc lock at least; split-locks' copies may all be on the lines besides
        // i_mmap at this moment (the per-CPU allocator's lock), which the lanes show as work.
        QVERIFY2(waitingInAll > 0, "384 copies started together must queue somewhere");
    }

    // History: the newest column on the right; the previous snapshot's state one column left.
    void historyScrollsLeft() {
        live::RunSnapshot r = oneWaitingLane();
        ContentionView v;
        v.resize(960, 400);
        v.setSnapshot(r, 10);
        r.lanes[0].state = live::LaneState::Working;
        r.lanes[0].lock = -1;
        v.setSnapshot(r, 20);
        const QImage img = v.grab().toImage();
        const QRect lane = v.laneRect(0);
        const double column = lane.width() / double(ContentionView::kHistory);
        const int y = lane.center().y();
        QVERIFY(same(at(img, QPoint(lane.right(), y)), ContentionView::workingColor()));
        QVERIFY(same(at(img, QPoint(lane.right() - qRound(column), y)),
                     ContentionView::waitingColor()));
        QVERIFY(!same(at(img, QPoint(int(lane.right() - 3 * column), y)),
                      ContentionView::waitingColor()));
    }

    void queueDrawnHolderThenWaitersInOrder() {
        live::RunSnapshot r;
        live::LockQueue q{"libc.so.6", 0, {{0, 7, false}}, {{1, 9, false}, {2, 11, false}}};
        r.locks = {q, {"ld.so", 1, {}, {}}};
        r.lanes = {{7, 0, live::LaneState::Holding, 0, false, 1},
                   {9, 0, live::LaneState::Waiting, 0, false, 1},
                   {11, 0, live::LaneState::Waiting, 0, false, 1}};
        ContentionView v;
        v.resize(900, 500);
        v.setSnapshot(r, 100);
        const QImage img = v.grab().toImage();
        const QRect row = v.queueRect(0);
        QVERIFY(!row.isNull());
        // Walk the row's boxes left to right: one holder box (the lock's colour, darkened for a
        // writer), then exactly two waiting boxes.
        std::vector<char> seq;
        const int y = row.top() + 1;  // the boxes' top line, above their CPU numbers
        for (int x = row.left() + 12; x < row.right(); ++x) {  // past the lock chip
            const QColor c = at(img, QPoint(x, y));
            const char k = same(c, ContentionView::lockColor(0).darker(130)) ? 'H'
                           : same(c, ContentionView::waitingColor())         ? 'W'
                                                                             : '.';
            if (k != '.' && (seq.empty() || seq.back() != k || at(img, QPoint(x - 1, y)) != c))
                seq.push_back(k);
        }
        QCOMPARE(QString::fromLatin1(seq.data(), int(seq.size())), QStringLiteral("HWW"));
        QVERIFY(v.queueRect(1).isValid());  // an idle lock still gets its row when all fit
    }

    // Pause: snapshots at the same simulated time redraw the newest column and add none, so
    // the picture of a paused run is the same however many frames arrive; a step that moves
    // the clock adds exactly one column.
    void sameTimeAddsNoColumn() {
        live::RunSnapshot r = oneWaitingLane();
        ContentionView v;
        v.resize(960, 400);
        v.setSnapshot(r, 10);
        v.setSnapshot(r, 20);
        const QImage paused = v.grab().toImage();
        for (int i = 0; i < 30; ++i)
            v.setSnapshot(r, 20);
        QCOMPARE(v.grab().toImage(), paused);
        QCOMPARE(v.history().filled(), 2);
        // A second event at the same instant: the newest column shows it, nothing scrolls.
        r.lanes[0].state = live::LaneState::Holding;
        v.setSnapshot(r, 20);
        QCOMPARE(v.history().filled(), 2);
        const QRect lane = v.laneRect(0);
        const double column = lane.width() / double(ContentionView::kHistory);
        QImage img = v.grab().toImage();
        QVERIFY(
            same(at(img, QPoint(lane.right(), lane.center().y())), ContentionView::holdingColor()));
        QVERIFY(same(at(img, QPoint(lane.right() - qRound(column), lane.center().y())),
                     ContentionView::waitingColor()));
        v.setSnapshot(r, 21);  // the clock moved: one more column
        QCOMPARE(v.history().filled(), 3);
    }

    // The time axis, by hand: 240 snapshots 1 µs apart (t = 1..240 µs); ticks every 60
    // columns from the newest: now, -60 µs, -120 µs, -180 µs, and the oldest column kept
    // (t = 1 µs, 239 µs before the newest).
    void timeAxisLabelsTheHistory() {
        live::RunSnapshot r;
        r.lanes = {{3, 0, live::LaneState::Working, -1, false, 1}};
        ContentionView v;
        v.resize(960, 400);
        for (int k = 1; k <= ContentionView::kHistory; ++k)
            v.setSnapshot(r, k * 1000);
        std::vector<QString> labels;
        int lastX = -1;
        for (const auto& [x, text] : v.axisTicks()) {
            labels.push_back(text);
            QVERIFY(x > lastX);
            lastX = x;
        }
        const QString minus = QStringLiteral("\u2212");
        const std::vector<QString> want = {
            minus + QStringLiteral("239 µs"), minus + QStringLiteral("180 µs"),
            minus + QStringLiteral("120 µs"), minus + QStringLiteral("60.0 µs"), "now"};
        QCOMPARE(labels, want);
        QVERIFY(lastX >= v.laneRect(0).right() - 3);
    }

    // Warm-up: the header says so instead of a rate of zero; then the running rate.
    void warmUpIsLabelled() {
        live::RunSnapshot r;
        r.lanes = {{3, 0, live::LaneState::Working, -1, false, 1}};
        ContentionView v;
        v.setSnapshot(r, 1);
        QCOMPARE(v.rateText(), QStringLiteral("warm-up"));
        r.warmingUp = false;
        r.execsPerSecond = 2500;
        v.setSnapshot(r, 2);
        QVERIFY(v.rateText().endsWith(QStringLiteral(" execs/s")));
        QVERIFY(v.rateText().startsWith(QStringLiteral("2")));
    }

    // 384 lanes in a projector-sized side: every node but the first starts as a summary lane
    // (its lanes have no rect of their own), node 0's 32 lanes are 3 px or more; a click on a
    // node's label expands it and one on node 0's collapses it. A summary column, by hand:
    // 4 CPUs, 1 holding and 2 waiting -> from the bottom 3/12 holding, 6/12 waiting, 3/12
    // working; its text names the lock they wait for.
    void nodesCollapseIntoSummaries() {
        const live::LiveSnapshot s = liveRun();
        ContentionView v;
        v.resize(640, 560);
        v.setSnapshot(s.runs[0], s.now);
        QVERIFY(!v.isCollapsed(0));
        for (int node = 1; node < 12; ++node) {
            QVERIFY(v.isCollapsed(node));
            QVERIFY(v.summaryRect(node).isValid());
        }
        for (int i = 0; i < 32; ++i)
            QVERIFY(v.laneRect(i).height() >= 3);
        for (int i = 32; i < 384; ++i)
            QVERIFY(v.laneRect(i).isNull());
        QTest::mouseClick(&v, Qt::LeftButton, {}, v.nodeLabelRect(5).center());
        QVERIFY(!v.isCollapsed(5));
        QVERIFY(v.laneRect(5 * 32).isValid() && v.summaryRect(5).isNull());
        QTest::mouseClick(&v, Qt::LeftButton, {}, v.nodeLabelRect(0).center());
        QVERIFY(v.isCollapsed(0));

        live::RunSnapshot r;
        r.locks = {{"libc.so.6", 0, {}, {}}, {"ld.so", 1, {}, {}}};
        r.lanes = {{0, 0, live::LaneState::Holding, 1, false, 1},
                   {1, 0, live::LaneState::Waiting, 0, false, 1},
                   {2, 0, live::LaneState::Waiting, 0, false, 1},
                   {3, 0, live::LaneState::Working, -1, false, 1},
                   {4, 1, live::LaneState::Working, -1, false, 1}};
        ContentionView w;
        w.resize(900, 500);
        w.setSnapshot(r, 5);
        w.setCollapsed(0, true);
        QCOMPARE(w.summaryText(0), QStringLiteral("2 waiting for libc.so.6"));
        QVERIFY(w.summaryText(1).isEmpty());
        const QRect sum = w.summaryRect(0);
        QVERIFY(sum.height() >= 12);
        const QImage img = w.grab().toImage();
        const int x = sum.right();
        auto share = [&](double from, double to) {  // fraction of the height, from the bottom
            const int y = sum.bottom() - static_cast<int>((from + to) / 2 * sum.height());
            return at(img, QPoint(x, y));
        };
        QVERIFY(same(share(0, 3 / 12.0), ContentionView::holdingColor()));
        QVERIFY(same(share(3 / 12.0, 9 / 12.0), ContentionView::waitingColor()));
        QVERIFY(same(share(9 / 12.0, 1), ContentionView::workingColor()));
    }

    // Locks by name, not by colour alone: a tall lane's chip carries the lock's short name.
    void chipsNameTheirLock() {
        QCOMPARE(ContentionView::shortLockName("libc.so.6/node3"), QStringLiteral("libc/n3"));
        QCOMPARE(ContentionView::shortLockName("ld-linux-x86-64.so.2/node11"),
                 QStringLiteral("ld/n11"));
        QCOMPARE(ContentionView::shortLockName("libc.so.6"), QStringLiteral("libc"));
        QCOMPARE(ContentionView::shortLockName("libc.so.6/shard2"), QStringLiteral("libc/s2"));
        live::RunSnapshot r;
        r.locks = {{"libc.so.6/node0", 0, {}, {}}};
        r.lanes = {{0, 0, live::LaneState::Waiting, 0, false, 1},
                   {1, 0, live::LaneState::Working, -1, false, 1}};
        ContentionView v;
        v.resize(900, 500);
        v.setSnapshot(r, 5);
        const QRect chip = v.chipRect(0);
        QVERIFY(chip.width() > 20);  // wider than a bare colour chip (10 px)
        // White text on the lock's colour: some pixels of the chip are not the lock's colour.
        const QImage img = v.grab().toImage();
        int other = 0;
        for (int x = chip.left(); x <= chip.right(); ++x)
            for (int y = chip.top(); y <= chip.bottom(); ++y)
                other += !same(at(img, QPoint(x, y)), ContentionView::lockColor(0));
        QVERIFY(other > 5);
    }

    void clickNamesTheCpu() {
        live::RunSnapshot r;
        r.locks = {{"libc.so.6", 0, {}, {}}};
        r.lanes = {{3, 0, live::LaneState::Working, -1, false, 1},
                   {40, 1, live::LaneState::Working, -1, false, 1}};
        ContentionView v;
        v.resize(800, 400);
        v.setSnapshot(r, 1);
        QSignalSpy spy(&v, &ContentionView::laneClicked);
        QTest::mouseClick(&v, Qt::LeftButton, {}, v.laneRect(1).center());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toUInt(), 40u);
    }
};

IMMAP_TEST_SUITE(TestContentionView);
#include "TestContentionView.moc"
