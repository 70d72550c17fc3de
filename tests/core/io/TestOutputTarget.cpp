// io::OutputTarget: a new path and a regular file may be written; a directory, a FIFO, a device
// and any spelling or link of one of the inputs (same st_dev and st_ino) are refused.
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

#include "Suites.h"
#include "io/OutputTarget.h"

using immap::io::OutputTarget;

class TestOutputTarget : public QObject {
    Q_OBJECT

private slots:
    void allowsNewAndRegularFiles() {
        QTemporaryDir dir;
        const std::string p = dir.filePath("out.csv").toStdString();
        QCOMPARE(OutputTarget::refusal(p, {}), std::string());
        std::ofstream(p) << "old";
        QCOMPARE(OutputTarget::refusal(p, {dir.filePath("other").toStdString(), ""}),
                 std::string());
    }

    void refusesSpecialFiles() {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("fifo").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QCOMPARE(OutputTarget::refusal(fifo, {}),
                 std::string("not a regular file (a FIFO): not written"));
        QCOMPARE(OutputTarget::refusal(dir.path().toStdString(), {}),
                 std::string("not a regular file (a directory): not written"));
        // Asking about /dev/null writes nothing to it: only stat(2).
        QCOMPARE(OutputTarget::refusal("/dev/null", {}),
                 std::string("not a regular file (a character device): not written"));
        QCOMPARE(OutputTarget::check(fifo, {}),
                 fifo + ": not a regular file (a FIFO): not written");
        // A link is judged by what it leads to.
        const std::string link = dir.filePath("link").toStdString();
        QCOMPARE(::symlink(fifo.c_str(), link.c_str()), 0);
        QCOMPARE(OutputTarget::refusal(link, {}),
                 std::string("not a regular file (a FIFO): not written"));
    }

    // As root, a device node of our own in the temporary directory (the real /dev is never
    // touched): refused, and still a device afterwards.
    void refusesADeviceNode() {
        if (::geteuid() != 0) QSKIP("mknod needs root");
        QTemporaryDir dir;
        const std::string node = dir.filePath("null").toStdString();
        QCOMPARE(::mknod(node.c_str(), S_IFCHR | 0600, makedev(1, 3)), 0);
        QCOMPARE(OutputTarget::refusal(node, {}),
                 std::string("not a regular file (a character device): not written"));
    }

    void refusesAnInputHoweverSpelled() {
        QTemporaryDir dir;
        const std::string in = dir.filePath("in.trace").toStdString();
        std::ofstream(in) << "x";
        QCOMPARE(OutputTarget::refusal(in, {in}), std::string("is also an input: not written"));
        const std::string other = dir.path().toStdString() + "/./in.trace";
        QCOMPARE(OutputTarget::refusal(other, {in}), "is also the input " + in + ": not written");
        const std::string link = dir.filePath("link").toStdString();
        QCOMPARE(::symlink(in.c_str(), link.c_str()), 0);
        QCOMPARE(OutputTarget::refusal(link, {"/nonexistent", in}),
                 "is also the input " + in + ": not written");
        const std::string hard = dir.filePath("hard").toStdString();
        QCOMPARE(::link(in.c_str(), hard.c_str()), 0);
        QCOMPARE(OutputTarget::refusal(hard, {in}), "is also the input " + in + ": not written");
    }
};

IMMAP_TEST_SUITE(TestOutputTarget);
#include "TestOutputTarget.moc"
