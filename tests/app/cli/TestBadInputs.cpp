// Every broken input of tests/data/bad (and the ones too big or too filesystem-shaped to
// commit, made here) fed to the `immap` command that reads it: the process must end normally
// within the timeout, with the expected exit status, and stderr must name the file and, where
// the problem is on one line, the line ("FILE:LINE: reason").
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <csignal>
#include <functional>

#include "ProgramRun.h"
#include "Suites.h"

namespace {

const QString kBad = QStringLiteral(IMMAP_TEST_DATA "/bad");

using Run = immap::testing::ProgramRun;

// A hang is as much a failure as a crash: 30 s is far beyond any of these inputs' honest cost.
Run run(const QStringList& args) {
    return immap::testing::runProgram(IMMAP_CLI, args, 30000);
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
    if (kind == "measured") return {"calibrate", "--measured", file, "--output", out};
    if (kind == "fit") return {"simulate", "--fit", file, "--copies", "1", "--duration-ms", "1"};
    if (kind == "trace") return {"trace", "stats", file};
    if (kind == "replay") return {"trace", "replay", file};
    if (kind == "bt") return {"trace", "import", file, "-o", out};
    return {};
}

const QByteArray kMaps = "7f0000000000-7f0000002000 r--p 00000000 fe:00 1234 /usr/lib/libc.so.6\n";

// A recipe with the given steps (JSON), one file.
QByteArray recipe(const QByteArray& steps) {
    return R"({"format": "immap-recipe", "version": 1, "name": "t", "walker_file": "f",
               "files": [{"name": "f", "background": false}], "steps": )" +
           steps + "}\n";
}

// A real recording's lines, with its header's JSON changed by `edit`.
QByteArray withHeader(const QByteArray& trace, const std::function<void(QJsonObject&)>& edit) {
    const qsizetype nl = trace.indexOf('\n');
    const QByteArray header = trace.left(nl);
    const qsizetype json = header.indexOf('{');
    QJsonObject o = QJsonDocument::fromJson(header.mid(json)).object();
    edit(o);
    return header.left(json) + QJsonDocument(o).toJson(QJsonDocument::Compact) + trace.mid(nl);
}

// True once no process with this pid is left (gone, or a zombie waiting for its reaper).
bool gone(qint64 pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) return true;
    const QByteArray s = stat.readAll();
    const qsizetype close = s.lastIndexOf(')');
    return close < 0 || s.mid(close + 2, 1) == "Z";
}

// The pids whose parent is `parent`.
QList<qint64> childrenOf(qint64 parent) {
    QList<qint64> out;
    for (const QString& d : QDir("/proc").entryList(QDir::Dirs)) {
        bool ok = false;
        const qint64 pid = d.toLongLong(&ok);
        if (!ok) continue;
        QFile stat("/proc/" + d + "/stat");
        if (!stat.open(QIODevice::ReadOnly)) continue;
        const QByteArray s = stat.readAll();
        const QList<QByteArray> f = s.mid(s.lastIndexOf(')') + 2).split(' ');
        if (f.size() > 1 && f[1].toLongLong() == parent) out << pid;
    }
    return out;
}

// A snapshot directory of two processes with good maps files; `source` is copied in as pid
// 101's `name` (numa_maps, status, stat). Returns the copy's path.
QString besideGoodMaps(const QTemporaryDir& dir, const QString& source, const QString& name) {
    for (const char* pid : {"100", "101"}) {
        QDir(dir.path()).mkdir(pid);
        writeFile(dir.filePath(QString(pid) + "/maps"), kMaps);
    }
    const QString path = dir.filePath("101/" + name);
    if (!QFile::copy(source, path)) qFatal("cannot copy %s", qPrintable(source));
    return path;
}

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
        row("measured", "measured-truncated.json", 2, 5);
        row("fit", "fit-truncated.json", 2, 5);
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
        row("trace", "trace-version1.trace", 2, 1);
        row("replay", "trace-no-end.trace", 2, 4);
        row("trace", "trace-end-count.trace", 2, 4);
        row("trace", "trace-after-end.trace", 2, 4);
        row("trace", "trace-negative-cpu.trace", 2, 3);
        row("trace", "trace-negative-tree.trace", 2, 3);
        row("replay", "trace-walk-backwards.trace", 2, 7);
        row("trace", "trace-header-array.trace", 2, 1);
        row("trace", "trace-header-seed.trace", 2, 1);
        row("trace", "trace-header-walkers.trace", 2, 1);
        row("trace", "trace-header-cpus.trace", 2, 1);
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
                               << "immap-trace 2 " + junk + "\n"
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
        besideGoodMaps(dir, kBad + "/" + file, name);
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

    // A last line cut inside a field that still parses (issue 15): loaded, exit 0, and stderr
    // says "warning: FILE:LINE: the last line has no newline; the file may be cut short there".
    // numa_maps, status and stat are read beside a good maps, as pid 101 of two.
    void cutLastLineIsAWarning_data() {
        QTest::addColumn<QString>("kind");  // a command() kind, or the /proc file's name
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::newRow("maps") << "maps"
                              << "maps-cut-field" << 3;
        QTest::newRow("numa_maps") << "numa_maps"
                                   << "numa_maps-cut-field" << 1;
        QTest::newRow("status") << "status"
                                << "status-cut-field" << 3;
        QTest::newRow("stat") << "stat"
                              << "stat-cut-field" << 1;
        QTest::newRow("ops") << "ops"
                             << "ops-cut-field" << 2;
        QTest::newRow("bt") << "bt"
                            << "bt-cut-field.txt" << 4;
    }

    void cutLastLineIsAWarning() {
        QFETCH(QString, kind);
        QFETCH(QString, file);
        QFETCH(int, line);
        QTemporaryDir dir;
        QString path = kBad + "/" + file;
        QStringList args = command(kind, path, dir.filePath("out.trace"));
        if (args.isEmpty()) {  // a process's file: in a snapshot directory beside good maps
            path = besideGoodMaps(dir, kBad + "/" + file, kind);
            args = QStringList{"snapshot", "stats", "snapshot:" + dir.path(), "--topology",
                               "synthetic:numa:2 core:1 pu:1"};
        }
        const Run r = run(args);
        QVERIFY2(r.finished, "timed out");
        QVERIFY2(!r.crashed, r.err.constData());
        QVERIFY2(r.status == 0, r.err.constData());
        const QByteArray warning = "warning: " + path.toUtf8() + ":" + QByteArray::number(line) +
                                   ": the last line has no newline; the file may be cut short "
                                   "there\n";
        QVERIFY2(r.err.contains(warning), r.err.constData());
        QCOMPARE(r.err.count("warning: "), qsizetype{1});
        if (args.first() == "snapshot" && kind != "maps")
            QVERIFY2(r.out.contains("2 processes, 0 skipped"), r.out.constData());
    }

    // Archives (issue 15): a tar cut at a member boundary reads to a clean end in libarchive, so
    // the missing end marker is a warning and the process whose entry came last is skipped; a
    // link entry is listed, never dropped. Each with the reason, the rest loads, exit 0.
    void archiveCutOrLinked_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("summary");
        QTest::addColumn<QByteArrayList>("out");  // %1 is the archive's path
        QTest::addColumn<QByteArrayList>("err");
        QTest::newRow("cut at a member boundary")
            << "archive-cut-member.tar" << QByteArray("1 processes, 1 skipped")
            << QByteArrayList{"skipped pid 101: %1:101: not loaded: the archive may be cut short "
                              "after its entry '101/maps', before the rest of its files\n"}
            << QByteArrayList{"warning: %1: the archive ends without its end-of-archive marker: "
                              "it may be cut short after entry '101/maps', and what came after "
                              "it is missing\n"};
        QTest::newRow("links") << "archive-links.tar" << QByteArray("1 processes, 3 skipped")
                               << QByteArrayList{
                                      "skipped pid 101: %1: entry '101/maps': a hard link; "
                                      "archives are read as regular files only\n",
                                      "skipped pid 102: %1: entry '102/maps': a symbolic link; "
                                      "archives are read as regular files only\n",
                                      "skipped pid 103: %1: entry '103': a symbolic link; "
                                      "archives are read as regular files only\n"}
                               << QByteArrayList{
                                      "warning: %1: entry 'topology.xml': a symbolic link; "
                                      "archives are read as regular files only, so it is not "
                                      "read\n"};
    }

    void archiveCutOrLinked() {
        QFETCH(QString, file);
        QFETCH(QByteArray, summary);
        QFETCH(QByteArrayList, out);
        QFETCH(QByteArrayList, err);
        const QByteArray path = (kBad + "/" + file).toUtf8();
        const Run r = run({"snapshot", "stats", "snapshot:" + path, "--topology",
                           "synthetic:numa:1 core:1 pu:1"});
        QVERIFY2(r.finished, "timed out");
        QVERIFY2(!r.crashed, r.err.constData());
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY2(r.out.contains(summary), r.out.constData());
        for (QByteArray line : out)
            QVERIFY2(r.out.contains(line.replace("%1", path)), r.out.constData());
        for (QByteArray line : err)
            QVERIFY2(r.err.contains(line.replace("%1", path)), r.err.constData());
        QCOMPARE(r.err.count("warning: "), err.size());
    }

    // A source that is a loop of symbolic links says so, not "no such file".
    void symlinkLoopSourceSaysLoop() {
        QTemporaryDir dir;
        const QString loop = dir.filePath("loop");
        QVERIFY(QFile::link(loop, loop));
        for (const QString& spec : {"snapshot:" + loop, "maps:" + loop}) {
            const Run r = run({"snapshot", "stats", spec});
            QVERIFY2(r.finished && !r.crashed, r.err.constData());
            QVERIFY2(r.status == 2, r.err.constData());
            QVERIFY2(r.err.contains((loop + ": a loop of symbolic links").toUtf8()),
                     r.err.constData());
            QVERIFY2(!r.err.contains("no such file"), r.err.constData());
        }
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

    // Absurd counts, sizes, durations and parameters (issue 15): refused before any work with
    // a reason, exit status 2, never an abort, a hang or a C++ name.
    void absurdRequests_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("recipeText");  // written to %R when not empty
        QTest::addColumn<QByteArray>("message");
        const QByteArray none;
        QTest::newRow("tree libc 1e8 processes")
            << QStringList{"tree", "libc", "--processes", "100000000"} << none
            << QByteArray("100,000,000 processes and 0 cycles need about");
        QTest::newRow("tree libc 1e9 processes")
            << QStringList{"tree", "libc", "--processes", "1000000000"} << none
            << QByteArray("--processes must be from 1 to 100000000");
        QTest::newRow("tree libc 2^64-1 processes")
            << QStringList{"tree", "libc", "--processes", "18446744073709551615"} << none
            << QByteArray("--processes must be from 1 to 100000000");
        QTest::newRow("tree libc 1e10 cycles")
            << QStringList{"tree", "libc", "--processes", "10", "--cycles", "10000000000"} << none
            << QByteArray("10,000,000,000 cycles need about");
        QTest::newRow("synthetic 1e8 processes")
            << QStringList{"snapshot", "stats", "synthetic:libc?processes=100000000"} << none
            << QByteArray("100,000,000 processes need about");
        QTest::newRow("synthetic 1e9 processes")
            << QStringList{"snapshot", "stats", "synthetic:libc?processes=1000000000"} << none
            << QByteArray("processes must be from 1 to 100000000");
        QTest::newRow("window too short for the copies")
            << QStringList{"simulate", "--copies", "100000",         "--duration-ms",
                           "1",        "--param",  "window_max_ms=1"}
            << none << QByteArray("is too short for 100000 copies on 384 CPUs");
        QTest::newRow("sweep window too short")
            << QStringList{"sweep", "--copies", "1,100000",       "--duration-ms",
                           "1",     "--param",  "window_max_ms=1"}
            << none << QByteArray("is too short for 100000 copies");
        QTest::newRow("four costs at zero")
            << QStringList{"simulate",     "--param",        "unlocked_ns_per_exec=0",
                           "--param",      "mem_local_ns=0", "--param",
                           "tree_op_ns=0", "--param",        "lock_atomic_ns=0"}
            << none << QByteArray("lock_atomic_ns must be between 1 and 1000000 ns");
        QTest::newRow("write_fraction 10")
            << QStringList{"simulate", "--param", "write_fraction=10"} << none
            << QByteArray("write_fraction must be between 0 and 1");
        QTest::newRow("subnormal cost")
            << QStringList{"simulate", "--param", "unlocked_ns_per_exec=1e-320"} << none
            << QByteArray("is too small to be a cost");
        QTest::newRow("recipe weight 1e-320")
            << QStringList{"simulate", "--recipe", "%R"}
            << recipe(R"([{"op": "work", "weight": 1e-320}])")
            << QByteArray("\"weight\" must be from 1e-06 to 1000000");
        QTest::newRow("recipe weights summing to infinity")
            << QStringList{"simulate", "--recipe", "%R"}
            << recipe(R"([{"op": "work", "weight": 1e308}, {"op": "work", "weight": 1e308}])")
            << QByteArray("\"weight\" must be from");
        // In range but the clock cannot move: only work steps, and no time for them (nor for
        // the shared lines besides i_mmap, all turned off).
        QStringList stopped{"simulate", "--recipe", "%R", "--param", "unlocked_ns_per_exec=0"};
        for (const char* off :
             {"pcpu_lock_lines", "percpu_counters_lock_lines", "pgd_lock_lines",
              "binfmt_lock_touches", "dentry_lockref_lines", "percpu_loop_lines_per_cpu"})
            stopped << "--param" << QString("%1=0").arg(off);
        QTest::newRow("clock stopped") << stopped << recipe(R"([{"op": "work", "weight": 1}])")
                                       << QByteArray("the simulation stopped advancing");
    }

    void absurdRequests() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, recipeText);
        QFETCH(QByteArray, message);
        QTemporaryDir dir;
        const QString r = dir.filePath("recipe.json");
        if (!recipeText.isEmpty()) writeFile(r, recipeText);
        args.replaceInStrings("%R", r);
        const Run run = ::run(args);
        QVERIFY2(run.finished, "timed out");
        QVERIFY2(!run.crashed, run.err.constData());
        QVERIFY2(run.status == 2, run.err.constData());
        QVERIFY2(run.err.contains(message), run.err.constData());
        QVERIFY2(!run.err.contains("std::") && !run.err.contains("::"), run.err.constData());
    }

    // A fit file is read through the same ranges as --param.
    void fitFileOutOfRange() {
        QFile f(IMMAP_SAMPLES "/measurements/host-2cpu-fit.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QJsonObject params = o["params"].toObject();
        params["lock_atomic_ns"] = 0;
        o["params"] = params;
        QTemporaryDir dir;
        const QString fit = dir.filePath("fit.json");
        writeFile(fit, QJsonDocument(o).toJson());
        const Run r = run({"simulate", "--fit", fit});
        QVERIFY2(r.finished && !r.crashed, r.err.constData());
        QVERIFY2(r.status == 2, r.err.constData());
        QVERIFY2(r.err.contains("lock_atomic_ns must be between 1"), r.err.constData());
    }

    // Trace headers that lie: a window that ends before the lock events, counts that would
    // build gigabytes of trees, a million and a half copy CPUs.
    static void fixedWindow(QJsonObject& header) {
        QJsonObject params = header["params"].toObject();
        params["window_execs"] = 0;
        params["window_total_execs"] = 0;
        header["params"] = params;
    }

    void lyingTraceHeaders() {
        QTemporaryDir dir;
        const QString good = dir.filePath("good.trace");
        const Run rec = run({"simulate", "--copies", "4", "--duration-ms", "5", "--trace", good});
        QVERIFY2(rec.status == 0, rec.err.constData());
        QFile f(good);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray trace = f.readAll();
        struct Case {
            const char* name;
            std::function<void(QJsonObject&)> edit;
            QByteArray message;
            bool located;  // the message names a line past the header
        };
        const Case cases[] = {
            // A window of a fixed length (window_execs and window_total_execs 0: it does not wait
            // for execs) that
            // the recording outlasts.
            {"short",
             [](QJsonObject& o) {
                 o["duration_ms"] = 0.5;
                 fixedWindow(o);
             },
             "comes after the measured window's end", true},
            {"zero",
             [](QJsonObject& o) {
                 o["duration_ms"] = 0;
                 fixedWindow(o);
             },
             "comes after the measured window's end", true},
            {"trees",
             [](QJsonObject& o) {
                 QJsonArray files;
                 for (int i = 0; i < 100000; ++i)
                     files.append(QStringLiteral("f%1").arg(i));
                 o["files"] = files;
                 o["trees_per_file"] = 4096;
             },
             "the header lists 100000 files", false},
            {"trees2",
             [](QJsonObject& o) {
                 QJsonArray files;
                 for (int i = 0; i < 1000; ++i)
                     files.append(QStringLiteral("f%1").arg(i));
                 o["files"] = files;
                 o["trees_per_file"] = 4096;
             },
             "1000 files with 4096 trees each make 4,096,000 trees", false},
            {"copy_cpus",
             [](QJsonObject& o) {
                 QJsonArray cpus, nodes;
                 for (int i = 0; i < 1500000; ++i) {
                     cpus.append(i % 384);
                     nodes.append(0);
                 }
                 o["copy_cpus"] = cpus;
                 o["copy_nodes"] = nodes;
             },
             "the header lists 1500000 copy_cpus", false},
            {"negative cpu",
             [](QJsonObject& o) {
                 o["copy_cpus"] = QJsonArray{-5, 1, 2, 3};
             },
             "a copy_cpus entry must be a whole number", false},
        };
        for (const Case& c : cases) {
            const QString path = dir.filePath(QString(c.name) + ".trace");
            writeFile(path, withHeader(trace, c.edit));
            for (const QStringList& args :
                 {QStringList{"trace", "replay", path},
                  QStringList{"trace", "export", path, "--csv", dir.filePath("out.csv")}}) {
                const Run r = run(args);
                const QByteArray what = QByteArray(c.name) + ": " + r.err;
                QVERIFY2(r.finished && !r.crashed, what.constData());
                QVERIFY2(r.status == 2, what.constData());
                QVERIFY2(r.err.contains(c.message), what.constData());
                QVERIFY2(r.err.contains((path + (c.located ? ":" : ":1: ")).toUtf8()),
                         what.constData());
                QVERIFY2(!r.err.contains("::"), what.constData());
            }
        }
    }

    // A header that declares one tree per file and events that name tree 4,096 of each of 1,000
    // files: replay built 4,097 trees per file (263 MB from 38 KB). Refused at the first such
    // event, naming its line.
    void eventBeyondTheDeclaredTrees() {
        QTemporaryDir dir;
        QJsonArray files;
        for (int i = 0; i < 1000; ++i)
            files.append(QStringLiteral("f%1").arg(i));
        const QJsonObject header{{"files", files}, {"trees_per_file", 1}};
        QByteArray text = "immap-trace 2 " + QJsonDocument(header).toJson(QJsonDocument::Compact) +
                          "\n0 ti -1 -1 0 0 1 0 9 0\n";  // tree 0: the one declared
        for (int i = 0; i < 1000; ++i)
            text += QByteArray("0 ti -1 -1 ") + QByteArray::number(i) + " 4096 " +
                    QByteArray::number(i + 2) + " 0 0 0\n";
        text += "0 en -1 -1 1001\n";
        const QString path = dir.filePath("trees.trace");
        writeFile(path, text);
        for (const QStringList& args :
             {QStringList{"trace", "replay", path}, QStringList{"trace", "stats", path},
              QStringList{"trace", "export", path, "--csv", dir.filePath("out.csv")}}) {
            const Run r = run(args);
            QVERIFY2(r.finished && !r.crashed, r.err.constData());
            QVERIFY2(r.status == 2, r.err.constData());
            QVERIFY2(r.err.contains(
                         (path + ":3: tree 4096 is beyond the header's trees_per_file").toUtf8()),
                     r.err.constData());
        }
    }

    // A helper that never reports is killed and refused; no helper outlives a killed bench.
    void benchHelperThatHangs() {
        QElapsedTimer clock;
        clock.start();
        const Run r =
            run({"bench", "execl", "--helper", "/bin/sleep", "--copies", "1", "--seconds", "0.1"});
        QVERIFY2(r.finished && !r.crashed, r.err.constData());
        QVERIFY2(r.status == 1, r.err.constData());  // a helper failing exits 1 (measurements.md)
        QVERIFY2(r.err.contains("/bin/sleep: 1 of 1 copies had not reported"), r.err.constData());
        QVERIFY2(r.err.contains("killed"), r.err.constData());
    }

    void benchKilledTakesItsHelpersWithIt_data() {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGKILL") << int(SIGKILL);
    }

    void benchKilledTakesItsHelpersWithIt() {
        QFETCH(int, signal);
        QProcess p;
        p.start(IMMAP_CLI,
                {"bench", "execl", "--helper", "/bin/sleep", "--copies", "1", "--seconds", "60"});
        QVERIFY(p.waitForStarted());
        // The probe copy (the helper is /bin/sleep, so it stays put until killed).
        QList<qint64> helpers;
        for (int i = 0; i < 200 && helpers.isEmpty(); ++i) {
            QTest::qWait(50);
            helpers = childrenOf(p.processId());
        }
        QVERIFY2(!helpers.isEmpty(), "no helper started");
        ::kill(static_cast<pid_t>(p.processId()), signal);
        QVERIFY(p.waitForFinished(10000));
        bool allGone = false;
        for (int i = 0; i < 200 && !allGone; ++i) {
            allGone = std::all_of(helpers.begin(), helpers.end(), gone);
            if (!allGone) QTest::qWait(50);
        }
        QVERIFY2(allGone, "a helper outlived immap bench execl");
    }
};

IMMAP_TEST_SUITE(TestBadInputs);
#include "TestBadInputs.moc"
