// The window's contention tab on the default scenario (12 nodes, 384 CPUs): Start runs both
// policies on a worker thread and snapshots arrive by queued signal while the GUI thread keeps
// processing events; pause stops simulated time and leaves the picture unchanged for 2 s;
// step advances to the first event that shows and the caption names it;
// resume moves on; cancel joins the thread, after which nothing more arrives and a new run can
// start; the keyboard shortcuts do the same; --screenshot --view contention renders lanes with
// the waiting colour on the 12-node sample.
#include <QElapsedTimer>
#include <QImage>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "MainWindow.h"
#include "Suites.h"
#include "TextSizeProbe.h"
#include "views/FontScale.h"

using namespace immap;

namespace {

std::uint64_t events(const live::LiveSnapshot& s) {
    std::uint64_t n = 0;
    for (const auto& r : s.runs)
        n += r.events;
    return n;
}

}  // namespace

class TestContentionTab : public QObject {
    Q_OBJECT

private slots:
    void pauseStepResumeCancel() {
        gui::MainWindow w(false);
        w.setHeadless(true);
        w.loadDefault();
        QVERIFY(w.setView("contention"));
        w.resize(1600, 1000);
        w.show();  // painted as the snapshots arrive, like a user's window
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ContentionController* c = w.contention();
        QSignalSpy spy(c, &ContentionController::snapshotReady);
        w.contentionControls()->setSlowdown(1000);
        QElapsedTimer call;
        call.start();
        QVERIFY(w.startContention());
        const qint64 startMs = call.elapsed();
        QVERIFY(c->running());

        // Snapshots arrive while this (the GUI) thread runs its event loop, and a timer of
        // ours keeps firing meanwhile: the simulation does not hold this thread. The longest
        // gap between its ticks is printed (not asserted: no timings in unit tests).
        int ticks = 0;
        qint64 maxGap = 0;
        QElapsedTimer gap;
        gap.start();
        QTimer timer;
        connect(&timer, &QTimer::timeout, [&] {
            ++ticks;
            maxGap = std::max(maxGap, gap.restart());
        });
        timer.start(10);
        QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 5, 20000);
        QVERIFY(ticks > 0);
        const LiveSnapshotPtr first = qvariant_cast<LiveSnapshotPtr>(spy.first().at(0));
        QCOMPARE(first->runs.size(), std::size_t{2});
        QCOMPARE(first->runs[0].policy, std::string("single"));
        QCOMPARE(first->runs[1].policy, std::string("split-locks"));
        QCOMPARE(first->runs[0].lanes.size(), std::size_t{384});
        QTRY_VERIFY_WITH_TIMEOUT(c->latest()->now > first->now, 20000);
        // The view shows what the controller last published.
        QCOMPARE(w.contentionView(0)->snapshot().lanes.size(), std::size_t{384});

        // Pause: once a paused snapshot is out, simulated time and events stand still.
        c->pause();
        QTRY_VERIFY_WITH_TIMEOUT(c->latest()->paused, 20000);
        const sim::Time t0 = c->latest()->now;
        const std::uint64_t e0 = events(*c->latest());
        const int before = spy.count();
        QTest::qWait(300);
        QVERIFY(spy.count() >= before);
        QCOMPARE(c->latest()->now, t0);
        QCOMPARE(events(*c->latest()), e0);
        // Everything on screen stands still, the lanes' history included, for 2 s of
        // paused frames (the worker keeps publishing them).
        QWidget* figure = w.contentionPage()->figure();
        const QImage still = figure->grab().toImage();
        const int pausedFrames = spy.count();
        QTest::qWait(2000);
        QVERIFY2(spy.count() > pausedFrames, "paused frames keep arriving");
        QVERIFY2(figure->grab().toImage() == still, "the paused picture changed within 2 s");
        QVERIFY(w.contentionPage()->caption()->text().startsWith(QStringLiteral("Paused")));

        // Step: up to the first event that shows (at least one), then still; the caption says
        // which event ran, by CPU and node, under the run that stepped.
        c->step();
        QTRY_VERIFY_WITH_TIMEOUT(events(*c->latest()) > e0, 20000);
        const std::uint64_t e1 = events(*c->latest());
        QVERIFY(c->latest()->now >= t0);
        {
            const LiveSnapshotPtr s = c->latest();
            int stepped = 0;
            for (const auto& r : s->runs)
                if (!r.stepped.empty()) {
                    ++stepped;
                    const QString caption = w.contentionPage()->caption()->text();
                    QVERIFY2(caption.startsWith(QStringLiteral("Step, %1 at t = ")
                                                    .arg(QString::fromStdString(r.policy))),
                             qPrintable(caption));
                    QVERIFY(caption.contains(QString::fromStdString(r.stepped.front())));
                }
            QCOMPARE(stepped, 1);
        }
        QTest::qWait(200);
        QCOMPARE(events(*c->latest()), e1);
        c->step();
        c->step();
        QTRY_VERIFY_WITH_TIMEOUT(events(*c->latest()) >= e1 + 2, 20000);

        // Resume: the clock moves again.
        c->resume();
        QTRY_VERIFY_WITH_TIMEOUT(c->latest()->now > t0 && !c->latest()->paused, 20000);

        // Cancel: joined on return; nothing arrives afterwards; the buttons say so.
        call.restart();
        c->cancel();
        qInfo(
            "GUI thread: start() %lld ms, cancel() %lld ms, longest gap between 10 ms timer "
            "ticks while running %lld ms",
            startMs, call.elapsed(), maxGap);
        QVERIFY(!c->running());
        const int after = spy.count();
        QTest::qWait(200);
        QCOMPARE(spy.count(), after);
        QCOMPARE(ticks > 0, true);
        // And a new run starts cleanly.
        QVERIFY(w.startContention());
        QTRY_VERIFY_WITH_TIMEOUT(spy.count() > after, 20000);
        c->cancel();
    }

    void shortcutsAndButtons() {
        gui::MainWindow w(false);
        w.setHeadless(true);
        w.loadDefault();
        QVERIFY(w.setView("contention"));
        QVERIFY(w.startContention());  // the first start sets one copy per CPU
        w.contention()->cancel();
        QCOMPARE(w.contentionControls()->copies(), 384);
        w.contentionControls()->setCopies(64, 384);  // kept on the same topology
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        w.contentionView(0)->setFocusPolicy(Qt::StrongFocus);
        w.contentionView(0)->setFocus();
        ContentionController* c = w.contention();
        QTest::keyClick(w.contentionView(0), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(c->running() && c->latest(), 20000);
        QCOMPARE(c->latest()->runs[0].lanes.size(), std::size_t{64});
        QTest::keyClick(w.contentionView(0), Qt::Key_P);
        QVERIFY(c->paused());
        QTRY_VERIFY_WITH_TIMEOUT(c->latest()->paused, 20000);
        const std::uint64_t e0 = events(*c->latest());
        QTest::keyClick(w.contentionView(0), Qt::Key_Period);
        QTRY_VERIFY_WITH_TIMEOUT(events(*c->latest()) > e0, 20000);
        const std::uint64_t e1 = events(*c->latest());
        QTest::mouseClick(w.contentionControls()->stepButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(events(*c->latest()) > e1, 20000);
        QTest::keyClick(w.contentionView(0), Qt::Key_Escape);
        QVERIFY(!c->running());
        QVERIFY(!w.contentionControls()->cancelButton()->isEnabled());
    }

    // A small machine: one copy per CPU, so two lanes, each on its own CPU.
    void copiesFollowTheTopology() {
        gui::MainWindow w(false);
        w.setHeadless(true);
        w.loadDefault();
        QVERIFY(
            w.openTopology(QStringLiteral("xml:") + IMMAP_SAMPLES + "/topologies/host-2cpu.xml"));
        ContentionController* c = w.contention();
        QVERIFY(w.startContention());
        QCOMPARE(w.contentionControls()->copies(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(c->latest(), 20000);
        QCOMPARE(c->latest()->runs[0].lanes.size(), std::size_t{2});
        QVERIFY(c->latest()->runs[0].lanes[0].cpu != c->latest()->runs[0].lanes[1].cpu);
        c->cancel();
    }

    void badPolicyGivesAnError() {
        gui::MainWindow w(false);
        w.setHeadless(true);
        w.loadDefault();
        w.contentionControls()->setPolicies("single", "sharded:zero");
        QVERIFY(!w.startContention());
        QVERIFY(!w.contention()->running());
        QVERIFY(!w.lastError().isEmpty());
    }

    // Workshop mode at 1280x720: the twelve nodes' summary lanes, their labels, the lock
    // queues and the header are written in the slide's type. Every text both lanes views
    // paint is at least 18 px high (TextSizeProbe sees each text run), after 30 ms of the
    // default scenario's 384 copies (every node's lane is then a summary with its text).
    void workshopTypeOnTheLanes() {
        gui::MainWindow w(false);
        w.setHeadless(true);
        w.loadDefault();
        QVERIFY(w.setView("contention"));
        w.setWorkshopMode(true);
        w.setWindowState(w.windowState() & ~Qt::WindowFullScreen);  // offscreen: 800x800
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.runContentionFor(30'000'000, 60));
        QApplication::processEvents();
        QStringList small;
        for (int side : {0, 1}) {
            views::ContentionView* v = w.contentionView(side);
            TextSizeProbe probe(v->size());
            v->render(&probe);
            QVERIFY(probe.texts().size() > 12);
            for (const TextSizeProbe::Text& t : probe.texts())
                if (t.px < views::kSlideMinPx - 0.5)
                    small << QStringLiteral("side %1: \"%2\" %3 px at (%4, %5)")
                                 .arg(side)
                                 .arg(t.text.left(40))
                                 .arg(t.px, 0, 'f', 1)
                                 .arg(t.at.x(), 0, 'f', 0)
                                 .arg(t.at.y(), 0, 'f', 0);
        }
        w.setWorkshopMode(false);
        small.removeDuplicates();
        QVERIFY2(small.isEmpty(), qPrintable(small.mid(0, 30).join('\n')));
    }

    void screenshotOfThe12NodeSample() {
        QTemporaryDir dir;
        const QString png = dir.filePath("contention.png");
        QProcess p;
        p.start(IMMAP_GUI,
                {"--screenshot", png, "--view", "contention", "--size", "1600x1000", "--topology",
                 QStringLiteral("xml:") + IMMAP_SAMPLES + "/topologies/numa12-384cpu.xml"});
        QVERIFY(p.waitForFinished(180000));
        QCOMPARE(p.exitCode(), 0);
        const QImage img(png);
        QCOMPARE(img.size(), QSize(1600, 1000));
        // Both sides' lanes hold the waiting colour somewhere (384 copies queue at the start).
        int left = 0, right = 0;
        for (int y = 0; y < img.height(); y += 2)
            for (int x = 0; x < img.width(); x += 2)
                if (img.pixel(x, y) == views::ContentionView::waitingColor().rgb())
                    ++(x < img.width() / 2 ? left : right);
        QVERIFY(left > 50);
        QVERIFY(right > 0);
    }
};

IMMAP_TEST_SUITE(TestContentionTab);
#include "TestContentionTab.moc"
