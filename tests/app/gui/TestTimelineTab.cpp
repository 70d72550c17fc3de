// The replay tab's timeline, driven as a user would on a recorded simulation: W/S/A/D change
// the visible range and never the statistics; a filter changes the statistics and never the
// visible range, and is listed and removable; an area selected by dragging gives statistics
// equal to a direct loop over the trace's events in that range; clicking the pixel of a known
// wait emits its event (and shows it, and can seek the replay to it), the pixel being in the
// waiting colour; the timeline exports as PNG, SVG and PDF; --screenshot --view replay shows it.
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <map>

#include "MainWindow.h"
#include "Suites.h"
#include "trace/TraceReader.h"
#include "views/TimelineStatsModel.h"

using namespace immap;
using trace::Time;
using K = sim::SimEvent;

namespace {

std::vector<sim::SimEvent> readAll(const QString& path) {
    trace::TraceReader r(path.toStdString());
    std::vector<sim::SimEvent> out;
    sim::SimEvent e;
    while (r.next(e))
        out.push_back(e);
    return out;
}

struct Pair {
    Time start, end;
    std::size_t open;
    int cpu, lock;
    bool hold;
};

// Waits and holds paired straight from the raw events.
std::vector<Pair> pairs(const std::vector<sim::SimEvent>& ev) {
    std::vector<Pair> out;
    std::map<std::pair<int, int>, std::size_t> wait, hold;
    for (std::size_t i = 0; i < ev.size(); ++i) {
        const auto& e = ev[i];
        const std::pair<int, int> k{e.agent, e.lock};
        if (e.kind == K::LockWait) wait[k] = i;
        if (e.kind == K::LockAcquire) {
            if (const auto w = wait.find(k); w != wait.end()) {
                out.push_back({ev[w->second].time, e.time, w->second, e.cpu, e.lock, false});
                wait.erase(w);
            }
            hold[k] = i;
        }
        if (e.kind == K::LockRelease)
            if (const auto h = hold.find(k); h != hold.end()) {
                out.push_back({ev[h->second].time, e.time, h->second, e.cpu, e.lock, true});
                hold.erase(h);
            }
    }
    return out;
}

// A few columns of the statistics, for "did they change".
std::vector<qlonglong> shown(views::TimelineStatsModel* m) {
    std::vector<qlonglong> v;
    for (int r = 0; r < m->rowCount(); ++r)
        for (int c : {views::TimelineStatsModel::Waits, views::TimelineStatsModel::Holds,
                      views::TimelineStatsModel::HoldTime})
            v.push_back(m->data(m->index(r, c), Qt::UserRole).toLongLong());
    return v;
}

int countColor(const QImage& img, QRgb c) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += img.pixel(x, y) == c;
    return n;
}

}  // namespace

class TestTimelineTab : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString trace_;

private slots:
    void initTestCase() {
        trace_ = dir_.filePath("run.trace");
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.recordTrace(trace_, "split-locks", 24, 3));
    }

    void zoomNeverChangesStatsAndFiltersNeverChangeZoom() {
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.openTrace(trace_));
        w.resize(1400, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* view = w.timelineView();
        auto* panel = w.timelinePanel();
        QVERIFY(view->timeline());
        QCOMPARE(view->timeline()->eventCount(), w.traceCursor()->events());
        const trace::RangeStats before = w.timeline()->stats();
        const auto shownBefore = shown(panel->statsModel());
        QVERIFY(before.events == w.traceCursor()->events());

        // The view moves; the statistics stay.
        const Time from0 = view->visibleFrom(), to0 = view->visibleTo();
        for (auto key : {Qt::Key_W, Qt::Key_W, Qt::Key_D, Qt::Key_A, Qt::Key_S, Qt::Key_W}) {
            const Time f = view->visibleFrom(), t = view->visibleTo();
            QTest::keyClick(view, key);
            QVERIFY2(view->visibleFrom() != f || view->visibleTo() != t,
                     qPrintable(QStringLiteral("key %1: %2-%3").arg(key).arg(f).arg(t)));
            QCOMPARE(w.timeline()->stats().events, before.events);
            QVERIFY(w.timeline()->stats().byKind == before.byKind);
            QCOMPARE(shown(panel->statsModel()), shownBefore);
        }
        QVERIFY(view->visibleTo() - view->visibleFrom() < to0 - from0);

        // A CPU filter: fewer events counted, the view exactly where it was, the filter listed.
        const Time f = view->visibleFrom(), t = view->visibleTo();
        panel->filterType()->setCurrentIndex(panel->filterType()->findText("CPU"));
        panel->filterValue()->setCurrentIndex(0);
        const int cpu = panel->filterValue()->currentData().toInt();
        panel->addFilterButton()->click();
        QCOMPARE(view->visibleFrom(), f);
        QCOMPARE(view->visibleTo(), t);
        QVERIFY(w.timeline()->stats().events < before.events);
        QVERIFY(shown(panel->statsModel()) != shownBefore);
        QCOMPARE(panel->filterList()->count(), 1);
        QCOMPARE(panel->filterList()->item(0)->text(), QStringLiteral("CPU %1").arg(cpu));
        // Brute force: that CPU's events.
        std::uint64_t onCpu = 0;
        for (const auto& e : readAll(trace_))
            onCpu += e.cpu == cpu;
        QCOMPARE(w.timeline()->stats().events, onCpu);
        // Removed from the list: back to where it was.
        panel->filterList()->setCurrentRow(0);
        panel->removeFilterButton()->click();
        QCOMPARE(panel->filterList()->count(), 0);
        QCOMPARE(w.timeline()->stats().events, before.events);
        QCOMPARE(shown(panel->statsModel()), shownBefore);
        QCOMPARE(view->visibleFrom(), f);
    }

    void areaSelectGivesBruteForceStats() {
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.openTrace(trace_));
        w.resize(1400, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* view = w.timelineView();
        const QRectF plot = view->plotArea();
        const int y = static_cast<int>(view->laneRect(0).center().y());
        const int x0 = static_cast<int>(plot.left() + plot.width() * 0.3);
        const int x1 = static_cast<int>(plot.left() + plot.width() * 0.6);
        QTest::mousePress(view, Qt::LeftButton, {}, QPoint(x0, y));
        QTest::mouseMove(view, QPoint(x1, y));
        QTest::mouseRelease(view, Qt::LeftButton, {}, QPoint(x1, y));
        QVERIFY(w.timeline()->selection());
        const auto [from, to] = *w.timeline()->selection();
        QVERIFY(to > from);
        const trace::RangeStats& got = w.timeline()->stats();
        QCOMPARE(got.from, from);
        QCOMPARE(got.to, to);

        const auto events = readAll(trace_);
        std::array<std::uint64_t, trace::kEventKinds> byKind{};
        std::uint64_t n = 0;
        for (const auto& e : events)
            if (e.time >= from && e.time < to) {
                ++n;
                ++byKind[e.kind];
            }
        QCOMPARE(got.events, n);
        QVERIFY(got.byKind == byKind);
        QCOMPARE(got.execs, byKind[K::ExecEnd]);
        std::vector<trace::LockRangeStats> want(w.traceCursor()->header().locks.size());
        for (const Pair& p : pairs(events)) {
            auto& l = want[static_cast<std::size_t>(p.lock)];
            if (!p.hold && p.start >= from && p.start < to) {
                ++l.waits;
                l.waitTotal += p.end - p.start;
                l.waitMax = std::max(l.waitMax, p.end - p.start);
            }
            if (p.hold) {
                l.holds += p.start >= from && p.start < to;
                l.holdTime += std::max<Time>(0, std::min(p.end, to) - std::max(p.start, from));
            }
        }
        QCOMPARE(got.locks.size(), want.size());
        std::uint64_t waits = 0;
        for (std::size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(got.locks[i].waits, want[i].waits);
            QCOMPARE(got.locks[i].waitTotal, want[i].waitTotal);
            QCOMPARE(got.locks[i].waitMax, want[i].waitMax);
            QCOMPARE(got.locks[i].holds, want[i].holds);
            QCOMPARE(got.locks[i].holdTime, want[i].holdTime);
            waits += want[i].waits;
        }
        QVERIFY(waits > 0);
        QVERIFY(w.timelinePanel()->summary()->text().contains(
            QLocale().toString(static_cast<qulonglong>(n))));

        // "Filter to selection" lists a time filter; the view does not move.
        const Time vf = view->visibleFrom(), vt = view->visibleTo();
        w.timelinePanel()->toSelectionButton()->click();
        QCOMPARE(w.timelinePanel()->filterList()->count(), 1);
        QVERIFY(w.timelinePanel()->filterList()->item(0)->text().startsWith("time "));
        QCOMPARE(view->visibleFrom(), vf);
        QCOMPARE(view->visibleTo(), vt);
        // Selection cleared: the whole trace, cut to the time filter: the same numbers.
        QTest::keyClick(view, Qt::Key_Escape);
        QCOMPARE(w.timeline()->stats().events, n);
    }

    void clickAKnownWaitInspectsAndSeeks() {
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.openTrace(trace_));
        w.resize(1400, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* view = w.timelineView();
        // The longest wait no other lock span on its CPU overlaps.
        const auto events = readAll(trace_);
        const auto all = pairs(events);
        const Pair* best = nullptr;
        for (const Pair& p : all) {
            if (p.hold || (best && p.end - p.start <= best->end - best->start)) continue;
            const bool alone = std::none_of(all.begin(), all.end(), [&](const Pair& q) {
                return &q != &p && q.cpu == p.cpu && q.start < p.end && q.end > p.start;
            });
            if (alone) best = &p;
        }
        QVERIFY(best);
        const Time d = best->end - best->start;
        view->setVisibleRange(best->start - d, best->end + d);
        const int lane = view->timeline()->laneOfCpu(best->cpu);
        view->scrollToLane(lane);
        const QPoint px(static_cast<int>(view->xOfTime(best->start + d / 2)),
                        static_cast<int>(view->laneRect(lane).center().y()));
        QVERIFY(view->plotArea().contains(px));
        QCOMPARE(view->grab().toImage().pixel(px),
                 views::TimelineView::colorOf(trace::SpanKind::Wait).rgb());
        QSignalSpy clicked(view, &views::TimelineView::eventClicked);
        QTest::mouseClick(view, Qt::LeftButton, {}, px);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toLongLong(), static_cast<qlonglong>(best->open));
        QCOMPARE(events[best->open].kind, K::LockWait);
        const QString text = w.timelinePanel()->inspectText()->text();
        QVERIFY2(
            text.contains("lock_wait") && text.contains(QStringLiteral("CPU %1").arg(best->cpu)),
            qPrintable(text));
        QVERIFY(text.contains("span: waiting for"));
        w.timelinePanel()->seekButton()->click();
        QCOMPARE(w.traceCursor()->position(), static_cast<std::uint64_t>(best->open + 1));
        QCOMPARE(w.traceCursor()->lastEvent().kind, K::LockWait);
    }

    void exportsAndScreenshot() {
        gui::MainWindow w(false);
        w.setHeadless(true);
        w.loadDefault();
        QVERIFY(w.openTrace(trace_));
        w.resize(1400, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Zoomed in far enough for holds to be wider than a pixel (whole colour, not merged).
        auto* view = w.timelineView();
        const Time mid = (view->visibleFrom() + view->visibleTo()) / 2;
        view->setVisibleRange(mid, mid + (view->visibleTo() - view->visibleFrom()) / 100);
        for (const char* ext : {"png", "svg", "pdf"}) {
            const QString out = dir_.filePath(QStringLiteral("timeline.%1").arg(ext));
            QVERIFY2(w.exportTimeline(out), qPrintable(w.lastError()));
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray head = f.read(8);
            if (QByteArray(ext) == "png") QVERIFY(head.startsWith("\x89PNG"));
            if (QByteArray(ext) == "pdf") QVERIFY(head.startsWith("%PDF"));
            if (QByteArray(ext) == "svg") QVERIFY(f.readAll().contains("<svg"));
        }
        const QImage png(dir_.filePath("timeline.png"));
        QCOMPARE(png.size(), w.timelineView()->size());
        QVERIFY(countColor(png, views::TimelineView::colorOf(trace::SpanKind::Hold).rgb()) > 50);

        const QString shot = dir_.filePath("shot.png");
        QProcess p;
        p.start(QStringLiteral(IMMAP_GUI), {"--screenshot", shot, "--view", "replay", "--trace",
                                            trace_, "--size", "1200x900"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QImage img(shot);
        QCOMPARE(img.size(), QSize(1200, 900));
        QVERIFY(countColor(img, views::TimelineView::colorOf(trace::SpanKind::Exec).rgb()) > 200);
    }
};

IMMAP_TEST_SUITE(TestTimelineTab);
#include "TestTimelineTab.moc"
