// Every command's --help, walked from the CLI's own list (`immap help --list`), so that a command
// added to the table cannot go without one: each prints its own usage naming its path (not the
// binary's), exits 0, and refuses an unknown option with exit status 2. Units are written one way.
#include <QRegularExpression>
#include <QTest>

#include "CliRun.h"
#include "Suites.h"

namespace {

using immap::test::runImmap;

QStringList commandPaths() {
    const auto r = runImmap({"help", "--list"});
    if (r.status != 0) return {};
    return QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
}

// "us" for microseconds, as a word after a number or alone in a label.
const QRegularExpression kAsciiMicro(R"((\d|\()\s*us\b)");

}  // namespace

class TestHelpCli : public QObject {
    Q_OBJECT

private slots:
    void listNamesEveryCommand() {
        const QStringList paths = commandPaths();
        for (const char* p :
             {"tree", "tree run", "tree libc", "tree dot", "snapshot stats", "topology show",
              "simulate", "sweep", "validate", "trace import", "trace stats", "trace replay",
              "trace export", "bench execl", "bench tree-locks", "calibrate", "help"})
            QVERIFY2(paths.contains(p), p);
        // The top-level usage lists every command the list names.
        const QByteArray usage = runImmap({"--help"}).out;
        for (const QString& p : paths)
            QVERIFY2(usage.contains(p.toUtf8()), qPrintable(p));
    }

    void everyCommandAnswersHelp_data() {
        QTest::addColumn<QString>("path");
        const QStringList paths = commandPaths();
        QVERIFY(paths.size() >= 16);
        for (const QString& p : paths)
            QTest::newRow(qPrintable(p)) << p;
    }
    void everyCommandAnswersHelp() {
        QFETCH(QString, path);
        for (const char* flag : {"--help", "-h"}) {
            const auto r = runImmap(path.split(' ') << flag);
            QVERIFY2(r.status == 0, r.err.constData());
            QVERIFY2(r.err.isEmpty(), r.err.constData());
            QVERIFY2(r.out.startsWith("Usage: immap"), r.out.constData());
            QVERIFY2(r.out.contains("immap " + path.toUtf8()), r.out.constData());
            QVERIFY2(!r.out.contains(IMMAP_CLI), r.out.constData());
            QVERIFY2(!QString::fromUtf8(r.out).contains(kAsciiMicro), r.out.constData());
        }
    }

    void everyCommandRefusesAnUnknownOption_data() { everyCommandAnswersHelp_data(); }
    void everyCommandRefusesAnUnknownOption() {
        QFETCH(QString, path);
        const auto r = runImmap(path.split(' ') << "--no-such-option");
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("no-such-option"), r.err.constData());
        QVERIFY2(r.err.startsWith("immap"), r.err.constData());
        QVERIFY2(r.out.isEmpty(), r.out.constData());
    }

    void helpCommandGivesTheSameUsage() {
        const auto viaHelp = runImmap({"help", "trace", "export"});
        QCOMPARE(viaHelp.status, 0);
        QCOMPARE(viaHelp.out, runImmap({"trace", "export", "--help"}).out);
        QCOMPARE(runImmap({"help"}).out, runImmap({"--help"}).out);
    }

    // Help lists each option the parser accepts, defaults included, from the same table.
    void helpShowsOptionsAndDefaults() {
        const auto r = runImmap({"tree", "libc", "--help"});
        QVERIFY(r.out.contains("Usage: immap tree libc [options]\n"));
        QVERIFY(r.out.contains("--processes P"));
        QVERIFY(r.out.contains("Default: 1200."));
        QVERIFY(runImmap({"trace", "import", "--help"}).out.contains("-o, --output OUT"));
    }

    // Output labels use "µs" like the help, for times and the cost model's sources.
    void outputsWriteMicroseconds() {
        const auto params = runImmap({"simulate", "--list-params"});
        QCOMPARE(params.status, 0);
        QVERIFY(params.out.contains("888 µs"));
        QVERIFY2(!QString::fromUtf8(params.out).contains(kAsciiMicro), params.out.constData());
        const auto sim = runImmap({"simulate", "--topology", "synthetic:numa:2 core:2 pu:1",
                                   "--copies", "4", "--duration-ms", "5"});
        QVERIFY2(sim.status == 0, sim.err.constData());
        QVERIFY2(!QString::fromUtf8(sim.out).contains(kAsciiMicro), sim.out.constData());
    }
};

IMMAP_TEST_SUITE(TestHelpCli);
#include "TestHelpCli.moc"
