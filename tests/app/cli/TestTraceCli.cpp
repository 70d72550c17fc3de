// `immap simulate --trace` and `immap trace ...` as a user runs them: a recorded run replays to
// the simulator's own JSON, byte for byte in content, the real recording imports and its stats
// JSON has the documented keys, bad files exit 2 naming the line.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "CliRun.h"
#include "CsvReader.h"
#include "ReplayCompare.h"
#include "Suites.h"

using immap::test::runImmap;

class TestTraceCli : public QObject {
    Q_OBJECT

private slots:
    void simulateTraceReplay() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("run.trace");
        const auto sim =
            runImmap({"simulate", "--topology",
                      QString("xml:") + IMMAP_SAMPLES + "/topologies/numa12-384cpu.xml", "--policy",
                      "split-trees", "--copies", "32", "--duration-ms", "10", "--walkers", "1000",
                      "--json", "--trace", trace});
        QCOMPARE(sim.status, 0);
        const auto rep = runImmap({"trace", "replay", trace, "--json"});
        QCOMPARE(rep.status, 0);
        QJsonObject a = QJsonDocument::fromJson(sim.out).object();
        QJsonObject b = QJsonDocument::fromJson(rep.out).object();
        QCOMPARE(immap::testing::replayComparable(b), immap::testing::replayComparable(a));
        const QString json = dir.filePath("run.json");
        QCOMPARE(runImmap({"trace", "export", trace, "--perfetto", json}).status, 0);
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(!QJsonDocument::fromJson(f.readAll()).object()["traceEvents"].toArray().isEmpty());
        const QString csv = dir.filePath("locks.csv");
        QCOMPARE(runImmap({"trace", "export", trace, "--csv", csv}).status, 0);
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        QCOMPARE(c.readAll().count('\n'), 5);  // header + 4 files' locks
    }

    // A real recording whose libc lies under a path with a comma and a quote: the lock CSV
    // names the lock by its file, quoted, and every row keeps the header's 9 fields.
    void lockCsvQuotesAFileNameWithAComma() {
        QTemporaryDir dir;
        QFile in(QString(IMMAP_SAMPLES) + "/traces/trace-execl-2x500.bt.txt");
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray hostile = "/opt/a,b\"c/libc.so.6";
        QByteArray text = in.readAll();
        text.replace("/lib/x86_64-linux-gnu/libc.so.6", hostile);
        const QString rec = dir.filePath("rec.bt.txt"), trace = dir.filePath("rec.trace"),
                      csv = dir.filePath("locks.csv");
        QFile out(rec);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        QCOMPARE(runImmap({"trace", "import", rec, "-o", trace}).status, 0);
        QCOMPARE(runImmap({"trace", "export", trace, "--csv", csv}).status, 0);
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        std::string why;
        const auto rows = immap::test::CsvReader::rows(c.readAll().toStdString(), &why);
        QVERIFY2(why.empty(), why.c_str());
        QCOMPARE(rows.size(), std::size_t{5});  // header + 4 files' locks
        bool named = false;
        for (const auto& row : rows) {
            QCOMPARE(row.size(), std::size_t{9});
            named = named || row[0] == hostile.toStdString();
        }
        QVERIFY2(named, "no lock named after the file");
    }

    void importAndStats() {
        QTemporaryDir dir;
        const QString out = dir.filePath("execl.trace");
        const auto imp =
            runImmap({"trace", "import",
                      QString(IMMAP_SAMPLES) + "/traces/trace-execl-2x500.bt.txt", "-o", out});
        QCOMPARE(imp.status, 0);
        const auto st = runImmap({"trace", "stats", out, "--json"});
        QCOMPARE(st.status, 0);
        const QJsonObject o = QJsonDocument::fromJson(st.out).object();
        for (const char* k : {"events", "execs", "files", "inferred_events"})
            QVERIFY2(o.contains(k), k);
        QCOMPARE(o["execs"].toInt(), 1002);
        for (const auto& f : o["files"].toArray()) {
            const QJsonObject fo = f.toObject();
            for (const char* k :
                 {"path", "inserts", "removes", "lock_holds", "per_exec", "final_vmas"})
                QVERIFY2(fo.contains(k), k);
            for (const char* k : {"inserts", "removes", "lock_holds"})
                QVERIFY(fo["per_exec"].toObject().contains(k));
        }
    }

    void badFilesExitTwo() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.trace");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "immap-trace 2 {\"files\":[\"a\"],\"locks\":[{\"name\":\"a\",\"file\":0}]}\n0 eb 0 "
            "0\n0 xx 0 0\n");
        f.close();
        const auto r = runImmap({"trace", "stats", bad});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains((bad + ":3: unknown event code").toUtf8()), r.err.constData());
        QCOMPARE(runImmap({"trace", "stats", dir.filePath("none")}).status, 2);
        QCOMPARE(runImmap({"trace", "import", bad, "-o", dir.filePath("o")}).status, 2);
        QCOMPARE(runImmap({"trace", "frobnicate", bad}).status, 2);
        QCOMPARE(runImmap({"trace", "export", bad}).status, 2);
    }
};

IMMAP_TEST_SUITE(TestTraceCli);
#include "TestTraceCli.moc"
