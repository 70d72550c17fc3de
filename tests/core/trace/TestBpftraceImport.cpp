// A bpftrace recording's last line without its newline: imported the same as with it, and
// flagged with a warning naming the file and that line (issue 15), only without it.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <string>
#include <vector>

#include "Suites.h"
#include "trace/BpftraceImport.h"

using namespace immap::trace;

namespace {

const std::string kRecording =
    "# immap-trace-bt v1 fields: t_ns cpu pid comm event args\n"
    "1000 0 100 execl exec file=./execl\n"
    "2000 0 100 execl open fd=3 path=/usr/lib/libc.so.6\n"
    "3000 0 100 execl mmap addr=0x7f0000000000 len=0x2000 prot=0x1 flags=0x2 fd=3 off=0x0\n";

}  // namespace

class TestBpftraceImport : public QObject {
    Q_OBJECT

private slots:
    void lastLineWithoutNewline_data() {
        QTest::addColumn<bool>("cut");
        QTest::newRow("whole") << false;
        QTest::newRow("no final newline") << true;
    }

    void lastLineWithoutNewline() {
        QFETCH(bool, cut);
        QTemporaryDir dir;
        const std::string in = dir.filePath("rec.bt.txt").toStdString();
        QFile f(QString::fromStdString(in));
        QVERIFY(f.open(QIODevice::WriteOnly));
        const std::string text = cut ? kRecording.substr(0, kRecording.size() - 1) : kRecording;
        f.write(text.data(), static_cast<qint64>(text.size()));
        f.close();
        const ImportSummary s = BpftraceImport::run(in, dir.filePath("o.trace").toStdString());
        // Three event lines (the comment is not one), one process, one exec; three files: libc,
        // and the executable and ld.so that execve maps (inferred, BpftraceImport.h).
        QCOMPARE(s.lines, std::uint64_t{3});
        QCOMPARE(s.processes, std::uint64_t{1});
        QCOMPARE(s.execs, std::uint64_t{1});
        QCOMPARE(s.files, std::uint64_t{3});
        if (cut)
            QCOMPARE(
                s.warnings,
                (std::vector<std::string>{
                    in + ":4: the last line has no newline; the file may be cut short there"}));
        else
            QVERIFY(s.warnings.empty());
    }
};

IMMAP_TEST_SUITE(TestBpftraceImport);
#include "TestBpftraceImport.moc"
