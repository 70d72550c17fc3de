// io::AtomicFile, the one way the project saves: the target holds the old bytes or all of the
// new ones, never a part; an abandoned save leaves it and its directory as they were.

#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include "Suites.h"
#include "io/AtomicFile.h"

using immap::io::AtomicFile;

namespace {

QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                               QDir::NoDotAndDotDot);
}

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
private slots:
    void savesAWholeNewFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath("out.txt");
        std::string error;
        QVERIFY2(AtomicFile::save(path.toStdString(), "hello\n", error), error.c_str());
        QCOMPARE(contents(path), QByteArray("hello\n"));
        QCOMPARE(entries(dir.path()), QStringList{"out.txt"});
        struct stat st {};
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t{0644});  // not mkostemp's private 0600
    }

    void replacingKeepsTheOldFilesPermissions() {
        QTemporaryDir dir;
        const QString path = dir.filePath("out.txt");
        std::string error;
        QVERIFY(AtomicFile::save(path.toStdString(), "old", error));
        QCOMPARE(::chmod(path.toLocal8Bit().constData(), 0600), 0);
        QVERIFY(AtomicFile::save(path.toStdString(), "new and longer", error));
        QCOMPARE(contents(path), QByteArray("new and longer"));
        struct stat st {};
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t{0600});
    }

    // Written but not committed (an error, a cancel, a throw): nothing changes.
    void anAbandonedSaveLeavesTheTargetAndNoLeftover() {
        QTemporaryDir dir;
        const QString path = dir.filePath("run.trace");
        std::string error;
        QVERIFY(AtomicFile::save(path.toStdString(), "the old recording", error));
        {
            AtomicFile f(path.toStdString(), "recording");
            QVERIFY(f.ok());
            QVERIFY(QFileInfo(QString::fromStdString(f.temporaryPath()))
                        .fileName()
                        .startsWith(".run.trace.recording-"));
            QVERIFY(f.write(std::string(1 << 20, 'x')));
            QCOMPARE(contents(path), QByteArray("the old recording"));  // not yet
        }
        QCOMPARE(contents(path), QByteArray("the old recording"));
        QCOMPARE(entries(dir.path()), QStringList{"run.trace"});
    }

    void refusesWhatOutputTargetRefuses() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        const std::string sub = dir.filePath("sub").toStdString();
        AtomicFile d(sub);
        QVERIFY(!d.ok());
        QVERIFY2(d.reason().find("directory") != std::string::npos, d.reason().c_str());
        const std::string fifo = dir.filePath("fifo").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        std::string error;
        QVERIFY(!AtomicFile::save(fifo, "x", error));
        QVERIFY2(error.rfind(fifo + ": ", 0) == 0, error.c_str());  // "PATH: reason"
        QCOMPARE(entries(dir.path()), (QStringList{"fifo", "sub"}));
    }

    void aDirectoryThatCannotBeWrittenGivesTheReason() {
        if (::geteuid() == 0) QSKIP("root writes anywhere");
        QTemporaryDir dir;
        QCOMPARE(::chmod(dir.path().toLocal8Bit().constData(), 0500), 0);
        std::string error;
        QVERIFY(!AtomicFile::save(dir.filePath("out").toStdString(), "x", error));
        QVERIFY2(error.find("Permission denied") != std::string::npos, error.c_str());
        ::chmod(dir.path().toLocal8Bit().constData(), 0700);
    }
};

IMMAP_TEST_SUITE(TestAtomicFile);
#include "TestAtomicFile.moc"
