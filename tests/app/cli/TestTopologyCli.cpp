// `immap topology show` end to end: the JSON a script reads, DOT, XML that loads back, and
// exit status 2 with the reason on stderr for a bad spec.
#include <QDir>
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

const QString kHygon = "synthetic:package:2 numa:6 core:16 pu:2;distances=10:12:32";

}  // namespace

class TestTopologyCli : public QObject {
    Q_OBJECT

private slots:
    void jsonFields() {
        const Result r = runImmap({"topology", "show", kHygon, "--json"});
        QCOMPARE(r.status, 0);
        QCOMPARE(r.err, QByteArray());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["spec"].toString(), kHygon);
        QCOMPARE(o["packages"].toInt(), 2);
        QCOMPARE(o["cores"].toInt(), 192);
        QCOMPARE(o["pus"].toInt(), 384);
        QCOMPARE(o["distances_default"].toBool(), false);
        const QJsonArray nodes = o["nodes"].toArray();
        QCOMPARE(nodes.size(), 12);
        const QJsonObject n7 = nodes[7].toObject();
        QCOMPARE(n7["logical_index"].toInt(), 7);
        QCOMPARE(n7["os_index"].toInt(), 7);
        QCOMPARE(n7["pus"].toArray().size(), 32);
        QCOMPARE(n7["pus"].toArray().first().toInt(), 224);
        const QJsonArray d = o["distances"].toArray();
        QCOMPARE(d.size(), 12);
        QCOMPARE(d[0].toArray()[0].toInt(), 10);
        QCOMPARE(d[0].toArray()[5].toInt(), 12);
        QCOMPARE(d[0].toArray()[6].toInt(), 32);
    }

    void sampleLoadsWithItsNote() {
        const Result r = runImmap(
            {"topology", "show", "xml:" IMMAP_SAMPLES "/topologies/numa12-384cpu.xml", "--json"});
        QCOMPARE(r.status, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["nodes"].toArray().size(), 12);
        QCOMPARE(o["pus"].toInt(), 384);
        QVERIFY(o["note"].toString().startsWith("assumed shape"));
    }

    void textNamesIndexKindsAndDefaultDistances() {
        const Result r = runImmap({"topology", "show", "synthetic:package:2 numa:2 core:2 pu:2"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.contains("2 packages, 4 NUMA nodes, 8 cores, 16 PUs"), r.out.constData());
        QVERIFY(r.out.contains("L# is hwloc's logical index"));
        QVERIFY(r.out.contains("Node L#3 P#3: package L#1, 1.0 GiB, 4 PUs P#12-15"));
        QVERIFY(r.out.contains("kernel's default: 10 local, 20 remote"));
    }

    void dotAndXml() {
        Result r = runImmap({"topology", "show", kHygon, "--dot"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.startsWith("graph G {"));
        QCOMPARE(r.out.count("--"), 66);
        r = runImmap({"topology", "show", kHygon, "--xml"});
        QCOMPARE(r.status, 0);
        QTemporaryDir dir;
        QFile f(dir.filePath("t.xml"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(r.out);
        f.close();
        r = runImmap({"topology", "show", "xml:" + f.fileName(), "--json"});
        QCOMPARE(r.status, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["pus"].toInt(), 384);
        QCOMPARE(o["distances"].toArray()[11].toArray()[0].toInt(), 32);
    }

    // Issue 14: hwloc's built-in XML importer (no libhwloc-plugins, or HWLOC_LIBXML_IMPORT=0)
    // segfaulted on some of these; now every bad topology file gives exit 2 and the same bytes
    // on stderr whichever importer runs, and the default one is libxml2.
    void badXmlSameUnderBothImporters() {
        const QDir bad(IMMAP_TEST_DATA "/bad");
        const QStringList files = bad.entryList({"topology-*.xml"}, QDir::Files);
        QVERIFY(files.size() >= 6);
        for (const QString& f : files) {
            const QStringList args{"topology", "show", "xml:" + bad.filePath(f)};
            const Result libxml = runImmap(args, {}, {"HWLOC_LIBXML_IMPORT=1"});
            const Result builtin = runImmap(args, {}, {"HWLOC_LIBXML_IMPORT=0"});
            QVERIFY2(libxml.status == 2, qPrintable(f + ": " + libxml.err));
            QVERIFY2(builtin.status == 2, qPrintable(f + ": " + builtin.err));
            QCOMPARE(builtin.err, libxml.err);
            QVERIFY2(libxml.err.contains(bad.filePath(f).toUtf8()), libxml.err.constData());
        }
        QVERIFY(runImmap({"--version"}).out.contains("hwloc XML importer: libxml2"));
        QVERIFY(runImmap({"--version"}, {}, {"HWLOC_LIBXML_IMPORT=0"})
                    .out.contains("hwloc XML importer: built-in"));
    }

    void badInputExitsTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("bad spec")
            << QStringList{"topology", "show", "synthetic:numa:x"}
            << QByteArray(
                   "immap topology: topology spec "
                   "'synthetic:numa:x': 'numa:x' in the synthetic description is not TYPE:COUNT");
        QTest::newRow("bad matrix")
            << QStringList{"topology", "show", "synthetic:numa:2 pu:1;distances=10,20,20"}
            << QByteArray("3 distances for 2 NUMA nodes; need 4");
        QTest::newRow("missing file")
            << QStringList{"topology", "show", "xml:/nonexistent.xml"}
            << QByteArray("immap topology: /nonexistent.xml: no such file");
        QTest::newRow("no spec") << QStringList{"topology", "show"}
                                 << QByteArray("immap topology show: takes one SPEC");
        QTest::newRow("two formats") << QStringList{"topology", "show", "host", "--json", "--dot"}
                                     << QByteArray("exclude each other");
        QTest::newRow("unknown sub")
            << QStringList{"topology", "list"} << QByteArray("unknown topology command 'list'");
        QTest::newRow("bad option") << QStringList{"topology", "show", "host", "--svg"}
                                    << QByteArray("Unknown option 'svg'");
    }
    void badInputExitsTwo() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        const Result r = runImmap(args);
        QCOMPARE(r.status, 2);
        QCOMPARE(r.out, QByteArray());
        QVERIFY2(r.err.contains(message), r.err.constData());
    }
};

IMMAP_TEST_SUITE(TestTopologyCli);
#include "TestTopologyCli.moc"
