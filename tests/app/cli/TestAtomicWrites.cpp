// Saves are atomic (docs/architecture.md, "Errors and saves"): an `immap` killed with SIGKILL while
// it writes leaves the previous file untouched, and whatever temporary file it leaves behind does
// not stop the next run from writing the file.
#include <signal.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <utility>

#include "KillTest.h"
#include "Suites.h"

using namespace immap;

class TestAtomicWrites : public QObject {
    Q_OBJECT

private slots:
    // The sweep computes for a while (about 1 s in Release: long enough to be killed in), then
    // saves the CSV through QSaveFile: killed while it computes, the old CSV stays as it was;
    // killed after the rename, the CSV is complete.
    void sweepCsvKilled() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("sweep.csv");
        const QStringList args{"sweep",
                               "--topology",
                               "xml:" IMMAP_SAMPLES "/topologies/numa12-384cpu.xml",
                               "--copies",
                               "1,2,4,8,16,32,64",
                               "--seeds",
                               "1",
                               "--threads",
                               "1",
                               "--csv",
                               csv};
        const auto [complete, fullMs] = runWhole(args, csv);
        QVERIFY2(complete.size() > 100, "the whole sweep wrote no CSV");
        // The save is a small write at the very end, so nearly every kill lands before it; a
        // kill that lands there leaves the old file, which is what is checked.
        const testing::KillTally t =
            testing::killUntilMidWrite(IMMAP_CLI, args, csv, complete, fullMs / 2, 0, 2, 8);
        QVERIFY2(t.wrong.isEmpty(), qPrintable(t.wrong));
        QVERIFY2(t.midWrite > 0, "no kill landed while the sweep ran");
        for (const QString& junk : testing::leftovers(dir.path(), {"sweep.csv"}))
            QVERIFY2(junk.startsWith(".sweep.csv.saving-"), qPrintable(junk));  // io::AtomicFile's
    }

    // The Perfetto export streams a big JSON through QSaveFile while reading the trace, so a
    // kill can land in the middle of the write: the old file survives. A kill after the rename
    // leaves the complete new file, which is as correct. A later export succeeds.
    void perfettoExportKilledMidWrite() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("run.trace");
        QProcess sim;
        sim.start(
            IMMAP_CLI,
            {"simulate", "--topology", "xml:" IMMAP_SAMPLES "/topologies/numa12-384cpu.xml",
             "--policy", "single", "--copies", "64", "--duration-ms", "100", "--trace", trace});
        QVERIFY(sim.waitForFinished(120000));
        QCOMPARE(sim.exitCode(), 0);
        const QString json = dir.filePath("out.json");
        const QStringList args{"trace", "export", trace, "--perfetto", json};
        const auto [complete, fullMs] = runWhole(args, json);
        QVERIFY(QJsonDocument::fromJson(complete).isObject());
        QVERIFY(complete.size() > (1 << 20));
        // Mid-write: at least 64 KiB of the export written, the target still the old file.
        const testing::KillTally t =
            testing::killUntilMidWrite(IMMAP_CLI, args, json, complete, fullMs / 2, 64 << 10);
        qInfo("export %d ms; kills: %d mid-write, %d before the write, %d after the rename", fullMs,
              t.midWrite, t.beforeWrite, t.afterCommit);
        QVERIFY2(t.wrong.isEmpty(), qPrintable(t.wrong));
        QVERIFY2(t.midWrite > 0, "no kill landed mid-write");
        const QStringList junk = testing::leftovers(dir.path(), {"run.trace", "out.json"});
        for (const QString& j : junk)
            QVERIFY2(j.startsWith(".out.json.saving-"), qPrintable(j));  // io::AtomicFile's
        QVERIFY(testing::writeAll(json, testing::kOldContent));
        QProcess again;
        again.start(IMMAP_CLI, args);
        QVERIFY(again.waitForFinished(120000));
        QCOMPARE(again.exitCode(), 0);
        QCOMPARE(testing::readAll(json), complete);
    }

    // `simulate --trace` streams its events to a hidden file beside the target and renames it
    // at the end: killed mid-write, the old file survives (it used to be left holding a cut
    // trace that replayed as if complete); the leftover is the writer's own temporary file.
    void simulateTraceKilledMidWrite() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("run.trace");
        const QStringList args{"simulate",
                               "--topology",
                               "xml:" IMMAP_SAMPLES "/topologies/numa12-384cpu.xml",
                               "--policy",
                               "single",
                               "--copies",
                               "64",
                               "--duration-ms",
                               "100",
                               "--trace",
                               trace};
        const auto [complete, fullMs] = runWhole(args, trace);
        QVERIFY(complete.startsWith("immap-trace"));
        QVERIFY(complete.size() > (2 << 20));
        const testing::KillTally t =
            testing::killUntilMidWrite(IMMAP_CLI, args, trace, complete, fullMs / 2, 1 << 20);
        qInfo("simulate %d ms; kills: %d mid-write, %d before the write, %d after the rename",
              fullMs, t.midWrite, t.beforeWrite, t.afterCommit);
        QVERIFY2(t.wrong.isEmpty(), qPrintable(t.wrong));
        QVERIFY2(t.midWrite > 0, "no kill landed mid-write");
        for (const QString& j : testing::leftovers(dir.path(), {"run.trace"}))
            QVERIFY2(j.startsWith(".run.trace.recording-"), qPrintable(j));
    }

private:
    // One whole run over an old file: what it writes and how long it took.
    static std::pair<QByteArray, int> runWhole(const QStringList& args, const QString& target) {
        testing::writeAll(target, testing::kOldContent);
        QElapsedTimer t;
        t.start();
        QProcess full;
        full.start(IMMAP_CLI, args);
        if (!full.waitForFinished(300000) || full.exitCode() != 0) return {};
        return {testing::readAll(target), static_cast<int>(t.elapsed())};
    }
};

IMMAP_TEST_SUITE(TestAtomicWrites);
#include "TestAtomicWrites.moc"
