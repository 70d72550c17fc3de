// The app's own saves are atomic (issue 8): an immap-lab SIGKILLed while it records a trace or
// saves a scenario over an existing file leaves that file byte for byte as it was, and what a
// killed save leaves behind is a hidden temporary that is never taken for the file (the next
// save replaces the file and opens). The child runs the window's own save code through hidden
// options (--record-trace, --save-scenario), as tests/app/cli/TestAtomicWrites does for immap.
#include <signal.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <map>

#include "KillTest.h"
#include "MainWindow.h"
#include "Suites.h"
#include "session/Scenario.h"
#include "trace/TraceCursor.h"

using namespace immap;

namespace {

void writeFile(const QString& path, const QByteArray& data) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(data), data.size());
}

int runToEnd(const QStringList& args) {
    QProcess p;
    p.start(IMMAP_GUI, args);
    if (!p.waitForFinished(300000)) return -1;
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

}  // namespace

class TestAppAtomicSaves : public QObject {
    Q_OBJECT

private slots:
    // File > Record a simulation: seconds of writing a trace of 384 copies over an old trace.
    void recordingKilledMidWrite() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("run.trace");
        writeFile(trace, testing::kOldContent);
        // About 2.5 s and 44 MB of trace (Release, 2 cores): the write alone is long enough to
        // be hit, and a longer recording only adds runs of the same kind.
        const QStringList args{"--record-trace", trace, "--record-copies", "384",
                               "--record-ms",    "300"};
        // The whole recording, for comparison (the simulation is deterministic).
        const QString ref = dir.filePath("whole.trace");
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(runToEnd({"--record-trace", ref, "--record-copies", "384", "--record-ms", "300"}),
                 0);
        const int wholeMs = static_cast<int>(clock.elapsed());
        const QByteArray whole = testing::readAll(ref);
        QVERIFY(whole.size() > (10 << 20));
        QVERIFY(QFile::remove(ref));
        // Killed while recording: the old file. Killed later (the window then opens the new
        // trace) or not at all: the new trace, byte for byte. Never anything in between. A kill
        // is mid-write when the app had written at least 1 MiB (the trace; nothing else it
        // writes is that large).
        const testing::KillTally t =
            testing::killUntilMidWrite(IMMAP_GUI, args, trace, whole, wholeMs / 2, 1 << 20, 2);
        qInfo("recording %d ms; kills: %d mid-write, %d before the write, %d after the rename",
              wholeMs, t.midWrite, t.beforeWrite, t.afterCommit);
        QVERIFY2(t.wrong.isEmpty(), qPrintable(t.wrong));
        QVERIFY2(t.midWrite > 0, "no kill landed during the recording");
        // Left behind: hidden temporaries named after the file, nothing the app opens as it.
        for (const QString& j : testing::leftovers(dir.path(), {"run.trace"}))
            QVERIFY2(j.startsWith(".run.trace.recording-"), qPrintable(j));
        // A full recording then replaces the file with a trace that opens.
        QCOMPARE(runToEnd({"--record-trace", trace, "--record-copies", "8", "--record-ms", "5"}),
                 0);
        QVERIFY(testing::readAll(trace) != testing::kOldContent);
        immap::trace::TraceCursor cursor(trace.toStdString());
        QVERIFY(cursor.events() > 0);
        QVERIFY(cursor.error().empty());
    }

    // File > Save Scenario, of a scenario near the loader's 4 MiB limit (20,000 bookmarks),
    // killed at moments from start-up to the save: whenever it dies, the old file is intact;
    // when it finishes, the new one is whole. (A scenario is small, so most kills land before
    // or after the write; the trace test above is the one that reliably kills mid-write.)
    void scenarioSaveKilled() {
        QTemporaryDir dir;
        immap::session::Scenario big;
        big.title = "big";
        for (int i = 0; i < 20000; ++i)
            big.bookmarks.push_back({"caption number " + std::to_string(i) + " with some words",
                                     "throughput",
                                     std::uint64_t(i),
                                     std::nullopt,
                                     std::nullopt,
                                     {},
                                     std::nullopt});
        const QString in = dir.filePath("big.json");
        big.save(in.toStdString());
        QVERIFY(QFileInfo(in).size() < 4 << 20);
        const QString out = dir.filePath("saved.json");
        writeFile(out, testing::kOldContent);
        const QStringList args{"--scenario", in, "--save-scenario", out};
        for (int ms : {100, 200, 300, 400, 500, 700}) {
            const testing::Kill k = testing::killAfter(IMMAP_GUI, args, ms);
            if (testing::readAll(out) == testing::kOldContent) {
                QVERIFY2(k.killed, "finished without saving");
                continue;
            }
            // Finished, or killed after the rename that commits the save: the new file, whole.
            QVERIFY(immap::session::Scenario::load(out.toStdString()).bookmarks == big.bookmarks);
            writeFile(out, testing::kOldContent);
        }
        for (const QString& j : testing::leftovers(dir.path(), {"big.json", "saved.json"}))
            QVERIFY2(j.startsWith(".saved.json.saving-"), qPrintable(j));  // io::AtomicFile's
        QCOMPARE(runToEnd(args), 0);
        QVERIFY(immap::session::Scenario::load(out.toStdString()).bookmarks == big.bookmarks);
    }

    // In-process: a recording that cannot be written (its directory is gone) fails with a
    // dialog and leaves no file behind.
    // Every way the window writes a file refuses one it has read (the CLI's rule): an export,
    // a scenario or a recording over the loaded source, topology, trace or recipe would destroy
    // what is on screen. The open trace too: its bookmarks count its events (issue 47).
    void writesNeverReplaceTheWindowsInputs() {
        QTemporaryDir dir;
        // The maps file is named like an export, so that only the input rule can refuse it.
        const QString maps = dir.filePath("maps.png");
        const QString topo = dir.filePath("topology.xml");
        QVERIFY(QFile::copy(IMMAP_SAMPLES "/snapshots/host250/17513/maps", maps));
        QVERIFY(QFile::copy(IMMAP_SAMPLES "/topologies/numa12-384cpu.xml", topo));
        const QString trace = dir.filePath("run.trace");
        immap::gui::MainWindow w(false);
        w.setHeadless(true);
        QVERIFY2(w.openPath(maps), qPrintable(w.lastError()));
        QVERIFY2(w.openPath(topo), qPrintable(w.lastError()));
        QVERIFY2(w.recordTrace(trace, "single", 2, 1), qPrintable(w.lastError()));
        std::map<QString, QByteArray> before;
        for (const QString& f : {maps, topo, trace})
            before[f] = testing::readAll(f);
        for (const QString& f : {maps, topo}) {
            QVERIFY(!w.exportView(f));
            QVERIFY2(w.lastError().contains(f + ": is also"), qPrintable(w.lastError()));
            QVERIFY(!w.exportTimeline(f));
            QVERIFY(!w.saveScenario(f));
            QVERIFY2(w.lastError().contains(f + ": is also"), qPrintable(w.lastError()));
            QVERIFY(!w.recordTrace(f, "single", 2, 1));
            QVERIFY2(w.lastError().contains(f + ": is also"), qPrintable(w.lastError()));
        }
        QVERIFY(!w.saveScenario(trace));
        QVERIFY2(w.lastError().contains(trace + ": is also"), qPrintable(w.lastError()));
        QVERIFY(!w.recordTrace(trace, "single", 3, 1));
        QVERIFY2(w.lastError().contains(trace + ": is also"), qPrintable(w.lastError()));
        for (const auto& [f, bytes] : before)
            QCOMPARE(testing::readAll(f), bytes);
        QCOMPARE(w.traceCursor()->header().copies, 2u);
        // A new file: recorded and opened.
        QVERIFY2(w.recordTrace(dir.filePath("next.trace"), "single", 3, 1),
                 qPrintable(w.lastError()));
        QCOMPARE(w.traceCursor()->header().copies, 3u);
    }

    void recordingIntoAMissingDirectory() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("none/run.trace");
        immap::gui::MainWindow w(false);
        w.setHeadless(true);
        w.loadDefault();
        QVERIFY(!w.recordTrace(trace, "single", 2, 1));
        QVERIFY(w.lastError().contains(trace));
        QVERIFY(!QFile::exists(trace));
    }
};

IMMAP_TEST_SUITE(TestAppAtomicSaves);
#include "TestAppAtomicSaves.moc"
