// /proc/PID/stat: pid, comm to the last ')', state, field 39 counted right, short lines, bad
// lines, and the real snapshot checked against its status files.
#include <QTest>

#include "Mutator.h"
#include "SampleSnapshot.h"
#include "Suites.h"
#include "procfs/ParseError.h"
#include "procfs/StatParser.h"
#include "procfs/StatusParser.h"

using namespace immap::procfs;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

ProcStat parse(std::string_view text) {
    return StatParser::parse(text, "t/stat");
}

// "PID (COMM) STATE" then fields 4..`last`, field k holding k*10, except field 39 = `cpu`.
std::string statLine(std::string_view head, int last, int cpu) {
    std::string s(head);
    for (int field = 4; field <= last; ++field)
        s += ' ' + std::to_string(field == 39 ? cpu : field * 10);
    return s + "\n";
}

}  // namespace

class TestStatParser : public QObject {
    Q_OBJECT

private slots:
    void parsesAKernelLine() {
        // samples/snapshots/host250/17513/stat; awk '{print $39}' gives 0.
        const ProcStat st = parse(
            "17513 (sleep) S 17507 17507 1532 0 -1 4194304 135 0 0 0 0 0 0 0 20 0 1 0 39277 "
            "2990080 413 18446744073709551615 94893829746688 94893829764617 140730262293248 0 0 "
            "0 0 6 0 1 0 0 17 0 0 0 0 0 0 94893829778704 94893829779968 94894545154048 "
            "140730262297222 140730262297232 140730262297232 140730262298601 0\n");
        QCOMPARE(st.pid, std::int64_t{17513});
        QCOMPARE(st.comm, std::string("sleep"));
        QCOMPARE(st.state, 'S');
        QCOMPARE(st.processor, 0);
    }

    void countsFieldsToProcessor() {
        // Every other field differs from the processor value: an off-by-one picks 380 or 400.
        QCOMPARE(parse(statLine("9 (x) R", 52, 7)).processor, 7);
        QCOMPARE(parse(statLine("9 (x) R", 39, 5)).processor, 5);   // exactly 39 fields
        QCOMPARE(parse(statLine("9 (x) R", 38, 5)).processor, -1);  // one short: not an error
        QCOMPARE(parse(statLine("9 (a b) c) R", 52, 3)).processor, 3);
        QCOMPARE(parse(statLine("9 ((sd-pam)) S", 52, 1)).processor, 1);
        QCOMPARE(parse(statLine("9 (x) R", 52, 383)).processor, 383);
    }

    void shortLinesHaveNoProcessor() {
        const ProcStat st = parse("1 (init) S");
        QCOMPARE(st.pid, std::int64_t{1});
        QCOMPARE(st.comm, std::string("init"));
        QCOMPARE(st.state, 'S');
        QCOMPARE(st.processor, -1);
        QCOMPARE(parse("1 (init) S 0 1 -1\n").processor, -1);
    }

    void commRunsToTheLastParenthesis() {
        QCOMPARE(parse("1234 ((sd-pam)) S 1").comm, std::string("(sd-pam)"));
        QCOMPARE(parse("5 (a) b) R 1").comm, std::string("a) b"));
        QCOMPARE(parse("5 (x) (y) Z 1").comm, std::string("x) (y"));
        QCOMPARE(parse("5 (Web Content) S 1").comm, std::string("Web Content"));
        QCOMPARE(parse("5 () S 1").comm, std::string());
        QCOMPARE(parse("5 (a\nb) S 1\n").comm, std::string("a\nb"));  // comm is printed raw
        QCOMPARE(parse("5 (\xff\xfe) S 1").comm, std::string("\xff\xfe"));
        QCOMPARE(parse("5 (x) S 1\r\n").state, 'S');
        QCOMPARE(parse("5 (x) I").state, 'I');
    }

    void rejectsBadLines_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << QByteArray() << "missing '(' before comm";
        QTest::newRow("no open paren")
            << QByteArray("17513 sleep) S 1") << "missing '(' before comm";
        QTest::newRow("no close paren")
            << QByteArray("17513 (sleep S 1") << "missing ')' after comm";
        QTest::newRow("close before open") << QByteArray("1 )x( S 1") << "missing ')' after comm";
        QTest::newRow("no pid") << QByteArray("(sleep) S 1") << "missing pid before comm";
        QTest::newRow("blank pid") << QByteArray("  (sleep) S 1") << "missing pid before comm";
        QTest::newRow("bad pid") << QByteArray("abc (sleep) S 1") << "bad pid 'abc'";
        QTest::newRow("negative pid") << QByteArray("-5 (x) S 1") << "bad pid '-5'";
        QTest::newRow("pid past 63 bits") << QByteArray("99999999999999999999 (x) S 1")
                                          << "number past 63 bits in pid '99999999999999999999'";
        QTest::newRow("no state") << QByteArray("1 (x)") << "missing state after comm";
        QTest::newRow("no state, space") << QByteArray("1 (x) \n") << "missing state after comm";
        QTest::newRow("glued state")
            << QByteArray("1 (x)S 0") << "expected a space after comm, got 'S 0'";
        QTest::newRow("long state")
            << QByteArray("1 (x) SS 0") << "bad state 'SS': expected one letter";
        QTest::newRow("digit state")
            << QByteArray("1 (x) 5 0") << "bad state '5': expected one letter";
        QTest::newRow("bad field") << QByteArray("1 (x) S 0 abc") << "bad field 5 'abc'";
        QTest::newRow("lone minus") << QByteArray("1 (x) S -") << "bad field 4 '-'";
        QTest::newRow("NUL field") << QByteArray("1 (x) S ") + '\0' << "bad field 4 '\\x00'";
        QTest::newRow("two lines") << QByteArray("1 (x) S 0\n2") << "bad field 4 '0\\x0a2'";
        QTest::newRow("NUL in comm") << QByteArray("1 (a") + '\0' + "b) S"
                                     << "NUL byte in comm 'a\\x00b'";
        const std::string head = "9 (x) R";
        QTest::newRow("negative processor")
            << QByteArray::fromStdString(statLine(head, 52, -3)) << "bad processor (field 39) '-3'";
        QTest::newRow("processor past int")
            << QByteArray::fromStdString(statLine(head, 52, 0)).replace(" 0 ", " 99999999999 ")
            << "bad processor (field 39) '99999999999'";
    }

    void rejectsBadLines() {
        QFETCH(QByteArray, text);
        QFETCH(QString, reason);
        try {
            StatParser::parse(text.toStdString(), "17513/stat");
            QFAIL("no ParseError");
        } catch (const ParseError& e) {
            QCOMPARE(qs(e.reason()), reason);
            QCOMPARE(e.line(), std::size_t{1});
            QCOMPARE(qs(e.what()), "17513/stat:1: " + reason);
        }
    }

    void hugeLineMakesAShortMessage() {
        const std::string junk(10 << 20, 'q');
        try {
            parse("1 (x) S " + junk);
            QFAIL("no ParseError");
        } catch (const ParseError& e) {
            QVERIFY2(std::string_view(e.what()).size() < 80, e.what());
        }
        QCOMPARE(parse("1 (" + junk + ") S").comm.size(), junk.size());
    }

    void damagedRealFilesFailCleanly() {
        const std::string original = SampleSnapshot::read("17513", "stat");
        QVERIFY(!original.empty());
        Mutator mutator(5);
        int failures = 0;
        for (int i = 0; i < 20000; ++i) {
            try {
                const ProcStat st = StatParser::parse(mutator.mutate(original), "s");
                QVERIFY(st.pid >= 0);
                QVERIFY(st.processor >= -1);
            } catch (const ParseError& e) {
                ++failures;
                QVERIFY2(e.reason().size() < 200, e.what());
            } catch (...) {
                QFAIL("an exception other than ParseError");
            }
        }
        QVERIFY(failures > 1000);
    }

    void realSnapshot() {
        // Facts of the capture (awk '{print $39}'): 111 tasks last ran on CPU 0, 139 on CPU 1.
        int cpu0 = 0, cpu1 = 0;
        for (const std::string& pid : SampleSnapshot::pids()) {
            const ProcStat st = StatParser::parse(SampleSnapshot::read(pid, "stat"), pid + "/stat");
            QCOMPARE(st.pid, std::int64_t{std::stoll(pid)});
            QCOMPARE(st.state, 'S');
            const ProcStatus status =
                StatusParser::parse(SampleSnapshot::read(pid, "status"), pid + "/status");
            QCOMPARE(st.comm, status.name);
            cpu0 += st.processor == 0;
            cpu1 += st.processor == 1;
        }
        QCOMPARE(cpu0, 111);
        QCOMPARE(cpu1, 139);
    }
};

IMMAP_TEST_SUITE(TestStatParser);
#include "TestStatParser.moc"
