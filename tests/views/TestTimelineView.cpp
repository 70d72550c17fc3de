// The timeline view on a hand-written trace whose spans are known: the waiting, holding and
// working colours land where the spans are; W/S/A/D and Ctrl+wheel move the visible range (and
// keep the time under the cursor); a click on a span emits the event that opens it; a drag
// emits the selected range; the statistics table passes QAbstractItemModelTester; the panel
// emits filter requests.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include "Suites.h"
#include "trace/RangeStats.h"
#include "trace/TimelineFilter.h"
#include "trace/TraceHeader.h"
#include "views/TimelinePanel.h"
#include "views/TimelineStatsModel.h"
#include "views/TimelineView.h"

using namespace immap;
using trace::SpanKind;
using trace::Time;
using K = sim::SimEvent;

namespace {

sim::SimEvent ev(Time t, K::Kind k, int agent, int cpu, int lock = -1, int mode = 0) {
    sim::SimEvent e;
    e.time = t;
    e.kind = k;
    e.agent = agent;
    e.cpu = cpu;
    e.lock = lock;
    e.mode = static_cast<std::uint8_t>(mode);
    return e;
}

// CPU 0: exec 0-45 us, waits for lock 0 10-30 us (event 1), holds it 30-40 us; CPU 5 holds
// lock 0 12-30 us; a walker on CPU 3 waits for lock 1 50-55 us and walks 55-70 us.
trace::TraceHeader handHeader() {
    trace::TraceHeader h;
    h.files = {"libc.so.6"};
    h.locks = {{"libc.so.6 lock 0", 0}, {"libc.so.6 lock 1", 0}};
    h.copyCpus = {0, 5};
    h.copyNodes = {0, 1};
    return h;
}

std::shared_ptr<trace::Timeline> handTimeline() {
    const trace::TraceHeader h = handHeader();
    const std::vector<sim::SimEvent> events = {
        ev(0, K::ExecBegin, 0, 0),
        ev(10'000, K::LockWait, 0, 0, 0),
        ev(5'000, K::ExecBegin, 1, 5),
        ev(12'000, K::LockAcquire, 1, 5, 0),
        ev(12'000, K::TreeInsert, 1, 5),
        ev(30'000, K::LockRelease, 1, 5, 0),
        ev(30'000, K::LockAcquire, 0, 0, 0),
        ev(31'000, K::TreeRemove, 0, 0),
        ev(40'000, K::LockRelease, 0, 0, 0),
        ev(45'000, K::ExecEnd, 0, 0),
        ev(50'000, K::WalkArrive, 2, 3),
        ev(50'000, K::LockWait, 2, 3, 1, 1),
        ev(55'000, K::LockAcquire, 2, 3, 1, 1),
        ev(55'000, K::WalkBegin, 2, 3),
        ev(70'000, K::WalkEnd, 2, 3),
        ev(70'000, K::LockRelease, 2, 3, 1),
        ev(90'000, K::ExecBegin, 0, 0),
    };
    return std::make_shared<trace::Timeline>(trace::Timeline::fromEvents(h, events));
}

QRgb pixelAt(views::TimelineView& v, Time t, int lane) {
    const QImage img = v.grab().toImage();
    const QPointF p(v.xOfTime(t), v.laneRect(lane).center().y());
    return img.pixel(p.toPoint());
}

}  // namespace

class TestTimelineView : public QObject {
    Q_OBJECT

private slots:
    void spansAreDrawnInTheirColours() {
        views::TimelineView v;
        v.resize(800, 300);
        v.setTimeline(handTimeline());
        const int cpu0 = v.timeline()->laneOfCpu(0), cpu3 = v.timeline()->laneOfCpu(3);
        QCOMPARE(pixelAt(v, 20'000, cpu0), views::TimelineView::colorOf(SpanKind::Wait).rgb());
        QCOMPARE(pixelAt(v, 35'000, cpu0), views::TimelineView::colorOf(SpanKind::Hold).rgb());
        QCOMPARE(pixelAt(v, 42'000, cpu0), views::TimelineView::colorOf(SpanKind::Exec).rgb());
        QCOMPARE(pixelAt(v, 52'000, cpu3), views::TimelineView::colorOf(SpanKind::Wait).rgb());
        // After the exec, nothing: not a span colour.
        const QRgb idle = pixelAt(v, 60'000, cpu0);
        for (auto k : {SpanKind::Exec, SpanKind::Wait, SpanKind::Hold, SpanKind::Walk})
            QVERIFY(idle != views::TimelineView::colorOf(k).rgb());
        // Zoomed to 25-35 us, the wait's end and the hold's start move on screen accordingly.
        v.setVisibleRange(25'000, 35'000);
        QCOMPARE(pixelAt(v, 27'000, cpu0), views::TimelineView::colorOf(SpanKind::Wait).rgb());
        QCOMPARE(pixelAt(v, 33'000, cpu0), views::TimelineView::colorOf(SpanKind::Hold).rgb());
        // A bookmark's caption flag is drawn at its time.
        v.showAll();
        v.setBookmarks({{45'000, "exec done"}});
        const QImage img = v.grab().toImage();
        QCOMPARE(img.pixel(QPoint(static_cast<int>(v.xOfTime(45'000)) + 2,
                                  static_cast<int>(v.plotArea().top()) - 8)),
                 QColor(0x70, 0x48, 0xe8).rgb());
    }

    // The lanes are cached between paints: moving the replay cursor changes only the pixels
    // around the cursor's line, and a new timeline is drawn, not the old one's picture.
    void cachedLanesStayTrue() {
        views::TimelineView v;
        v.resize(800, 300);
        v.setTimeline(handTimeline());
        const QImage before = v.grab().toImage();
        v.setCursorTime(Time{20'000});
        const QImage after = v.grab().toImage();
        const int x = static_cast<int>(v.xOfTime(20'000));
        int changed = 0;
        for (int y = 0; y < before.height(); ++y)
            for (int i = 0; i < before.width(); ++i)
                if (before.pixel(i, y) != after.pixel(i, y)) {
                    QVERIFY2(std::abs(i - x) <= 3,
                             qPrintable(QString("pixel %1,%2").arg(i).arg(y)));
                    ++changed;
                }
        QVERIFY(changed > 0);  // the cursor is drawn
        const int cpu0 = v.timeline()->laneOfCpu(0);
        QCOMPARE(pixelAt(v, 35'000, cpu0), views::TimelineView::colorOf(SpanKind::Hold).rgb());

        // Another timeline where CPU 0 is idle at 35 us: its pixel is no longer a hold.
        v.setTimeline(std::make_shared<trace::Timeline>(trace::Timeline::fromEvents(
            handHeader(), {ev(0, K::ExecBegin, 0, 0), ev(10'000, K::ExecEnd, 0, 0),
                           ev(90'000, K::ExecBegin, 0, 0)})));
        QVERIFY(pixelAt(v, 35'000, v.timeline()->laneOfCpu(0)) !=
                views::TimelineView::colorOf(SpanKind::Hold).rgb());
    }

    void keysAndWheelOnlyMoveTheView() {
        views::TimelineView v;
        v.resize(800, 300);
        v.setTimeline(handTimeline());
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QSignalSpy range(&v, &views::TimelineView::visibleRangeChanged);
        QSignalSpy sel(&v, &views::TimelineView::selectionChanged);
        const Time w0 = v.visibleTo() - v.visibleFrom();
        QCOMPARE(w0, Time{90'001});
        QTest::keyClick(&v, Qt::Key_W);
        const Time w1 = v.visibleTo() - v.visibleFrom();
        QVERIFY(w1 < w0 * 3 / 4);
        const Time f1 = v.visibleFrom();
        QTest::keyClick(&v, Qt::Key_D);
        QVERIFY(v.visibleFrom() > f1);
        QCOMPARE(v.visibleTo() - v.visibleFrom(), w1);
        QTest::keyClick(&v, Qt::Key_A);
        QTest::keyClick(&v, Qt::Key_A);
        QVERIFY(v.visibleFrom() < f1);
        QTest::keyClick(&v, Qt::Key_S);
        QVERIFY(v.visibleTo() - v.visibleFrom() > w1);
        QVERIFY(range.count() >= 5);
        // Ctrl+wheel zooms in keeping the time under the cursor where it was.
        v.showAll();
        const double x = v.xOfTime(30'000);
        const QPointF pos(x, v.laneRect(0).center().y());
        QWheelEvent wheel(pos, v.mapToGlobal(pos), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&v, &wheel);
        QVERIFY(v.visibleTo() - v.visibleFrom() < w0 * 2 / 3);
        QVERIFY(std::llabs(v.timeAtX(x) - 30'000) <= 2 * (v.visibleTo() - v.visibleFrom()) / 700);
        QCOMPARE(sel.count(), 0);  // the view moved; nothing was selected
        QVERIFY(!v.selection());
    }

    void clickInspectsAndDragSelects() {
        views::TimelineView v;
        v.resize(800, 300);
        v.setTimeline(handTimeline());
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QSignalSpy clicked(&v, &views::TimelineView::eventClicked);
        QSignalSpy sel(&v, &views::TimelineView::selectionChanged);
        const int cpu0 = v.timeline()->laneOfCpu(0);
        const QPoint waitPx(static_cast<int>(v.xOfTime(20'000)),
                            static_cast<int>(v.laneRect(cpu0).center().y()) + 1);
        QTest::mouseClick(&v, Qt::LeftButton, {}, waitPx);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toLongLong(), 1LL);  // the LockWait, event 1
        QVERIFY(v.highlightedSpan());
        // The hold: opened by event 6; the exec after it: event 0.
        QTest::mouseClick(&v, Qt::LeftButton, {},
                          QPoint(static_cast<int>(v.xOfTime(35'000)), waitPx.y()));
        QCOMPARE(clicked.at(1).at(0).toLongLong(), 6LL);
        QTest::mouseClick(&v, Qt::LeftButton, {},
                          QPoint(static_cast<int>(v.xOfTime(43'000)), waitPx.y()));
        QCOMPARE(clicked.at(2).at(0).toLongLong(), 0LL);
        QCOMPARE(sel.count(), 0);

        // A drag from 20 us to 60 us selects that range (to a pixel) and clicks nothing.
        const int x0 = static_cast<int>(v.xOfTime(20'000)),
                  x1 = static_cast<int>(v.xOfTime(60'000));
        QTest::mousePress(&v, Qt::LeftButton, {}, QPoint(x0, waitPx.y()));
        QTest::mouseMove(&v, QPoint((x0 + x1) / 2, waitPx.y()));
        QTest::mouseMove(&v, QPoint(x1, waitPx.y()));
        QTest::mouseRelease(&v, Qt::LeftButton, {}, QPoint(x1, waitPx.y()));
        QCOMPARE(sel.count(), 1);
        QCOMPARE(clicked.count(), 3);
        const Time px = (v.visibleTo() - v.visibleFrom()) / 700 + 1;
        QVERIFY(std::llabs(sel.at(0).at(0).toLongLong() - 20'000) <= px);
        QVERIFY(std::llabs(sel.at(0).at(1).toLongLong() - 60'000) <= px);
        QCOMPARE(v.visibleFrom(), v.timeline()->begin());  // the view did not move
        QTest::keyClick(&v, Qt::Key_Escape);
        QVERIFY(!v.selection());
    }

    void statsModelAndPanel() {
        const auto t = handTimeline();
        views::TimelinePanel panel;
        panel.setChoices(*t);
        QAbstractItemModelTester tester(panel.statsModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        trace::TimelineFilter none;
        panel.setStats(trace::RangeStats::whole(*t, none), "whole");
        auto* m = panel.statsModel();
        QCOMPARE(m->rowCount(), 2);
        QCOMPARE(m->data(m->index(0, views::TimelineStatsModel::Waits), Qt::UserRole).toInt(), 1);
        QCOMPARE(
            m->data(m->index(0, views::TimelineStatsModel::MaxWait), Qt::UserRole).toLongLong(),
            20'000LL);
        QCOMPARE(m->data(m->index(0, views::TimelineStatsModel::MaxWait)).toString(),
                 QString::fromUtf8("20.0 \xC2\xB5s"));
        QCOMPARE(
            m->data(m->index(0, views::TimelineStatsModel::HoldTime), Qt::UserRole).toLongLong(),
            28'000LL);
        trace::TimelineFilter lock1;
        lock1.add(trace::FilterItem::lock(1));
        panel.setStats(trace::RangeStats::whole(*t, lock1), "lock 1");
        QCOMPARE(m->rowCount(), 1);

        QSignalSpy req(&panel, &views::TimelinePanel::filterRequested);
        panel.filterType()->setCurrentIndex(panel.filterType()->findText("CPU"));
        QCOMPARE(panel.filterValue()->count(), 3);  // CPUs 0, 3, 5
        panel.filterValue()->setCurrentIndex(2);
        panel.addFilterButton()->click();
        QCOMPARE(req.count(), 1);
        QCOMPARE(req.at(0).at(0).toInt(), static_cast<int>(trace::FilterItem::Cpu));
        QCOMPARE(req.at(0).at(1).toInt(), 5);
        QVERIFY(!panel.toSelectionButton()->isEnabled());
        panel.setSelectionAvailable(true);
        QSignalSpy toSel(&panel, &views::TimelinePanel::filterToSelectionRequested);
        panel.toSelectionButton()->click();
        QCOMPARE(toSel.count(), 1);
    }
};

IMMAP_TEST_SUITE(TestTimelineView);
#include "TestTimelineView.moc"
