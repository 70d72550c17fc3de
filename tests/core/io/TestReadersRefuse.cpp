// Every reader in core/ given a FIFO (no writer ever opens it), /dev/zero and a directory:
// refused at once with its own located error naming the file and "not a regular file", never
// read (a FIFO would block forever, /dev/zero never ends). The CLI's side is
// tests/app/cli/TestSpecialFiles.cpp.
#include <sys/stat.h>

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>

#include "Suites.h"
#include "calib/FitFile.h"
#include "measure/MeasuredCurve.h"
#include "procfs/SnapshotLoader.h"
#include "session/Scenario.h"
#include "sim/Recipe.h"
#include "topology/Topology.h"
#include "trace/Bookmarks.h"
#include "trace/BpftraceImport.h"
#include "trace/TraceReader.h"

using namespace immap;

namespace {

using Reader = std::function<void(const std::string&)>;

// The reader's message for `path`, or "" when it did not throw.
std::string messageOf(const Reader& read, const std::string& path) {
    try {
        read(path);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestReadersRefuse : public QObject {
    Q_OBJECT

private slots:
    void specialFiles_data() {
        QTest::addColumn<QString>("reader");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("reason");
        const char* readers[] = {"maps", "archive",   "topology", "recipe", "trace",
                                 "bt",   "bookmarks", "scenario", "fit",    "measured"};
        for (const char* r : readers) {
            QTest::newRow((std::string(r) + " fifo").c_str()) << r << "fifo"
                                                              << "a FIFO";
            QTest::newRow((std::string(r) + " /dev/zero").c_str()) << r << "/dev/zero"
                                                                   << "a character device";
            // A directory is a snapshot for SnapshotLoader::load, not an archive.
            if (std::string(r) != "archive")
                QTest::newRow((std::string(r) + " directory").c_str()) << r << "dir"
                                                                       << "a directory";
        }
    }

    void specialFiles() {
        QFETCH(QString, reader);
        QFETCH(QString, file);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        QCOMPARE(::mkfifo(dir.filePath("fifo").toLocal8Bit().constData(), 0600), 0);
        QVERIFY(QDir(dir.path()).mkdir("dir"));
        const std::string out = dir.filePath("out.trace").toStdString();
        const std::map<QString, Reader> readers = {
            {"maps", [](const std::string& p) { procfs::SnapshotLoader::loadMapsFile(p); }},
            {"archive", [](const std::string& p) { procfs::SnapshotLoader::load(p); }},
            {"topology", [](const std::string& p) { topology::Topology::fromSpec("xml:" + p); }},
            {"recipe", [](const std::string& p) { sim::Recipe::fromFile(p); }},
            {"trace", [](const std::string& p) { trace::TraceReader r(p); }},
            {"bt", [&](const std::string& p) { trace::BpftraceImport::run(p, out); }},
            {"bookmarks", [](const std::string& p) { trace::Bookmarks::load(p); }},
            {"scenario", [](const std::string& p) { session::Scenario::load(p); }},
            {"fit", [](const std::string& p) { calib::FitFile::paramsFromFile(p); }},
            {"measured", [](const std::string& p) { measure::MeasuredCurve::fromFile(p); }},
        };
        const std::string path =
            file.startsWith('/') ? file.toStdString() : dir.filePath(file).toStdString();
        QElapsedTimer t;
        t.start();
        const std::string what = messageOf(readers.at(reader), path);
        QVERIFY2(what.find(path + ":") == 0, what.c_str());
        QVERIFY2(
            what.find("not a regular file (" + reason.toStdString() + ")") != std::string::npos,
            what.c_str());
        QVERIFY(t.elapsed() < 20000);
        QVERIFY(!QFileInfo::exists(QString::fromStdString(out)));  // nothing written
    }

    // In a snapshot directory: a FIFO maps skips that process with the reason, the rest
    // loads; a topology.xml that is a FIFO stops the load (another topology would be a wrong
    // answer).
    void specialFilesInASnapshotDirectory() {
        QTemporaryDir dir;
        for (const char* pid : {"100", "101"})
            QVERIFY(QDir(dir.path()).mkdir(pid));
        std::ofstream(dir.filePath("100/maps").toStdString())
            << "7f0000000000-7f0000002000 r--p 00000000 fe:00 1234 /usr/lib/libc.so.6\n";
        const std::string fifo = dir.filePath("101/maps").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QCOMPARE(::mkfifo(dir.filePath("100/status").toLocal8Bit().constData(), 0600), 0);
        procfs::Snapshot s = procfs::SnapshotLoader::loadDirectory(dir.path().toStdString());
        QCOMPARE(s.processes.size(), std::size_t{0});
        QCOMPARE(s.skipped.size(), std::size_t{2});
        QCOMPARE(s.skipped[0].reason,
                 dir.filePath("100/status").toStdString() + ": not a regular file (a FIFO)");
        QCOMPARE(s.skipped[1].reason, fifo + ": not a regular file (a FIFO)");
        ::unlink(dir.filePath("100/status").toLocal8Bit().constData());
        s = procfs::SnapshotLoader::loadDirectory(dir.path().toStdString());
        QCOMPARE(s.processes.size(), std::size_t{1});
        const std::string topo = dir.filePath("topology.xml").toStdString();
        QCOMPARE(::mkfifo(topo.c_str(), 0600), 0);
        QCOMPARE(messageOf([](const std::string& p) { procfs::SnapshotLoader::loadDirectory(p); },
                           dir.path().toStdString()),
                 topo + ": not a regular file (a FIFO)");
    }

    // An archive whose one entry claims 3 GiB: refused at its header by the total cap (without
    // it the entry would be inflated, or here, found truncated).
    void archiveTotalCap() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("bomb.tar").toStdString();
        char header[512] = {};
        std::snprintf(header, 100, "%s", "junk");
        std::snprintf(header + 100, 8, "%07o", 0644);
        std::snprintf(header + 108, 8, "%07o", 0);
        std::snprintf(header + 116, 8, "%07o", 0);
        std::snprintf(header + 124, 12, "%011llo", 3ULL << 30);
        std::snprintf(header + 136, 12, "%011o", 0);
        header[156] = '0';
        std::memcpy(header + 257, "ustar", 6);
        std::memcpy(header + 263, "00", 2);
        std::memset(header + 148, ' ', 8);
        unsigned sum = 0;
        for (unsigned char c : header)
            sum += c;
        std::snprintf(header + 148, 8, "%06o", sum);
        std::ofstream(path, std::ios::binary).write(header, sizeof header);
        const std::string what =
            messageOf([](const std::string& p) { procfs::SnapshotLoader::load(p); }, path);
        QCOMPARE(what, path +
                           ": unpacks to more than the 2 GiB limit for a snapshot archive's "
                           "contents (at entry 'junk')");
    }
};

IMMAP_TEST_SUITE(TestReadersRefuse);
#include "TestReadersRefuse.moc"
