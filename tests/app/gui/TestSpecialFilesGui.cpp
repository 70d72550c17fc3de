// Issue 15: a FIFO (or a directory) given to the window wherever it reads a file — File > Open,
// a file inside a snapshot, Open trace, a trace's bookmarks sidecar, Open Scenario, a
// scenario's recipe, measurements — used to block the app for ever. Each must come back at once
// with "not a regular file (a FIFO)" naming the file, in a dialog where it is the whole load
// that fails, and leave the FIFO a FIFO; exports and saves onto one are refused the same way.
#include <sys/stat.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <functional>

#include "MainWindow.h"
#include "Suites.h"
#include "trace/TraceCursor.h"

using namespace immap;

namespace {

bool isFifo(const QString& path) {
    struct stat st {};
    return ::lstat(path.toLocal8Bit().constData(), &st) == 0 && S_ISFIFO(st.st_mode);
}

void writeFile(const QString& path, const QByteArray& data) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(data), data.size());
}

}  // namespace

class TestSpecialFilesGui : public QObject {
    Q_OBJECT

private slots:
    void fifoInputsAreRefusedAtOnce_data() {
        QTest::addColumn<QString>("how");
        for (const char* how : {"open", "snapshot file", "trace", "bookmarks", "scenario",
                                "scenario recipe", "measurements"})
            QTest::newRow(how) << how;
    }

    void fifoInputsAreRefusedAtOnce() {
        QFETCH(QString, how);
        QTemporaryDir dir;
        const QString fifo = dir.filePath("fifo");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        gui::MainWindow w(false);
        w.setHeadless(true);
        w.loadDefault();
        const std::string sourceBefore = w.session().host().source;
        QString named = fifo;  // the file the message must name
        QElapsedTimer clock;
        clock.start();
        bool ok = false;
        if (how == "open") {
            ok = w.openPath(fifo);
        } else if (how == "snapshot file") {
            // A process whose numa_maps is a FIFO: that process is skipped with the reason.
            QDir d(dir.path());
            QVERIFY(d.mkpath("snap/100") && d.mkpath("snap/101"));
            const QByteArray maps =
                "7f0000000000-7f0000002000 r--p 00000000 fe:00 1234 /usr/lib/libc.so.6\n";
            writeFile(d.filePath("snap/100/maps"), maps);
            writeFile(d.filePath("snap/101/maps"), maps);
            named = d.filePath("snap/100/numa_maps");
            QCOMPARE(::mkfifo(named.toLocal8Bit().constData(), 0600), 0);
            QVERIFY2(w.openPath(d.filePath("snap")), qPrintable(w.lastError()));
            QCOMPARE(w.session().host().mappings.processes().size(), std::size_t{1});
            ok = false;  // the load succeeds; the message is about the skipped process
        } else if (how == "trace") {
            ok = w.openTrace(fifo);
        } else if (how == "bookmarks") {
            const QString trace = dir.filePath("run.trace");
            QVERIFY2(w.recordTrace(dir.filePath("tmp.trace"), "single", 1, 1),
                     qPrintable(w.lastError()));
            QVERIFY(QFile::rename(dir.filePath("tmp.trace"), trace));
            named = trace + ".bookmarks.json";
            QCOMPARE(::mkfifo(named.toLocal8Bit().constData(), 0600), 0);
            w.openTrace(trace);  // the trace loads or not; the sidecar must not hang it
            ok = false;
        } else if (how == "scenario") {
            ok = w.openScenario(fifo);
        } else if (how == "scenario recipe") {
            const QString scenario = dir.filePath("s.json");
            writeFile(scenario, "{\"version\": 1, \"recipe\": \"fifo\"}");
            ok = w.openScenario(scenario);
        } else if (how == "measurements") {
            ok = w.openMeasurements(fifo);
        }
        QVERIFY2(clock.elapsed() < 15000, "took more than 15 s");
        QVERIFY(!ok);
        QVERIFY2(
            w.lastError().contains(named) && w.lastError().contains("not a regular file (a FIFO)"),
            qPrintable(w.lastError()));
        if (how != "snapshot file" && how != "bookmarks")
            QCOMPARE(w.session().host().source, sourceBefore);
        QVERIFY(isFifo(named));
    }

    // Writes onto a FIFO or a directory: refused with the reason, the target left as it is.
    void writesOntoSpecialFilesAreRefused() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("fifo.png");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const QString sub = dir.filePath("dir.png");
        QVERIFY(QDir(dir.path()).mkdir("dir.png"));
        gui::MainWindow w(false);
        w.setHeadless(true);
        w.loadDefault();
        for (const QString& target : {fifo, sub}) {
            const char* what = target == fifo ? "a FIFO" : "a directory";
            const std::function<bool()> writes[] = {
                [&] { return w.exportView(target); },
                [&] { return w.exportTimeline(target); },
                [&] { return w.saveScenario(target); },
                [&] { return w.recordTrace(target, "single", 1, 1); },
            };
            for (const auto& write : writes) {
                QElapsedTimer clock;
                clock.start();
                QVERIFY(!write());
                QVERIFY(clock.elapsed() < 15000);
                QVERIFY2(w.lastError().contains(target) && w.lastError().contains(what),
                         qPrintable(w.lastError()));
            }
        }
        QVERIFY(isFifo(fifo));
        QVERIFY(QFileInfo(sub).isDir());
        const QStringList left =
            QDir(dir.path())
                .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        QVERIFY2(left == (QStringList{"dir.png", "fifo.png"}), qPrintable(left.join(' ')));
    }
};

IMMAP_TEST_SUITE(TestSpecialFilesGui);
#include "TestSpecialFilesGui.moc"
