// The window's replay tab: a simulation recorded from the window opens for replay; the
// scrubber seeks and the drawn tree is the replay's tree at that event (node for node); the
// chosen file and tree switch what is drawn; bookmarks are kept beside the trace and survive
// reopening; a broken trace gives a dialog naming the line and shows what came before; a large
// trace is read (and a recording simulated) on a worker while the window's event loop runs,
// and Cancel keeps the old trace and the old file.
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "MainWindow.h"
#include "RecordDialog.h"
#include "ReplayPage.h"
#include "Suites.h"
#include "trace/Bookmarks.h"
#include "trace/TraceReader.h"
#include "views/ReplayControls.h"

using namespace immap;

namespace {

// The drawn tree against the replay's own tree: same size, same in-order intervals.
bool drawnIsReplayed(gui::MainWindow& w, int file, int tree) {
    const session::DrawTree& d = w.replayTreeView()->tree();
    const itree::IntervalTree& t = w.traceCursor()->replay().tree(file, tree);
    if (d.nodes.size() != t.size()) return false;
    std::size_t i = 0;
    for (const itree::Node* n = t.leftmost(); n; n = itree::IntervalTree::next(n), ++i)
        if (d.nodes[i].start != n->start || d.nodes[i].last != n->last ||
            d.nodes[i].red != n->isRed())
            return false;
    return true;
}

}  // namespace

class TestReplayTab : public QObject {
    Q_OBJECT

private slots:
    // File > Record a simulation is one dialog that opens on what the Throughput tab would
    // simulate; what it records is what it says, and the replay opens on that file.
    void recordDialogRecordsWhatItShows() {
        QTemporaryDir dir;
        gui::MainWindow w(false);
        w.loadDefault();
        const gui::RecordRequest defaults = w.replayPage()->recordDefaults();
        QCOMPARE(defaults.policy, QStringLiteral("single"));  // the sweep's first policy
        QCOMPARE(defaults.copies, 384);  // the grid's largest count on the 12-node default
        QCOMPARE(defaults.durationMs, 20.0);
        QCOMPARE(defaults.seed, quint64{1});
        // The session's walker rate: a recording is one run, at the rate (not side by side).
        QCOMPARE(defaults.walkersPerSecond, session::SimSettings::kDefaultWalkersPerSecond);
        gui::RecordDialog d({"single", "split-trees", "split-locks"}, defaults);
        QCOMPARE(d.findChild<QDoubleSpinBox*>("walkers")->value(),
                 session::SimSettings::kDefaultWalkersPerSecond);
        QCOMPARE(d.findChild<QComboBox*>("policy")->currentText(), QStringLiteral("single"));
        QCOMPARE(d.findChild<QSpinBox*>("copies")->value(), 384);
        QCOMPARE(d.findChild<QDoubleSpinBox*>("duration")->value(), 20.0);
        QVERIFY(d.findChild<QComboBox*>("policy")->findText("sharded:32") >= 0);
        d.findChild<QComboBox*>("policy")->setCurrentText("split-locks");
        d.findChild<QSpinBox*>("copies")->setValue(8);
        d.findChild<QDoubleSpinBox*>("duration")->setValue(3);
        d.findChild<QSpinBox*>("seed")->setValue(7);
        d.findChild<QDoubleSpinBox*>("walkers")->setValue(500);
        const QString path = dir.filePath("dialog.trace");
        d.findChild<QLineEdit*>("path")->setText(path);
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QVERIFY(w.replayPage()->record(d.request()));
        const trace::TraceHeader h = trace::TraceReader(path.toStdString()).header();
        QCOMPARE(QString::fromStdString(h.policy), QStringLiteral("split-locks"));
        QCOMPARE(h.copies, 8u);
        QCOMPARE(h.seed, std::uint64_t{7});
        QCOMPARE(h.walkersPerSecond, 500.0);
        QCOMPARE(h.durationMs, 3.0);
        QCOMPARE(w.tracePath(), path);
        QVERIFY(w.traceCursor());

        // One click on a bookmark goes there.
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.replaySeek(1000);
        w.addBookmark(QStringLiteral("event 1000"));
        w.replaySeek(20);
        QListWidget* marks = w.replayControls()->bookmarks();
        QCOMPARE(marks->count(), 1);
        QTest::mouseClick(marks->viewport(), Qt::LeftButton, {},
                          marks->visualItemRect(marks->item(0)).center());
        QCOMPARE(static_cast<qint64>(w.traceCursor()->position()), qint64{1000});

        // Play at one event per frame: 300 ms of play moves a handful of events, not 1% a frame.
        w.replayControls()->speed()->setCurrentIndex(0);
        w.replaySeek(0);
        emit w.replayControls()->playToggled();
        QTest::qWait(300);
        emit w.replayControls()->playToggled();
        const auto moved = static_cast<qint64>(w.traceCursor()->position());
        QVERIFY2(moved >= 1 && moved <= 300 / views::ReplayControls::kFrameMs + 3,
                 qPrintable(QString::number(moved)));

        // A policy the kernel does not have is refused in the dialog, which stays open.
        gui::RecordDialog bad({"single"}, defaults);
        bad.findChild<QComboBox*>("policy")->setCurrentText("split-everything");
        QTimer::singleShot(0, [] {
            if (QWidget* box = QApplication::activeModalWidget()) box->close();
        });
        bad.accept();
        QVERIFY(bad.result() != int(QDialog::Accepted));
    }

    // The play speeds: one event per frame, then 0.25, 1, 4 and 16% of the trace per second at
    // 25 frames per second (1% of 250,000 events a second is 100 a frame).
    void playSpeeds() {
        using views::ReplayControls;
        QCOMPARE(ReplayControls::stepPerFrame(0, 250'000), std::uint64_t{1});
        QCOMPARE(ReplayControls::stepPerFrame(1, 250'000), std::uint64_t{25});
        QCOMPARE(ReplayControls::stepPerFrame(2, 250'000), std::uint64_t{100});
        QCOMPARE(ReplayControls::stepPerFrame(3, 250'000), std::uint64_t{400});
        QCOMPARE(ReplayControls::stepPerFrame(4, 250'000), std::uint64_t{1600});
        QCOMPARE(ReplayControls::stepPerFrame(4, 10), std::uint64_t{1});  // at least one
        QCOMPARE(ReplayControls::kDefaultSpeed, 2);
    }

    void recordScrubAndBookmark() {
        QTemporaryDir dir;
        const QString path = dir.filePath("run.trace");
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.recordTrace(path, "split-trees", 24, 5));
        QVERIFY(w.traceCursor());
        const auto events = static_cast<qint64>(w.traceCursor()->events());
        QVERIFY(events > 1000);
        QCOMPARE(static_cast<qint64>(w.traceCursor()->position()), events);  // opens at the end
        QVERIFY(drawnIsReplayed(w, 0, 0));

        // Scrub with the slider.
        w.replayControls()->slider()->setValue(static_cast<int>(events / 3));
        QCOMPARE(static_cast<qint64>(w.traceCursor()->position()), events / 3);
        QVERIFY(drawnIsReplayed(w, 0, 0));
        QVERIFY(!w.replayControls()->eventText().isEmpty());

        // Another file and another tree.
        const int libc = w.replayControls()->files()->findText("libc.so.6");
        QVERIFY(libc >= 0);
        w.replayControls()->files()->setCurrentIndex(libc);
        w.replayControls()->trees()->setCurrentIndex(3);
        QVERIFY(drawnIsReplayed(w, libc, 3));

        // A bookmark, saved beside the trace, and back to it after moving away.
        w.addBookmark("a third of the way");
        const auto marks =
            trace::Bookmarks::load(trace::Bookmarks::sidecarPath(path.toStdString()));
        QCOMPARE(marks.size(), std::size_t{1});
        QCOMPARE(marks[0].event, static_cast<std::uint64_t>(events / 3));
        QCOMPARE(marks[0].caption, std::string("a third of the way"));
        w.replaySeek(10);
        QCOMPARE(w.replayControls()->bookmarks()->count(), 1);
        emit w.replayControls()->bookmarkChosen(0);
        QCOMPARE(static_cast<qint64>(w.traceCursor()->position()), events / 3);

        // Reopened, the bookmark is still there.
        gui::MainWindow again(false);
        again.loadDefault();
        QVERIFY(again.openTrace(path));
        QCOMPARE(again.replayControls()->bookmarks()->count(), 1);
    }

    void brokenTraceShowsWhatCameBefore() {
        QTemporaryDir dir;
        const QString good = dir.filePath("good.trace");
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.recordTrace(good, "single", 4, 2));
        QFile f(good);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = f.readAll().split('\n');
        lines[50] = "12 nonsense 0 0";
        const QString bad = dir.filePath("bad.trace");
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(lines.join('\n'));
        out.close();
        QVERIFY(w.openTrace(bad));
        QCOMPARE(w.traceCursor()->events(), std::uint64_t{49});
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorDialog"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(bad + ":51:"), qPrintable(box->text()));
        box->close();
        QVERIFY(!w.openTrace(dir.filePath("missing.trace")));
    }

    void loadingRunsOffTheGuiThreadAndCancels() {
        QTemporaryDir dir;
        const QString small = dir.filePath("small.trace");
        const QString big = dir.filePath("big.trace");
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.recordTrace(small, "single", 4, 2));
        const std::uint64_t smallEvents = w.traceCursor()->events();
        QVERIFY(w.recordTrace(big, "split-locks", 96, 10));
        const std::uint64_t bigEvents = w.traceCursor()->events();
        QVERIFY(bigEvents > 100000);
        QVERIFY(w.openTrace(small));

        // While the big trace loads, the window's own event loop keeps running: a timer ticks.
        int ticks = 0;
        QTimer tick;
        connect(&tick, &QTimer::timeout, [&] { ++ticks; });
        tick.start(1);
        QVERIFY(w.openTrace(big));
        tick.stop();
        QVERIFY2(ticks > 0, "the GUI thread was blocked for the whole load");
        QCOMPARE(w.traceCursor()->events(), bigEvents);
        QVERIFY(w.timeline()->timeline());
        QCOMPARE(static_cast<std::uint64_t>(w.timeline()->timeline()->eventCount()), bigEvents);

        // Cancel as soon as the load starts: the small trace stays, timeline and all.
        QVERIFY(w.openTrace(small));
        const auto cancelLoad = [&w] {
            auto* progress = w.findChild<QProgressDialog*>();
            QVERIFY(progress);
            auto* button = progress->findChild<QPushButton*>();
            QVERIFY(button);
            button->click();
        };
        QTimer::singleShot(0, &w, cancelLoad);
        QVERIFY(!w.openTrace(big));
        QCOMPARE(w.traceCursor()->events(), smallEvents);
        QCOMPARE(static_cast<std::uint64_t>(w.timeline()->timeline()->eventCount()), smallEvents);

        // Cancel a recording over the big trace: the file is as it was, the small trace shown.
        QFile before(big);
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray bytes = before.readAll();
        before.close();
        QTimer::singleShot(0, &w, cancelLoad);
        QVERIFY(!w.recordTrace(big, "split-locks", 96, 10));
        QFile after(big);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QVERIFY(after.readAll() == bytes);
        QCOMPARE(w.traceCursor()->events(), smallEvents);
    }
};

IMMAP_TEST_SUITE(TestReplayTab);
#include "TestReplayTab.moc"
