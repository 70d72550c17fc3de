// Snapshot loading: the captured host directory, the same as a .tar.gz read in memory, hostile
// archives, broken processes (skipped, the rest loads), and the live /proc.
#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <map>

#include "Suites.h"
#include "procfs/ParseError.h"
#include "procfs/SnapshotLoader.h"

using namespace immap::procfs;
namespace fs = std::filesystem;

namespace {

const std::string kHost = IMMAP_SAMPLES "/snapshots/host250";

// Independent count: lines mentioning the library in every maps file, read as plain text.
int countLines(const std::string& dir, const char* needle) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        QFile f(QString::fromStdString(e.path().string() + "/maps"));
        if (!f.open(QIODevice::ReadOnly)) continue;
        for (const QByteArray& line : f.readAll().split('\n'))
            if (line.contains(needle)) ++n;
    }
    return n;
}

// Writes a tar with the given (name, content) entries, names taken verbatim.
void writeTar(const QString& path,
              const std::vector<std::pair<std::string, std::string>>& entries) {
    archive* a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    archive_write_open_filename(a, path.toLocal8Bit().constData());
    for (const auto& [name, content] : entries) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, name.c_str());
        archive_entry_set_size(e, static_cast<la_int64_t>(content.size()));
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_write_header(a, e);
        archive_write_data(a, content.data(), content.size());
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
}

std::string slurp(const std::string& path) {
    QFile f(QString::fromStdString(path));
    f.open(QIODevice::ReadOnly);
    return f.readAll().toStdString();
}

}  // namespace

class TestSnapshotLoader : public QObject {
    Q_OBJECT

    QTemporaryDir tmp;

private slots:
    void capturedDirectory() {
        const Snapshot s = SnapshotLoader::load(kHost);
        QCOMPARE(s.processes.size(), std::size_t{250});
        QVERIFY(s.skipped.empty());
        QVERIFY(s.topologyXml.find("<topology") != std::string::npos);
        int libc = 0, ld = 0;
        for (const auto& p : s.processes) {
            QVERIFY(!p.numaMaps.empty() && p.status && p.stat);
            QCOMPARE(p.status->tgid, p.pid);
            for (const auto& m : p.maps) {
                libc += m.path.ends_with("/libc.so.6");
                ld += m.path.ends_with("/ld-linux-x86-64.so.2");
            }
        }
        QCOMPARE(libc, countLines(kHost, "libc.so.6"));
        QCOMPARE(libc, 1250);
        QCOMPARE(ld, 1250);
        QVERIFY(std::is_sorted(s.processes.begin(), s.processes.end(),
                               [](const auto& a, const auto& b) { return a.pid < b.pid; }));
    }

    void archiveReadInMemoryMatchesDirectory() {
        const QString tgz = tmp.filePath("host250.tar.gz");
        QCOMPARE(
            QProcess::execute("tar", {"-czf", tgz, "-C", IMMAP_SAMPLES "/snapshots", "host250"}),
            0);
        const Snapshot dir = SnapshotLoader::load(kHost);
        const Snapshot arc = SnapshotLoader::load(tgz.toStdString());
        QCOMPARE(arc.processes.size(), dir.processes.size());
        QVERIFY(arc.skipped.empty());
        QCOMPARE(arc.topologyXml, dir.topologyXml);
        for (std::size_t i = 0; i < dir.processes.size(); ++i) {
            QCOMPARE(arc.processes[i].pid, dir.processes[i].pid);
            QCOMPARE(arc.processes[i].comm, dir.processes[i].comm);
            QCOMPARE(arc.processes[i].maps.size(), dir.processes[i].maps.size());
            QCOMPARE(arc.processes[i].stat->processor, dir.processes[i].stat->processor);
        }
    }

    void archiveEscapingTheRootIsRefused_data() {
        QTest::addColumn<QString>("entry");
        QTest::newRow("dot-dot") << "../17513/maps";
        QTest::newRow("inner dot-dot") << "snap/../../etc/maps";
        QTest::newRow("absolute") << "/tmp/17513/maps";
    }
    void archiveEscapingTheRootIsRefused() {
        QFETCH(QString, entry);
        const QString tar = tmp.filePath("evil.tar");
        const std::string maps = slurp(kHost + "/17513/maps");
        writeTar(tar, {{"snap/17514/maps", maps}, {entry.toStdString(), maps}});
        try {
            SnapshotLoader::load(tar.toStdString());
            QFAIL("loaded an archive with an escaping entry");
        } catch (const ParseError& e) {
            QCOMPARE(e.file(), tar.toStdString());
            QVERIFY2(
                std::string(e.what()).find(entry.toStdString().substr(0, 20)) != std::string::npos,
                e.what());
        }
    }

    void corruptArchiveIsAnError() {
        const QString bad = tmp.filePath("bad.tar.gz");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("\x1f\x8b\x08\x00garbage that is not gzip at all", 36));
        f.close();
        QVERIFY_THROWS_EXCEPTION(ParseError, SnapshotLoader::load(bad.toStdString()));
    }

    void brokenProcessIsSkippedTheRestLoads() {
        const QString root = tmp.filePath("partial");
        for (const char* pid : {"17513", "17514", "17515"}) {
            QDir().mkpath(root + "/" + pid);
            for (const char* f : {"maps", "numa_maps", "status", "stat"})
                QFile::copy(QString::fromStdString(kHost) + "/" + pid + "/" + f,
                            root + "/" + pid + "/" + f);
        }
        const std::string before = slurp(root.toStdString() + "/17514/maps");
        const auto original = std::count(before.begin(), before.end(), '\n');
        QFile maps(root + "/17514/maps");
        maps.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QVERIFY(maps.open(QIODevice::Append));
        maps.write("this is not a maps line\n");
        maps.close();
        QDir().mkpath(root + "/17516");  // no files at all
        const Snapshot s = SnapshotLoader::load(root.toStdString());
        QCOMPARE(s.processes.size(), std::size_t{2});
        QCOMPARE(s.skipped.size(), std::size_t{2});
        QCOMPARE(s.skipped[0].pid, std::int64_t{17514});
        const std::string where = "17514/maps:" + std::to_string(original + 1) + ": ";
        QVERIFY2(s.skipped[0].reason.find(where) != std::string::npos, s.skipped[0].reason.c_str());
        QCOMPARE(s.skipped[1].pid, std::int64_t{17516});
        QVERIFY2(s.skipped[1].reason.find("no maps file") != std::string::npos,
                 s.skipped[1].reason.c_str());
    }

    void symlinkLoopIsSkipped() {
        const QString root = tmp.filePath("loop");
        QDir().mkpath(root);
        QVERIFY(QFile::link(root + "/99", root + "/99"));  // 99 -> itself
        const Snapshot s = SnapshotLoader::load(root.toStdString());
        QVERIFY(s.processes.empty());
        QCOMPARE(s.skipped.size(), std::size_t{1});
        QVERIFY2(!s.skipped[0].reason.empty(), "no reason");
    }

    // Issue 8: a snapshot directory's links are not followed out of it.
    void symlinksLeadingOutAreNotFollowed() {
        const QString outside = tmp.filePath("outside");
        QDir().mkpath(outside + "/7");
        QFile::copy(QString::fromStdString(kHost) + "/17513/maps", outside + "/7/maps");
        QFile xml(outside + "/topology.xml");
        QVERIFY(xml.open(QIODevice::WriteOnly));
        xml.write("<topology/>");
        xml.close();
        const QString root = tmp.filePath("links");
        QDir().mkpath(root + "/17514");
        QFile::copy(QString::fromStdString(kHost) + "/17513/maps", root + "/17514/maps");
        QVERIFY(QFile::link(outside + "/7", root + "/100"));  // a linked pid directory
        QDir().mkpath(root + "/101");
        QVERIFY(QFile::link(outside + "/7/maps", root + "/101/maps"));  // a linked file
        QVERIFY(QFile::link(outside + "/topology.xml", root + "/topology.xml"));
        const Snapshot s = SnapshotLoader::load(root.toStdString());
        QCOMPARE(s.processes.size(), std::size_t{1});
        QCOMPARE(s.processes[0].pid, std::int64_t{17514});
        QCOMPARE(s.skipped.size(), std::size_t{2});
        for (const auto& k : s.skipped)
            QVERIFY2(k.reason.find("symbolic link, not followed") != std::string::npos,
                     k.reason.c_str());
        QVERIFY(s.topologyXml.empty());
    }

    // Issue 8: one pid spelled twice ("0100" beside "100") is not loaded twice.
    void pidNamesAreCanonical() {
        const QString root = tmp.filePath("zeros");
        for (const char* pid : {"100", "0100", "00"}) {
            QDir().mkpath(root + "/" + pid);
            QFile::copy(QString::fromStdString(kHost) + "/17513/maps", root + "/" + pid + "/maps");
        }
        const Snapshot s = SnapshotLoader::load(root.toStdString());
        QCOMPARE(s.processes.size(), std::size_t{1});
        QCOMPARE(s.processes[0].pid, std::int64_t{100});
    }

    // Issue 8: an archive holding two maps for one pid is refused, not silently merged.
    void archiveWithADuplicatePidIsRefused() {
        const QString tar = tmp.filePath("dup.tar");
        const std::string maps = slurp(kHost + "/17513/maps");
        writeTar(tar, {{"a/17513/maps", maps}, {"b/17513/maps", maps}});
        try {
            SnapshotLoader::load(tar.toStdString());
            QFAIL("loaded an archive with two maps for one pid");
        } catch (const ParseError& e) {
            QCOMPARE(e.file(), tar.toStdString());
            QVERIFY2(std::string(e.what()).find("b/17513/maps") != std::string::npos, e.what());
        }
    }

    // A tar cut at a member boundary reads to a clean end in libarchive: the missing end marker
    // is a warning, and the process whose entry came last is skipped (its other files may be
    // what was cut off); the processes before it load.
    void archiveCutAtAMemberBoundary() {
        const QString tar = tmp.filePath("cut.tar");
        const std::string maps = slurp(kHost + "/17513/maps");
        const std::string numa = slurp(kHost + "/17513/numa_maps");
        writeTar(tar, {{"100/maps", maps},
                       {"100/numa_maps", numa},
                       {"101/maps", maps},
                       {"101/numa_maps", numa}});
        const Snapshot whole = SnapshotLoader::load(tar.toStdString());
        QCOMPARE(whole.processes.size(), std::size_t{2});
        QVERIFY(whole.warnings.empty());
        // Short names: each entry is one 512-byte header and its data in 512-byte blocks.
        auto blocks = [](const std::string& t) { return 512 + (t.size() + 511) / 512 * 512; };
        QVERIFY(QFile::resize(tar, static_cast<qint64>(blocks(maps) * 2 + blocks(numa))));
        const Snapshot s = SnapshotLoader::load(tar.toStdString());
        QCOMPARE(s.processes.size(), std::size_t{1});
        QCOMPARE(s.processes[0].pid, std::int64_t{100});
        QCOMPARE(s.skipped.size(), std::size_t{1});
        QCOMPARE(s.skipped[0].pid, std::int64_t{101});
        QCOMPARE(s.skipped[0].reason,
                 tar.toStdString() +
                     ":101: not loaded: the archive may be cut short after its entry '101/maps', "
                     "before the rest of its files");
        QCOMPARE(s.warnings, (std::vector<std::string>{
                                 tar.toStdString() +
                                 ": the archive ends without its end-of-archive marker: it may be "
                                 "cut short after entry '101/maps', and what came after it is "
                                 "missing"}));
    }

    // Each /proc file the same with and without its final newline: the same process (the
    // known values below), and a warning naming the file and its last line only without.
    void lastLineWithoutNewline_data() {
        QTest::addColumn<QString>("cut");  // the file whose final newline is taken away
        QTest::addColumn<int>("line");
        QTest::newRow("whole") << QString() << 0;
        QTest::newRow("maps") << "maps" << 2;
        QTest::newRow("numa_maps") << "numa_maps" << 2;
        QTest::newRow("status") << "status" << 3;
        QTest::newRow("stat") << "stat" << 1;
    }

    void lastLineWithoutNewline() {
        QFETCH(QString, cut);
        QFETCH(int, line);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("100"));
        std::string stat = "100 (sleep) S";  // fields 4..38 are 1, field 39 (processor) is 6
        for (int i = 0; i < 35; ++i)
            stat += " 1";
        const std::map<QString, std::string> files = {
            {"maps",
             "7f0000000000-7f0000002000 r--p 00000000 fe:00 1234 /usr/lib/libc.so.6\n"
             "7f0000002000-7f0000010000 r-xp 00002000 fe:00 1234 /usr/lib/libc.so.6\n"},
            {"numa_maps",
             "7f0000000000 default file=/usr/lib/libc.so.6 mapped=2 N0=2\n"
             "7f0000002000 default file=/usr/lib/libc.so.6 mapped=14 N1=14\n"},
            {"status", "Name:\tsleep\nTgid:\t100\nCpus_allowed_list:\t0-3\n"},
            {"stat", stat + " 6 0\n"},
        };
        for (auto [name, text] : files) {
            if (name == cut) text.pop_back();
            QFile f(dir.filePath("100/" + name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.data(), static_cast<qint64>(text.size()));
        }
        const Snapshot s = SnapshotLoader::loadDirectory(dir.path().toStdString());
        QVERIFY(s.skipped.empty());
        QCOMPARE(s.processes.size(), std::size_t{1});
        const ProcessSnapshot& p = s.processes[0];
        QCOMPARE(p.maps.size(), std::size_t{2});
        QCOMPARE(p.maps[1].end, std::uint64_t{0x7f0000010000});
        QCOMPARE(std::string(p.maps[1].path), std::string("/usr/lib/libc.so.6"));
        QCOMPARE(p.numaMaps.size(), std::size_t{2});
        QCOMPARE(p.numaMaps[1].nodePages, (std::map<int, std::uint64_t>{{1, 14}}));
        QVERIFY(p.status.has_value());
        QCOMPARE(p.status->cpusAllowed, (std::vector<int>{0, 1, 2, 3}));
        QVERIFY(p.stat.has_value());
        QCOMPARE(p.stat->processor, 6);
        QCOMPARE(p.comm, std::string("sleep"));
        if (cut.isEmpty()) {
            QVERIFY(s.warnings.empty());
        } else {
            QCOMPARE(s.warnings.size(), std::size_t{1});
            QCOMPARE(s.warnings[0], dir.filePath("100/" + cut).toStdString() + ":" +
                                        std::to_string(line) +
                                        ": the last line has no newline; the file may be cut "
                                        "short there");
        }
    }

    void missingSourceIsAnError() {
        QVERIFY_THROWS_EXCEPTION(ParseError, SnapshotLoader::load("/nonexistent/snapshot"));
        QVERIFY_THROWS_EXCEPTION(ParseError, SnapshotLoader::loadMapsFile("/nonexistent/maps"));
    }

    void oneMapsFileWithSiblings() {
        const Snapshot s = SnapshotLoader::loadMapsFile(kHost + "/17513/maps");
        QCOMPARE(s.processes.size(), std::size_t{1});
        QCOMPARE(s.processes[0].pid, std::int64_t{17513});
        QCOMPARE(s.processes[0].comm, std::string("sleep"));
        QVERIFY(s.processes[0].stat.has_value());
    }

    void liveProcIncludesThisProcess() {
        const Snapshot s = SnapshotLoader::loadLive();
        const auto self = static_cast<std::int64_t>(::getpid());
        const auto it = std::find_if(s.processes.begin(), s.processes.end(),
                                     [&](const ProcessSnapshot& p) { return p.pid == self; });
        QVERIFY(it != s.processes.end());
        QVERIFY(!it->maps.empty());
        QVERIFY(it->stat && it->stat->processor >= 0);
        for (const auto& k : s.skipped)
            QVERIFY(!k.reason.empty());
    }
};

IMMAP_TEST_SUITE(TestSnapshotLoader);
#include "TestSnapshotLoader.moc"
