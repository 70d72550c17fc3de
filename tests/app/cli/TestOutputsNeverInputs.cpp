// Issue 47, point 1, end to end through both executables: every output option of `immap` and
// `immap-lab` aimed at every file the command reads, whether named on the command line or inside
// another input (a scenario's recipe, its xml: topology and its maps: source; a trace's bookmarks),
// is refused before any work with exit status 2 and "OUT: ... not written", and no input changes.
// Through a symbolic link, an output is written to the link's target when that is no input, and
// the link stays a link.
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <map>

#include "KillTest.h"
#include "ProgramRun.h"
#include "Suites.h"

using namespace immap;

namespace {

using Run = immap::testing::ProgramRun;

// A refusal comes before any work: 60 s is a run that went ahead (or hung), not a slow machine.
Run run(const QString& program, const QStringList& args, const QString& cwd) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    return immap::testing::runProgram(program, args, 60000, cwd, env);
}

QString absolute(const char* relative) {
    return QFileInfo(QString::fromUtf8(relative)).absoluteFilePath();
}

// Every file under `dir` (links as links) with a digest of its bytes, or of its target's name
// for a link: what must not change.
std::map<QString, QByteArray> digest(const QString& dir) {
    std::map<QString, QByteArray> d;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        const QFileInfo fi(f);
        d[f] = fi.isSymLink()
                   ? "link to " + fi.symLinkTarget().toUtf8()
                   : QCryptographicHash::hash(testing::readAll(f), QCryptographicHash::Sha256);
    }
    return d;
}

}  // namespace

class TestOutputsNeverInputs : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString cli_, gui_;

    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:

    // One of each input kind, in one directory: the scenario names its recipe, topology and
    // source by paths relative to itself (in sub/), as a workshop's files do.
    void initTestCase() {
        QVERIFY(dir_.isValid());
        cli_ = absolute(IMMAP_CLI);
        gui_ = absolute(IMMAP_GUI);
        QVERIFY(QDir(dir_.path()).mkpath("sub"));
        const QString samples = absolute(IMMAP_SAMPLES);
        const std::map<QString, QString> copies = {
            {"sub/recipe.json", "/recipes/execl-glibc236.json"},
            {"sub/machine.xml", "/topologies/numa12-384cpu.xml"},
            {"sub/host.maps", "/snapshots/host250/17513/maps"},
            {"topo.xml", "/topologies/numa12-384cpu.xml"},
            {"recipe.json", "/recipes/execl-glibc236.json"},
            {"fit.json", "/measurements/host-2cpu-fit.json"},
            {"measured.json", "/measurements/host-2cpu-execl.json"},
            {"recording.bt.txt", "/traces/trace-execl-2x500.bt.txt"},
            {"plain.maps", "/snapshots/host250/17513/maps"},
        };
        for (const auto& [to, from] : copies)
            QVERIFY2(QFile::copy(samples + from, path(to)), qPrintable(to));
        QVERIFY(testing::writeAll(path("sub/talk.json"), R"({
  "version": 1,
  "title": "outputs never replace inputs",
  "topology": "xml:machine.xml",
  "source": "maps:host.maps",
  "recipe": "recipe.json",
  "policies": ["single"],
  "copies": [1, 2],
  "durationMs": 1
}
)"));
        const QString topo = "xml:" + path("topo.xml");
        QCOMPARE(run(cli_,
                     {"simulate", "--topology", topo, "--copies", "2", "--duration-ms", "2",
                      "--trace", path("run.trace")},
                     dir_.path())
                     .status,
                 0);
        QVERIFY(testing::writeAll(path("run.trace.bookmarks.json"),
                                  R"({"bookmarks": [{"event": 1, "caption": "first"}]})"));
        for (const char* k : {"1", "2"})
            QCOMPARE(run(cli_,
                         {"sweep", "--topology", topo, "--policies", "single", "--copies", "1,2",
                          "--duration-ms", "1", "--seeds", "1", "--shard", QString(k) + "/2",
                          "--part", path(QString("part%1.json").arg(k))},
                         dir_.path())
                         .status,
                     0);
    }

    // Each output option with the inputs its command reads; %O is the output, and each of
    // `reads` in turn is given as %O.
    void everyOutputOverEveryInput_data() {
        QTest::addColumn<bool>("gui");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("reads");
        const QString topo = "xml:topo.xml";
        const QStringList quick{"--duration-ms", "1", "--copies", "1"};
        const QStringList scenarioReads{"sub/talk.json", "sub/recipe.json", "sub/machine.xml",
                                        "sub/host.maps"};
        const QStringList optionReads{"topo.xml", "recipe.json", "fit.json"};
        const QStringList options{"--topology",  topo,    "--recipe",
                                  "recipe.json", "--fit", "fit.json"};
        const QStringList traceReads{"run.trace", "run.trace.bookmarks.json"};

        // immap
        QTest::newRow("simulate --scenario --trace")
            << false << QStringList{"simulate", "--scenario", "sub/talk.json", "--trace", "%O"}
            << scenarioReads;
        QTest::newRow("simulate options --trace")
            << false << (QStringList{"simulate"} + options + quick + QStringList{"--trace", "%O"})
            << optionReads;
        for (const char* o : {"--csv", "--png"}) {
            QTest::newRow(qPrintable(QString("sweep --scenario ") + o))
                << false << QStringList{"sweep", "--scenario", "sub/talk.json", o, "%O"}
                << scenarioReads;
            QTest::newRow(qPrintable(QString("sweep options ") + o))
                << false
                << (QStringList{"sweep", "--policies", "single"} + options + quick +
                    QStringList{o, "%O"})
                << optionReads;
        }
        QTest::newRow("sweep --scenario --part")
            << false
            << QStringList{"sweep", "--scenario", "sub/talk.json", "--shard", "1/2", "--part", "%O"}
            << scenarioReads;
        QTest::newRow("sweep options --part")
            << false
            << (QStringList{"sweep", "--policies", "single"} + options + quick +
                QStringList{"--shard", "1/2", "--part", "%O"})
            << optionReads;
        QTest::newRow("sweep merge -o")
            << false << QStringList{"sweep", "merge", "part1.json", "part2.json", "-o", "%O"}
            << QStringList{"part1.json", "part2.json"};
        QTest::newRow("trace import -o")
            << false << QStringList{"trace", "import", "recording.bt.txt", "-o", "%O"}
            << QStringList{"recording.bt.txt"};
        for (const char* o : {"--csv", "--perfetto"})
            QTest::newRow(qPrintable(QString("trace export ") + o))
                << false << QStringList{"trace", "export", "run.trace", o, "%O"}
                << QStringList{"run.trace"};
        QTest::newRow("calibrate --output")
            << false << QStringList{"calibrate", "--measured", "measured.json", "--topology", topo,
                                    "--output",  "%O"}
            << QStringList{"measured.json", "topo.xml"};

        // immap-lab: the screenshot, the figure and the hidden batch saves.
        const std::vector<std::pair<QString, QStringList>> guiOutputs = {
            {"--screenshot", {"--screenshot", "%O"}},
            {"--figure-only", {"--figure-only", "--screenshot", "%O"}},
            {"--save-scenario", {"--save-scenario", "%O"}},
            {"--record-trace",
             {"--record-trace", "%O", "--record-copies", "1", "--record-ms", "1"}},
        };
        for (const auto& [name, out] : guiOutputs) {
            const auto row = [&, &name = name, &out = out](const QString& what,
                                                           const QStringList& in,
                                                           const QStringList& reads) {
                QTest::newRow(qPrintable("immap-lab " + what + " " + name))
                    << true << (in + out) << reads;
            };
            row("--scenario", {"--scenario", "sub/talk.json"}, scenarioReads);
            row("--trace", {"--trace", "run.trace", "--view", "replay"}, traceReads);
            row("--topology", {"--topology", topo}, {"topo.xml"});
            row("topology SOURCE", {"topo.xml"}, {"topo.xml"});
            row("maps SOURCE", {"plain.maps"}, {"plain.maps"});
            row("--measured", {"--measured", "measured.json", "--view", "throughput"},
                {"measured.json"});
        }
    }

    void everyOutputOverEveryInput() {
        QFETCH(bool, gui);
        QFETCH(QStringList, args);
        QFETCH(QStringList, reads);
        const auto before = digest(dir_.path());
        for (const QString& input : reads) {
            // By the name the command was given, and by another spelling of the same file.
            for (const QString& out : {input, path(input)}) {
                QStringList a = args;
                a.replaceInStrings("%O", out);
                const Run r = run(gui ? gui_ : cli_, a, dir_.path());
                QVERIFY2(r.finished, qPrintable(input + ": hung"));
                QVERIFY2(r.status == 2, qPrintable(QString("%1 -> %2: exit %3, %4")
                                                       .arg(a.join(' '), input)
                                                       .arg(r.status)
                                                       .arg(QString::fromUtf8(r.err))));
                QVERIFY2(r.err.contains(out.toUtf8() + ": is also "), r.err.constData());
                QVERIFY2(r.err.contains("not written"), r.err.constData());
                QVERIFY2(digest(dir_.path()) == before, qPrintable(input + " changed"));
            }
        }
    }

    // -o onto a symbolic link: to a file no input, the link's target gets the output and the
    // link stays; to an input, refused (the link and the input as they were).
    void throughALink() {
        QTemporaryDir out;
        const QString target = out.filePath("target.csv"), link = out.filePath("link.csv");
        QVERIFY(testing::writeAll(target, testing::kOldContent));
        QVERIFY(QFile::link(target, link));
        const QStringList sweep{"sweep",    "--topology", "xml:topo.xml",  "--policies", "single",
                                "--copies", "1",          "--duration-ms", "1",          "--seeds",
                                "1"};
        Run r = run(cli_, sweep + QStringList{"--csv", link}, dir_.path());
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(QFileInfo(link).symLinkTarget(), target);
        QVERIFY(testing::readAll(target).startsWith("policy,"));

        // A dangling link: the file it names is created, the link kept.
        const QString dangling = out.filePath("dangling.png"), made = out.filePath("made.png");
        QVERIFY(QFile::link(made, dangling));
        r = run(gui_, {"--topology", "xml:topo.xml", "--screenshot", dangling, "--size", "400x300"},
                dir_.path());
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY(QFileInfo(dangling).isSymLink());
        QVERIFY(testing::readAll(made).startsWith("\x89PNG"));

        // A link to an input.
        const QString toInput = out.filePath("recipe-link.csv");
        QVERIFY(QFile::link(path("recipe.json"), toInput));
        const auto before = digest(dir_.path());
        r = run(cli_, sweep + QStringList{"--recipe", "recipe.json", "--csv", toInput},
                dir_.path());
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(toInput.toUtf8() + ": is also the input"), r.err.constData());
        QVERIFY(QFileInfo(toInput).isSymLink());
        QVERIFY(digest(dir_.path()) == before);
        QCOMPARE(testing::leftovers(out.path(), {"target.csv", "link.csv", "dangling.png",
                                                 "made.png", "recipe-link.csv"}),
                 QStringList());
    }
};

IMMAP_TEST_SUITE(TestOutputsNeverInputs);
#include "TestOutputsNeverInputs.moc"
