// Issue 15, points 1 and 5, end to end through the built `immap`: every input option given a
// FIFO (which no writer ever opens), /dev/zero and a directory ends within seconds with exit 2
// and "FILE: not a regular file (...)"; every output option refuses a FIFO, a directory, a
// device node and any of the command's own inputs (by name, by link), with exit 2 and the file
// as it was; a failed import leaves the previous trace whole.
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "KillTest.h"
#include "ProgramRun.h"
#include "Suites.h"

using namespace immap;

namespace {

using Run = immap::testing::ProgramRun;

// A FIFO given to a reader that blocks would never end: 20 s is a hang, not a slow machine.
Run run(const QStringList& args) {
    return immap::testing::runProgram(IMMAP_CLI, args, 20000);
}

bool isFifo(const QString& path) {
    struct stat st {};
    return ::stat(path.toLocal8Bit().constData(), &st) == 0 && S_ISFIFO(st.st_mode);
}

const QString kTopo = QStringLiteral("xml:" IMMAP_SAMPLES "/topologies/numa12-384cpu.xml");
const QString kRecipe = QStringLiteral(IMMAP_SAMPLES "/recipes/execl-glibc236.json");
const QString kMeasured = QStringLiteral(IMMAP_SAMPLES "/measurements/host-2cpu-execl.json");
const QString kRecording = QStringLiteral(IMMAP_SAMPLES "/traces/trace-execl-2x500.bt.txt");

// Each input option; %1 is the file, %2 an output path that must not be created.
QStringList inputCommand(const QString& kind, const QString& f, const QString& out) {
    const QStringList quick{"--copies", "1", "--duration-ms", "1"};
    if (kind == "maps") return {"snapshot", "stats", "maps:" + f};
    if (kind == "archive") return {"snapshot", "stats", "snapshot:" + f};
    if (kind == "snapshot topology")
        return {"snapshot", "stats", "synthetic:libc?processes=2", "--topology", "xml:" + f};
    if (kind == "tree run") return {"tree", "run", f};
    if (kind == "tree dot") return {"tree", "dot", "maps:" + f, "--file", "libc.so.6"};
    if (kind == "topology show") return {"topology", "show", "xml:" + f};
    if (kind == "simulate recipe") return QStringList{"simulate", "--recipe", f} + quick;
    if (kind == "simulate fit") return QStringList{"simulate", "--fit", f} + quick;
    if (kind == "simulate topology")
        return QStringList{"simulate", "--topology", "xml:" + f} + quick;
    if (kind == "sweep recipe")
        return QStringList{"sweep", "--topology", kTopo, "--recipe", f, "--policies", "single"} +
               quick;
    if (kind == "calibrate") return {"calibrate", "--measured", f, "--output", out};
    if (kind == "trace stats") return {"trace", "stats", f};
    if (kind == "trace replay") return {"trace", "replay", f};
    if (kind == "trace export") return {"trace", "export", f, "--csv", out};
    if (kind == "trace import") return {"trace", "import", f, "-o", out};
    return {};
}

}  // namespace

class TestSpecialFiles : public QObject {
    Q_OBJECT

private slots:
    void specialInputs_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("what");
        for (const char* kind :
             {"maps", "archive", "snapshot topology", "tree run", "tree dot", "topology show",
              "simulate recipe", "simulate fit", "simulate topology", "sweep recipe", "calibrate",
              "trace stats", "trace replay", "trace export", "trace import"}) {
            const std::string k = kind;
            QTest::newRow((k + ", fifo").c_str()) << kind << "fifo"
                                                  << "a FIFO";
            QTest::newRow((k + ", /dev/zero").c_str()) << kind << "/dev/zero"
                                                       << "a character device";
            // A directory is what snapshot: is for.
            if (k != "archive")
                QTest::newRow((k + ", directory").c_str()) << kind << "dir"
                                                           << "a directory";
        }
    }

    void specialInputs() {
        QFETCH(QString, kind);
        QFETCH(QString, file);
        QFETCH(QString, what);
        QTemporaryDir dir;
        QCOMPARE(::mkfifo(dir.filePath("fifo").toLocal8Bit().constData(), 0600), 0);
        QVERIFY(QDir(dir.path()).mkdir("dir"));
        const QString path = file.startsWith('/') ? file : dir.filePath(file);
        const QString out = dir.filePath("out");
        const Run r = run(inputCommand(kind, path, out));
        QVERIFY2(r.finished, "hung (killed after 20 s)");
        QVERIFY2(r.status == 2, r.err.constData());
        // "FILE: reason": one message format for every reader (io::InputError), never "FILE:0:".
        const QByteArray reason = "not a regular file (" + what.toUtf8() + ")";
        const QByteArray want = path.toUtf8() + ": " + reason;
        QVERIFY2(r.err.contains(want) && !r.err.contains(path.toUtf8() + ":0:"),
                 ("wanted " + want + ", got " + r.err).constData());
        QVERIFY2(r.ms < 15000, "took too long");
        QVERIFY(!QFileInfo::exists(out));
        QVERIFY(isFifo(dir.filePath("fifo")));
    }

    // Outputs that are not regular files: refused before any work, left as they are.
    void specialOutputs_data() {
        QTest::addColumn<QStringList>("args");  // %1 is the output
        const QStringList quick{"--copies", "1", "--duration-ms", "1"};
        QTest::newRow("sweep --csv")
            << (QStringList{"sweep", "--topology", kTopo, "--policies", "single", "--csv", "%1"} +
                quick);
        QTest::newRow("sweep --png")
            << (QStringList{"sweep", "--topology", kTopo, "--policies", "single", "--png", "%1"} +
                quick);
        QTest::newRow("simulate --trace")
            << (QStringList{"simulate", "--topology", kTopo, "--trace", "%1"} + quick);
        QTest::newRow("calibrate --output")
            << QStringList{"calibrate", "--measured", kMeasured, "--output", "%1"};
        QTest::newRow("bench execl --output")
            << QStringList{"bench", "execl",    "--copies", "1",        "--seconds",
                           "0.1",   "--repeat", "1",        "--output", "%1"};
        QTest::newRow("trace import -o") << QStringList{"trace", "import", kRecording, "-o", "%1"};
        QTest::newRow("trace export --csv") << QStringList{
            "trace", "export", IMMAP_TEST_DATA "/../../samples/traces/none", "--csv", "%1"};
    }

    void specialOutputs() {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString fifo = dir.filePath("fifo");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QVERIFY(QDir(dir.path()).mkdir("dir"));
        QStringList targets{fifo, dir.filePath("dir")};
        // As root, a device node of our own (the numbers of /dev/null, which is never touched):
        // QSaveFile would have replaced it with a regular file.
        const QString node = dir.filePath("null");
        if (::geteuid() == 0) {
            QCOMPARE(::mknod(node.toLocal8Bit().constData(), S_IFCHR | 0600, makedev(1, 3)), 0);
            targets << node;
        }
        for (const QString& target : targets) {
            QStringList a = args;
            a.replaceInStrings("%1", target);
            if (a.contains("export")) {  // needs a real trace to get as far as the output
                const QString trace = dir.filePath("in.trace");
                const Run rec = run({"simulate", "--topology", kTopo, "--copies", "1",
                                     "--duration-ms", "1", "--trace", trace});
                QCOMPARE(rec.status, 0);
                a[2] = trace;
            }
            const Run r = run(a);
            QVERIFY2(r.finished, "hung");
            QVERIFY2(r.status == 2, (target + ": " + r.err).toUtf8().constData());
            QVERIFY2(r.err.contains(target.toUtf8() + ": not a regular file ("), r.err.constData());
            QVERIFY2(r.ms < 15000, "refused late");
        }
        QVERIFY(isFifo(fifo));
        QVERIFY(QFileInfo(dir.filePath("dir")).isDir());
        if (::geteuid() == 0) {
            struct stat st {};
            QCOMPARE(::stat(node.toLocal8Bit().constData(), &st), 0);
            QVERIFY(S_ISCHR(st.st_mode));
        }
        QCOMPARE(QDir(dir.filePath("dir"))
                     .entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden),
                 QStringList());
    }

    // An output that is one of the command's inputs, by the same name or through a link:
    // refused, the input unchanged.
    void outputOverAnInput_data() {
        QTest::addColumn<QString>("input");     // copied to in.* in the temporary directory
        QTest::addColumn<QStringList>("args");  // %1 the input, %2 the output
        const QStringList quick{"--copies", "1", "--duration-ms", "1"};
        QTest::newRow("trace export --csv T")
            << "trace" << QStringList{"trace", "export", "%1", "--csv", "%2"};
        QTest::newRow("trace export --perfetto T")
            << "trace" << QStringList{"trace", "export", "%1", "--perfetto", "%2"};
        QTest::newRow("trace import IN -o IN")
            << kRecording << QStringList{"trace", "import", "%1", "-o", "%2"};
        QTest::newRow("simulate --recipe R --trace R")
            << kRecipe
            << (QStringList{"simulate", "--topology", kTopo, "--recipe", "%1", "--trace", "%2"} +
                quick);
        QTest::newRow("sweep --recipe R --csv R")
            << kRecipe
            << (QStringList{"sweep", "--topology", kTopo, "--policies", "single", "--recipe", "%1",
                            "--csv", "%2"} +
                quick);
        QTest::newRow("calibrate --measured M --output M")
            << kMeasured << QStringList{"calibrate", "--measured", "%1", "--output", "%2"};
    }

    void outputOverAnInput() {
        QFETCH(QString, input);
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString in = dir.filePath("in");
        if (input == "trace") {
            QCOMPARE(run({"simulate", "--topology", kTopo, "--copies", "2", "--duration-ms", "2",
                          "--trace", in})
                         .status,
                     0);
        } else {
            QVERIFY(QFile::copy(input, in));
        }
        const QByteArray before = testing::readAll(in);
        QVERIFY(!before.isEmpty());
        const QString link = dir.filePath("link");
        QVERIFY(QFile::link(in, link));
        for (const QString& out : {in, link}) {
            QStringList a = args;
            a.replaceInStrings("%1", in);
            a.replaceInStrings("%2", out);
            const Run r = run(a);
            QVERIFY2(r.status == 2, r.err.constData());
            QVERIFY2(r.err.contains(out.toUtf8() + ": is also "), r.err.constData());
            QCOMPARE(testing::readAll(in), before);
        }
        QCOMPARE(testing::leftovers(dir.path(), {"in", "link"}), QStringList());
    }

    // Two outputs of one run naming one file (directly or through a symlink): refused before
    // any work, with both options named, and the file untouched; `trace export` takes one
    // export per run instead of silently dropping the second.
    void twoOutputsNamingOneFile() {
        QTemporaryDir dir;
        const QString out = dir.filePath("both");
        QVERIFY(testing::writeAll(out, testing::kOldContent));
        const QString link = dir.filePath("link");
        QVERIFY(QFile::link(out, link));
        for (const QString& second : {out, link}) {
            const Run r = run({"sweep", "--topology", kTopo, "--policies", "single", "--copies",
                               "1", "--duration-ms", "1", "--csv", out, "--png", second});
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains(second.toUtf8() + ": --csv and --png name the same file"),
                     r.err.constData());
            QCOMPARE(testing::readAll(out), QByteArray(testing::kOldContent));
        }
        const Run r = run({"trace", "export", kRecording, "--csv", dir.filePath("a.csv"),
                           "--perfetto", dir.filePath("b.json")});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("one of --perfetto or --csv"), r.err.constData());
        QCOMPARE(testing::leftovers(dir.path(), {"both", "link"}), QStringList());
    }

    // `trace import` writes to a temporary file renamed over OUT at the end: an import that
    // fails leaves the previous trace whole (it used to leave 0 bytes), and one that succeeds
    // replaces it and leaves nothing behind.
    void failedImportLeavesTheOldTrace() {
        QTemporaryDir dir;
        const QString out = dir.filePath("good.trace");
        QVERIFY(testing::writeAll(out, testing::kOldContent));
        const QString bad = dir.filePath("bad.bt.txt");
        QVERIFY(testing::writeAll(bad, "1 0 1 x exec\nnot a line\n"));
        Run r = run({"trace", "import", bad, "-o", out});
        QCOMPARE(r.status, 2);
        QCOMPARE(testing::readAll(out), testing::kOldContent);
        QCOMPARE(testing::leftovers(dir.path(), {"good.trace", "bad.bt.txt"}), QStringList());
        r = run({"trace", "import", kRecording, "-o", out});
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY(testing::readAll(out).startsWith("immap-trace"));
        QCOMPARE(testing::leftovers(dir.path(), {"good.trace", "bad.bt.txt"}), QStringList());
    }

    // `simulate --trace` records beside the target and renames at the end: a good run leaves
    // only OUT, whole, with the old file's permissions (the kill case is TestAtomicWrites').
    void simulateTraceIsAtomic() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run.trace");
        QVERIFY(testing::writeAll(out, testing::kOldContent));
        const Run r = run({"simulate", "--topology", kTopo, "--copies", "2", "--duration-ms", "2",
                           "--trace", out});
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY(testing::readAll(out).startsWith("immap-trace"));
        QCOMPARE(testing::leftovers(dir.path(), {"run.trace"}), QStringList());
        QFile::setPermissions(out, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup);
        QCOMPARE(run({"simulate", "--topology", kTopo, "--copies", "2", "--duration-ms", "2",
                      "--trace", out})
                     .status,
                 0);
        QCOMPARE(QFile::permissions(out) & (QFile::ReadOther | QFile::WriteOther),
                 QFile::Permissions());
    }
};

IMMAP_TEST_SUITE(TestSpecialFiles);
#include "TestSpecialFiles.moc"
