// Saves are atomic (DESIGN.md section 7): an `immap` killed with SIGKILL while it writes leaves
// the previous file untouched, and whatever temporary file it leaves behind does not stop the
// next run from writing the file.
#include <signal.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "KillTest.h"
#include "Suites.h"

using namespace immap;

class TestAtomicWrites : public QObject {
    Q_OBJECT

private slots:
    // The sweep computes for a long time, then saves the CSV through QSaveFile: killed at any
    // point, the old CSV stays as it was.
    void sweepCsvKilled() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("sweep.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(testing::kOldContent);
        f.close();
        const QStringList args{"sweep",
                               "--topology",
                               "xml:" IMMAP_SAMPLES "/topologies/numa12-384cpu.xml",
                               "--copies",
                               "1,2,4,8,16,32,64,128,192,256,384",
                               "--threads",
                               "1",
                               "--csv",
                               csv};
        int killed = 0;
        for (int ms : {300, 900, 2000}) {
            killed += testing::killAfter(IMMAP_CLI, args, ms);
            QCOMPARE(testing::readAll(csv), testing::kOldContent);
        }
        QVERIFY(killed > 0);
        for (const QString& junk : testing::leftovers(dir.path(), {"sweep.csv"}))
            QVERIFY2(junk.startsWith("sweep.csv."), qPrintable(junk));  // QSaveFile's own
    }

    // The Perfetto export streams a big JSON through QSaveFile while reading the trace, so a
    // kill lands in the middle of the write. The old file survives; a later export succeeds.
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
        QFile f(json);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(testing::kOldContent);
        f.close();
        const QStringList args{"trace", "export", trace, "--perfetto", json};
        QElapsedTimer t;
        t.start();
        QProcess full;
        full.start(IMMAP_CLI, args);
        QVERIFY(full.waitForFinished(120000));
        const int fullMs = static_cast<int>(t.elapsed());
        QCOMPARE(full.exitCode(), 0);
        const QByteArray complete = testing::readAll(json);
        QVERIFY(QJsonDocument::fromJson(complete).isObject());
        f.open(QIODevice::WriteOnly);
        f.write(testing::kOldContent);
        f.close();
        int killed = 0;
        for (int part : {4, 2}) {
            killed += testing::killAfter(IMMAP_CLI, args, std::max(20, fullMs / part));
            QCOMPARE(testing::readAll(json), testing::kOldContent);
        }
        QVERIFY2(killed > 0, "the export always finished before the kill");
        const QStringList junk = testing::leftovers(dir.path(), {"run.trace", "out.json"});
        for (const QString& j : junk)
            QVERIFY2(j.startsWith("out.json."), qPrintable(j));
        QProcess again;
        again.start(IMMAP_CLI, args);
        QVERIFY(again.waitForFinished(120000));
        QCOMPARE(again.exitCode(), 0);
        QCOMPARE(testing::readAll(json), complete);
    }
};

IMMAP_TEST_SUITE(TestAtomicWrites);
#include "TestAtomicWrites.moc"
