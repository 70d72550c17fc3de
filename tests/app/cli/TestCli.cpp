// The `immap` executable end to end: exact output, exit statuses, and messages naming the
// file and line, as a user at a shell sees them.
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

QByteArray slurp(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const QString kRef = QStringLiteral(IMMAP_TEST_DATA "/itree-reference/");

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

    QTemporaryDir tmp;

    QString write(const QString& name, const QByteArray& text) {
        QFile f(tmp.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(text);
        return f.fileName();
    }

private slots:
    void referenceScriptsByteExact_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("libc-small") << "libc-small";
        QTest::newRow("random-small") << "random-small";
    }
    void referenceScriptsByteExact() {
        QFETCH(QString, name);
        const Result r = runImmap({"tree", "run", kRef + name + ".ops"});
        QCOMPARE(r.status, 0);
        QCOMPARE(r.err, QByteArray());
        QVERIFY(r.out == slurp(kRef + name + ".expected"));
    }

    void readsStandardInput() {
        const Result r = runImmap({"tree", "run", "-"}, slurp(kRef + "libc-small.ops"));
        QCOMPARE(r.status, 0);
        QVERIFY(r.out == slurp(kRef + "libc-small.expected"));
    }

    void badLinesExitTwoNamingFileAndLine_data() {
        QTest::addColumn<QByteArray>("script");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("unknown op")
            << QByteArray("i 1 0 5\nz\n") << QByteArray(":2: unknown op 'z'");
        QTest::newRow("live id") << QByteArray("i 1 0 5\ni 1 0 5\n")
                                 << QByteArray(":2: insert of live ID 1");
        QTest::newRow("unknown id")
            << QByteArray("# x\nr 4\n") << QByteArray(":2: remove of unknown ID 4");
        QTest::newRow("reversed") << QByteArray("i 1 5 0\n")
                                  << QByteArray(":1: START > LAST (5 > 0)");
        QTest::newRow("bad number")
            << QByteArray("i 1 five 9\n") << QByteArray(":1: bad number 'five'");
        QTest::newRow("overflow")
            << QByteArray("q 0 99999999999999999999\n")
            << QByteArray(":1: number '99999999999999999999' does not fit in 64 bits");
        QTest::newRow("binary") << QByteArray(
                                       "\x7f"
                                       "ELF\x02\x01\x01\0\0\0",
                                       10)
                                << QByteArray(":1: unknown op");
    }
    void badLinesExitTwoNamingFileAndLine() {
        QFETCH(QByteArray, script);
        QFETCH(QByteArray, message);
        const QString path = write("bad.ops", script);
        const Result r = runImmap({"tree", "run", path});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.startsWith(path.toUtf8() + message), r.err.constData());
        // With --bench the same validation runs first.
        const Result b = runImmap({"tree", "run", "--bench", path});
        QCOMPARE(b.status, 2);
        QVERIFY2(b.err.startsWith(path.toUtf8() + message), b.err.constData());
        QCOMPARE(b.out, QByteArray());
    }

    void missingFileAndDirectory() {
        Result r = runImmap({"tree", "run", tmp.filePath("nope.ops")});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("nope.ops: no such file"), r.err.constData());
        r = runImmap({"tree", "run", tmp.path()});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("not a regular file (a directory)"), r.err.constData());
    }

    void unreadableFile() {
        const QString path = write("secret.ops", "d\n");
        QFile::setPermissions(path, QFileDevice::Permissions());
        QFile probe(path);
        if (probe.open(QIODevice::ReadOnly))
            QSKIP("running as root: permissions do not stop reads");
        const Result r = runImmap({"tree", "run", path});
        QCOMPARE(r.status, 2);
        QVERIFY(r.err.contains("Permission denied"));
    }

    void usageErrorsExitTwo() {
        QCOMPARE(runImmap({"frobnicate"}).status, 2);
        QCOMPARE(runImmap({"tree"}).status, 2);
        QCOMPARE(runImmap({"tree", "run"}).status, 2);
        QCOMPARE(runImmap({"tree", "run", "--nonsense", "x"}).status, 2);
        QCOMPARE(runImmap({"tree", "libc", "--processes", "many"}).status, 2);
        QCOMPARE(runImmap({"--help"}).status, 0);
    }

    void benchPrintsBothStructuresAndTheRatio() {
        const Result gen = runImmap({"tree", "libc", "--processes", "100", "--cycles", "200"});
        QCOMPARE(gen.status, 0);
        const Result r = runImmap({"tree", "run", "--bench", "-"}, gen.out);
        QCOMPARE(r.status, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["inserts"].toInt(), 500 + 1000);
        QCOMPARE(o["removes"].toInt(), 1000);
        QCOMPARE(o["linkage_bytes_per_node"].toInt(), 32);
        for (const char* s : {"itree", "multimap"})
            for (const char* k : {"ns_per_insert", "ns_per_remove", "ns_per_op"})
                QVERIFY2(o[s].toObject()[k].toDouble() > 0, k);
        const double ratio = o["itree"].toObject()["ns_per_op"].toDouble() /
                             o["multimap"].toObject()["ns_per_op"].toDouble();
        QVERIFY(qAbs(o["ratio"].toDouble() - ratio) < 1e-9);
    }

    // The generator's scripts run clean and keep 5 VMAs per live process.
    void libcGeneratorRoundTrip() {
        const Result gen =
            runImmap({"tree", "libc", "--processes", "40", "--cycles", "100", "--seed", "3"});
        QCOMPARE(gen.status, 0);
        const Result r = runImmap({"tree", "run", "-"}, gen.out + "q 0x100 0x100\n");
        QCOMPARE(r.status, 0);
        QCOMPARE(r.out.trimmed().split(' ').size() - 1, 40);  // "q:" + one ID per process
    }

    void defaultSummary() {
        const Result r = runImmap({});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.contains("6000 VMAs"));
        QVERIFY(r.out.contains("invariants hold"));
        QVERIFY(r.out.contains("1200 VMAs map it"));
        // 1,200 processes dealt over 12 nodes: 100 each, five libc VMAs apiece.
        QVERIFY(r.out.contains("12 trees of 500 VMAs"));
        QVERIFY(r.out.contains("+296 B") && r.out.contains("+872 B"));
    }
};

IMMAP_TEST_SUITE(TestCli);
#include "TestCli.moc"
