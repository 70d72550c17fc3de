// Every broken input of tests/data/bad (and the ones too big or too filesystem-shaped to
// commit, made here) fed to the `immap` command that reads it: the process must end normally
// within the timeout, with the expected exit status, and stderr must name the file and, where
// the problem is on one line, the line ("FILE:LINE: reason").
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "Suites.h"

namespace {

const QString kBad = QStringLiteral(IMMAP_TEST_DATA "/bad");

struct Run {
    bool finished = false;  // within the timeout
    bool crashed = false;   // killed by a signal (QProcess::CrashExit)
    int status = -1;
    QByteArray out, err;
};

// A hang is as much a failure as a crash: 30 s is far beyond any of these inputs' honest cost.
Run run(const QStringList& args) {
    QProcess p;
    p.start(IMMAP_CLI, args);
    p.closeWriteChannel();
    Run r;
    r.finished = p.waitForFinished(30000);
    if (!r.finished) {
        p.kill();
        p.waitForFinished();
    }
    r.crashed = p.exitStatus() == QProcess::CrashExit;
    r.status = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

void writeFile(const QString& path, const QByteArray& data) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(data), data.size());
}

// The command for a file of each format; %1 is the file.
QStringList command(const QString& kind, const QString& file, const QString& out) {
    if (kind == "maps") return {"snapshot", "stats", "maps:" + file};
    if (kind == "archive") return {"snapshot", "stats", "snapshot:" + file};
    if (kind == "ops") return {"tree", "run", file};
    if (kind == "topology") return {"topology", "show", "xml:" + file};
    if (kind == "recipe")
        return {"simulate", "--recipe", file, "--copies", "1", "--duration-ms", "1"};
    if (kind == "trace") return {"trace", "stats", file};
    if (kind == "replay") return {"trace", "replay", file};
    if (kind == "bt") return {"trace", "import", file, "-o", out};
    return {};
}

const QByteArray kMaps = "7f0000000000-7f0000002000 r--p 00000000 fe:00 1234 /usr/lib/libc.so.6\n";

}  // namespace

class TestBadInputs : public QObject {
    Q_OBJECT

private slots:
    void eachBadFile_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("line");  // 0: the message names the file but no line
        auto row = [](const char* kind, const char* file, int status, int line) {
            QTest::newRow(file) << kind << file << status << line;
        };
        // An empty maps file is a process with no mappings: valid, and it loads as nothing.
        row("maps", "maps-empty", 0, 0);
        row("maps", "maps-binary", 2, 1);
        row("maps", "maps-truncated", 2, 3);
        row("maps", "maps-nul", 2, 3);
        row("maps", "maps-over64", 2, 3);
        row("maps", "maps-inode-over64", 2, 3);
        row("maps", "maps-reversed", 2, 3);
        // Linux pathnames are bytes, not UTF-8: such a path is valid and loads.
        row("maps", "maps-utf8-path", 0, 0);
        row("archive", "archive-dotdot.tar", 2, 0);
        row("archive", "archive-dotdot-inner.tar.gz", 2, 0);
        row("archive", "archive-absolute.tar", 2, 0);
        row("archive", "archive-duplicate-pid.tar", 2, 0);
        row("archive", "archive-truncated.tar.gz", 2, 0);
        row("archive", "archive-binary.tar.gz", 2, 0);
        row("archive", "archive-expands-past-cap.tar", 2, 0);
        row("ops", "ops-binary", 2, 1);
        row("ops", "ops-truncated", 2, 2);
        row("ops", "ops-nul", 2, 2);
        row("ops", "ops-over64", 2, 2);
        row("ops", "ops-reversed", 2, 2);
        row("ops", "ops-duplicate", 2, 2);
        row("topology", "topology-empty.xml", 2, 0);
        row("topology", "topology-binary.xml", 2, 1);
        row("topology", "topology-truncated.xml", 2, 39);
        row("topology", "topology-open-tag.xml", 2, 1);
        row("topology", "topology-cut-attribute.xml", 2, 3);
        row("topology", "topology-no-complete-cpuset.xml", 2, 0);
        row("topology", "topology-fuzz-unknown-pu.xml", 2, 0);
        row("topology", "topology-fuzz-cpuset-2p32.xml", 2, 0);
        row("recipe", "recipe-empty.json", 2, 0);
        row("recipe", "recipe-binary.json", 2, 1);
        row("recipe", "recipe-truncated.json", 2, 5);
        row("recipe", "recipe-over64.json", 2, 0);
        row("trace", "trace-empty.trace", 2, 1);
        row("trace", "trace-binary.trace", 2, 1);
        row("trace", "trace-version.trace", 2, 1);
        row("trace", "trace-header-copies.trace", 2, 1);
        row("replay", "trace-header-duration.trace", 2, 1);
        row("replay", "trace-vma-id.trace", 2, 3);
        row("trace", "trace-lying.trace", 2, 3);
        row("trace", "trace-truncated.trace", 2, 4);
        row("trace", "trace-nul.trace", 2, 3);
        row("trace", "trace-over64.trace", 2, 3);
        row("trace", "trace-reversed.trace", 2, 3);
        row("trace", "trace-duplicate.trace", 2, 4);
        row("bt", "bt-empty.txt", 2, 0);
        row("bt", "bt-binary.txt", 2, 1);
        row("bt", "bt-truncated.txt", 2, 4);
        row("bt", "bt-nul.txt", 2, 4);
        row("bt", "bt-over64.txt", 2, 4);
        row("bt", "bt-time-over64.txt", 2, 4);
    }

    void eachBadFile() {
        QFETCH(QString, kind);
        QFETCH(QString, file);
        QFETCH(int, status);
        QFETCH(int, line);
        QTemporaryDir dir;
        const QString path = kBad + "/" + file;
        const QString out = dir.filePath("out.trace");
        const Run r = run(command(kind, path, out));
        QVERIFY2(r.finished, "timed out");
        QVERIFY2(!r.crashed, r.err.constData());
        QVERIFY2(r.status == status, r.err.constData());
        if (status == 0) return;
        QVERIFY2(r.err.contains(path.toUtf8()), r.err.constData());
        if (line > 0) {
            const QByteArray where = path.toUtf8() + ":" + QByteArray::number(line) + ": ";
            QVERIFY2(r.err.contains(where), r.err.constData());
        }
    }

    // A single 10 MB line in every line-based format: refused at line 1 (or loaded, for a maps
    // line that is one long pathname), in bounded time, without a crash.
    void tenMegabyteLine_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("line");
        const QByteArray junk(10 << 20, 'x');
        QTest::newRow("maps junk") << "maps" << junk + "\n" << 2 << 1;
        QTest::newRow("maps long path")
            << "maps"
            << "7f0000000000-7f0000001000 r--p 00000000 fe:00 1 /" + junk + "\n"
            << 0 << 0;
        QTest::newRow("ops") << "ops"
                             << "i 1 0 " + junk + "\n"
                             << 2 << 1;
        QTest::newRow("trace") << "trace"
                               << "immap-trace 1 " + junk + "\n"
                               << 2 << 1;
        QTest::newRow("bt") << "bt"
                            << "1 0 1 x exec file=" + junk + "\n" + junk << 2 << 1;
    }

    void tenMegabyteLine() {
        QFETCH(QString, kind);
        QFETCH(QByteArray, text);
        QFETCH(int, status);
        QFETCH(int, line);
        QTemporaryDir dir;
        const QString path = dir.filePath("big");
        writeFile(path, text);
        const Run r = run(command(kind, path, dir.filePath("out.trace")));
        QVERIFY2(r.finished, "timed out");
        QVERIFY2(!r.crashed, r.err.left(500).constData());
        QVERIFY2(r.status == status, r.err.left(500).constData());
        if (line > 0)
            QVERIFY2(r.err.contains(path.toUtf8() + ":" + QByteArray::number(line) + ": "),
                     r.err.left(500).constData());
        QVERIFY(r.err.size() < 4096);  // the message quotes a little of the line, not all of it
    }

    // numa_maps, status and stat belong to one process: a broken one skips that process with
    // "FILE:LINE: reason" and the rest of the snapshot loads (README, Sources).
    void brokenProcessFilesSkipTheProcess_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::newRow("numa_maps binary") << "numa_maps"
                                          << "numa_maps-binary" << 1;
        QTest::newRow("numa_maps truncated") << "numa_maps"
                                             << "numa_maps-truncated" << 1;
        QTest::newRow("numa_maps over64") << "numa_maps"
                                          << "numa_maps-over64" << 1;
        QTest::newRow("numa_maps nul") << "numa_maps"
                                       << "numa_maps-nul" << 1;
        QTest::newRow("status binary") << "status"
                                       << "status-binary" << 1;
        QTest::newRow("status over64") << "status"
                                       << "status-over64" << 2;
        QTest::newRow("status reversed") << "status"
                                         << "status-reversed" << 3;
        QTest::newRow("stat binary") << "stat"
                                     << "stat-binary" << 1;
        QTest::newRow("stat truncated") << "stat"
                                        << "stat-truncated" << 1;
        QTest::newRow("stat over64") << "stat"
                                     << "stat-over64" << 1;
    }

    void brokenProcessFilesSkipTheProcess() {
        QFETCH(QString, name);
        QFETCH(QString, file);
        QFETCH(int, line);
        QTemporaryDir dir;
        for (const char* pid : {"100", "101"}) {
            QVERIFY(QDir(dir.path()).mkdir(pid));
            writeFile(dir.filePath(QString(pid) + "/maps"), kMaps);
        }
        QVERIFY(QFile::copy(kBad + "/" + file, dir.filePath("101/" + name)));
        const Run r = run({"snapshot", "stats", "snapshot:" + dir.path(), "--topology",
                           "synthetic:numa:1 core:1 pu:1"});
        QVERIFY2(r.finished, "timed out");
        QVERIFY2(!r.crashed, r.err.constData());
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.contains("1 processes, 1 skipped"), r.out.constData());
        QByteArray where = "skipped pid 101: " + dir.filePath("101/" + name).toUtf8();
        if (line > 0) where += ":" + QByteArray::number(line);
        QVERIFY2(r.out.contains(where + ": "), r.out.constData());
    }

    // A snapshot directory is what it contains: symlinks (loops included) are not followed out
    // of it, pid names are canonical, and nothing outside is read.
    void snapshotDirectoryWithSymlinks() {
        QTemporaryDir outside;
        QVERIFY(QDir(outside.path()).mkdir("7"));
        writeFile(outside.filePath("7/maps"),
                  "7f0000000000-7f0000001000 r--p 00000000 fe:00 9 /outside/secret.so\n");
        writeFile(outside.filePath("topology.xml"), "not xml, and not to be read");
        QTemporaryDir dir;
        const QString snap = dir.filePath("snap");
        QVERIFY(QDir(dir.path()).mkdir("snap"));
        QVERIFY(QDir(snap).mkdir("100"));
        writeFile(snap + "/100/maps", kMaps);
        QVERIFY(QDir(snap).mkdir("0100"));  // the same pid spelled differently: not a pid
        writeFile(snap + "/0100/maps", kMaps);
        QVERIFY(QFile::link(snap + "/101", snap + "/101"));  // a loop onto itself
        QVERIFY(QFile::link(snap, snap + "/102"));           // a loop through the parent
        QVERIFY(QFile::link(outside.filePath("7"), snap + "/103"));
        QVERIFY(QDir(snap).mkdir("104"));
        QVERIFY(QFile::link(outside.filePath("7/maps"), snap + "/104/maps"));
        QVERIFY(QFile::link(outside.filePath("topology.xml"), snap + "/topology.xml"));
        const Run r = run({"snapshot", "stats", "snapshot:" + snap, "--json"});
        QVERIFY2(r.finished, "timed out");
        QVERIFY2(!r.crashed, r.err.constData());
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY2(!r.out.contains("secret"), r.out.constData());
        QVERIFY2(r.out.contains("\"processes\": 1"), r.out.constData());
        for (const char* pid : {"101", "102", "103", "104"})
            QVERIFY2(r.out.contains(QByteArray("\"pid\": ") + pid), r.out.constData());
        QVERIFY2(r.out.contains("this host (the source has no topology.xml)"), r.out.constData());
    }
};

IMMAP_TEST_SUITE(TestBadInputs);
#include "TestBadInputs.moc"
