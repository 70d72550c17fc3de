// io::InputFile: a regular file is read whole; a FIFO, a device, a directory, a socket, a
// missing file and a link loop are refused at once with the reason; the cap is enforced on
// st_size and on the bytes read, and named in the message.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <stdexcept>

#include "Suites.h"
#include "io/InputError.h"
#include "io/InputFile.h"

using immap::io::InputFile;

namespace {

void spit(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// A reader's error, as every reader's is: an io::InputError.
struct Located : immap::io::InputError {
    using immap::io::InputError::InputError;
};

}  // namespace

class TestInputFile : public QObject {
    Q_OBJECT

private slots:
    void readsARegularFile() {
        QTemporaryDir dir;
        const std::string p = dir.filePath("a").toStdString();
        spit(p, "hello\n");
        QCOMPARE(InputFile::read<Located>(p, 100, "a test file"), std::string("hello\n"));
        // Through a link to a regular file too.
        const std::string link = dir.filePath("link").toStdString();
        QCOMPARE(::symlink(p.c_str(), link.c_str()), 0);
        QCOMPARE(InputFile::read<Located>(link, 100, "a test file"), std::string("hello\n"));
    }

    void refusesSpecialFiles_data() {
        QTest::addColumn<QString>("which");
        QTest::addColumn<QString>("reason");
        QTest::newRow("fifo") << "fifo"
                              << "not a regular file (a FIFO)";
        QTest::newRow("char device") << "/dev/zero"
                                     << "not a regular file (a character device)";
        QTest::newRow("directory") << "dir"
                                   << "not a regular file (a directory)";
        QTest::newRow("link to fifo") << "link-fifo"
                                      << "not a regular file (a FIFO)";
        QTest::newRow("missing") << "missing"
                                 << "no such file";
        QTest::newRow("link loop") << "loop"
                                   << "a loop of symbolic links";
        QTest::newRow("socket") << "socket"
                                << "not a regular file (a socket or a device with no "
                                   "driver)";
    }

    void refusesSpecialFiles() {
        QFETCH(QString, which);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("fifo").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QVERIFY(QDir(dir.path()).mkdir("dir"));
        QCOMPARE(::symlink(fifo.c_str(), dir.filePath("link-fifo").toLocal8Bit().constData()), 0);
        QCOMPARE(::symlink("loop", dir.filePath("loop").toLocal8Bit().constData()), 0);
        const std::string sock = dir.filePath("socket").toStdString();
        const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
        QVERIFY(s >= 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
        QCOMPARE(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        const std::string path =
            which.startsWith('/') ? which.toStdString() : dir.filePath(which).toStdString();
        QElapsedTimer t;
        t.start();
        try {
            InputFile::read<Located>(path, 1 << 20, "a test file");
            QFAIL("read it");
        } catch (const Located& e) {
            QCOMPARE(e.file(), path);
            QCOMPARE(QString::fromStdString(e.reason()), reason);
        }
        ::close(s);
        QVERIFY(t.elapsed() < 20000);  // a FIFO is refused, not waited on (no writer ever comes)
    }

    void refusesNoFollowLinks() {
        QTemporaryDir dir;
        const std::string p = dir.filePath("a").toStdString();
        spit(p, "x");
        const std::string link = dir.filePath("link").toStdString();
        QCOMPARE(::symlink(p.c_str(), link.c_str()), 0);
        InputFile f(link, 10, "a test file", {true});
        QVERIFY(!f.ok());
        QCOMPARE(f.reason(), std::string("a symbolic link, not followed"));
    }

    // The cap: by st_size before reading, and by the bytes read (a file that grows, /proc's 0).
    void capIsEnforcedAndNamed() {
        QTemporaryDir dir;
        const std::string p = dir.filePath("big").toStdString();
        spit(p, std::string(3 << 20, 'x'));
        try {
            InputFile::read<Located>(p, 2 << 20, "a topology XML");
            QFAIL("read past the cap");
        } catch (const Located& e) {
            QCOMPARE(e.reason(), std::string("larger than the 2 MiB limit for a topology XML"));
        }
        QCOMPARE(InputFile::read<Located>(p, 3 << 20, "x").size(), std::size_t{3} << 20);
        // /proc reports st_size 0: the cap holds while reading.
        InputFile proc("/proc/self/maps", 16, "a maps file");
        QVERIFY(proc.ok());
        std::string text;
        QVERIFY(!proc.readAll(text));
        QCOMPARE(proc.reason(), std::string("larger than the 16 bytes limit for a maps file"));
        QCOMPARE(InputFile::capMessage(std::uint64_t{64} << 30, "a trace"),
                 std::string("larger than the 64 GiB limit for a trace"));
    }

    // A refusal not about one line reads "PATH: reason", never "PATH:0: reason".
    void refusalsReadPathThenReason() {
        try {
            InputFile::read<Located>("/nonexistent/f", 10, "x");
            QFAIL("read it");
        } catch (const Located& e) {
            QCOMPARE(std::string(e.what()), std::string("/nonexistent/f: no such file"));
        }
    }

    // A streaming reader gets a FILE* on the checked descriptor.
    void releaseToStdio() {
        QTemporaryDir dir;
        const std::string p = dir.filePath("a").toStdString();
        spit(p, "abc");
        InputFile f(p, 10, "x");
        std::FILE* file = f.releaseToStdio();
        QVERIFY(file);
        char buf[8] = {};
        QCOMPARE(std::fread(buf, 1, sizeof buf, file), std::size_t{3});
        QCOMPARE(std::string(buf), std::string("abc"));
        std::fclose(file);
    }
};

IMMAP_TEST_SUITE(TestInputFile);
#include "TestInputFile.moc"
