// `immap snapshot stats` and `immap tree dot` end to end, on the shipped samples.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "CliRun.h"
#include "Suites.h"

namespace {

using Result = immap::test::CliResult;
using immap::test::runImmap;

const QString kSamples = QStringLiteral(IMMAP_SAMPLES);

}  // namespace

class TestSnapshotCli : public QObject {
    Q_OBJECT

private slots:
    void statsJsonOfTheCapturedHost() {
        const Result r = runImmap(
            {"snapshot", "stats", "snapshot:" + kSamples + "/snapshots/host250", "--json"});
        QCOMPARE(r.status, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["processes"].toInt(), 250);
        QVERIFY(o["skipped"].toArray().isEmpty());
        // The capture is whole: every file ends in its newline, so nothing is flagged.
        QVERIFY(o["warnings"].isArray() && o["warnings"].toArray().isEmpty());
        QVERIFY2(!r.err.contains("warning:"), r.err.constData());
        const QJsonArray files = o["files"].toArray();
        QVERIFY(files.size() > 2);
        int previous = INT_MAX;
        QJsonObject libc;
        for (const auto& v : files) {
            const QJsonObject f = v.toObject();
            QVERIFY(f["vmas"].toInt() <= previous);  // sorted, most VMAs first
            previous = f["vmas"].toInt();
            if (f["path"].toString().endsWith("/libc.so.6")) libc = f;
        }
        QCOMPARE(libc["vmas"].toInt(), 1250);
        QCOMPARE(libc["processes"].toInt(), 250);
        QCOMPARE(libc["dev"].toString(), QString("fe:00"));
        QCOMPARE(libc["inode"].toInteger(), 332835);
        QCOMPARE(libc["nodes"].toObject()["0"].toInt(), 1250);
        QCOMPARE(libc["evidence"].toObject()["numa_maps"].toInt(), 1250);
        QCOMPARE(libc["split_heights"].toArray().size(), 1);
        QVERIFY(libc["single_height"].toInt() >= 11);  // 1,250 nodes: at least log2(1251)
    }

    void statsOnTheTwelveNodeSample() {
        const Result r =
            runImmap({"snapshot", "stats", "synthetic:libc?processes=1200&nodes=12", "--topology",
                      "xml:" + kSamples + "/topologies/numa12-384cpu.xml", "--json"});
        QCOMPARE(r.status, 0);
        const QJsonObject libc =
            QJsonDocument::fromJson(r.out).object()["files"].toArray().first().toObject();
        QCOMPARE(libc["vmas"].toInt(), 6000);
        QCOMPARE(libc["nodes"].toObject().size(), 12);
        QCOMPARE(libc["split_heights"].toArray().size(), 12);
        QCOMPARE(libc["evidence"].toObject()["last_cpu"].toInt(), 6000);
    }

    void plainTextNamesTheTopology() {
        const Result r =
            runImmap({"snapshot", "stats", "snapshot:" + kSamples + "/snapshots/host250"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.contains("250 processes"));
        QVERIFY(r.out.contains("libc.so.6"));
    }

    void badSourcesExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("missing dir") << QStringList{"snapshot", "stats", "snapshot:/nonexistent/x"}
                                     << QByteArray("/nonexistent/x: no such file or directory");
        QTest::newRow("bad spec") << QStringList{"snapshot", "stats", "nonsense"}
                                  << QByteArray("unknown source");
        QTest::newRow("bad synthetic") << QStringList{"snapshot", "stats", "synthetic:libc?procs=3"}
                                       << QByteArray("unknown key 'procs'");
        QTest::newRow("bad topology") << QStringList{"snapshot", "stats", "synthetic:libc",
                                                     "--topology", "xml:/nonexistent.xml"}
                                      << QByteArray("/nonexistent.xml");
        QTest::newRow("no file") << QStringList{"tree", "dot", "synthetic:libc?processes=3",
                                                "--file", "nosuch.so"}
                                 << QByteArray("no single mapped file named 'nosuch.so'");
        QTest::newRow("bad policy")
            << QStringList{"tree", "dot", "synthetic:libc", "--file", "libc.so.6", "--policy", "x"}
            << QByteArray("unknown policy 'x'");
    }
    void badSourcesExitTwo() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        const Result r = runImmap(args);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(message), r.err.constData());
    }

    void treeDotOfSplitTrees() {
        const Result r = runImmap({"tree", "dot", "synthetic:libc?processes=24&nodes=12", "--file",
                                   "libc.so.6", "--policy", "split-trees", "--topology",
                                   "xml:" + kSamples + "/topologies/numa12-384cpu.xml"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.startsWith("digraph G {"));
        QCOMPARE(r.out.count("tree "), 12);     // one box per node's tree
        QCOMPARE(r.out.count("pid "), 24 * 5);  // one vertex per VMA
    }
};

IMMAP_TEST_SUITE(TestSnapshotCli);
#include "TestSnapshotCli.moc"
