// /proc/PID/status: the four keys we read, the CPU/node list format, bad lines, and the real
// snapshot.
#include <QTest>

#include "Mutator.h"
#include "SampleSnapshot.h"
#include "Suites.h"
#include "procfs/ParseError.h"
#include "procfs/StatusParser.h"

using namespace immap::procfs;

Q_DECLARE_METATYPE(std::vector<int>)

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

ProcStatus parse(const std::string& text) {
    return StatusParser::parse(text, "t/status");
}

}  // namespace

class TestStatusParser : public QObject {
    Q_OBJECT

private slots:
    void parsesTheKeysItNeeds() {
        const ProcStatus st = parse(
            "Name:\tsleep\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t17513\nPid:\t17514\n"
            "Groups:\t \nVmPeak:\t    2920 kB\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n"
            "Mems_allowed:\t00000000,00000001\nMems_allowed_list:\t0\n");
        QCOMPARE(st.name, std::string("sleep"));
        QCOMPARE(st.tgid, std::int64_t{17513});  // Tgid, not Pid
        QCOMPARE(st.cpusAllowed, (std::vector<int>{0, 1}));
        QCOMPARE(st.memsAllowed, (std::vector<int>{0}));
    }

    void absentKeysKeepDefaults() {
        const ProcStatus st = parse("Umask:\t0022\nState:\tZ (zombie)\n");
        QVERIFY(st.name.empty());
        QCOMPARE(st.tgid, std::int64_t{-1});
        QVERIFY(st.cpusAllowed.empty());
        QVERIFY(st.memsAllowed.empty());
        QCOMPARE(parse("").tgid, std::int64_t{-1});
    }

    void names() {
        QCOMPARE(parse("Name:\tWeb Content\n").name, std::string("Web Content"));
        QCOMPARE(parse("Name:\t x \n").name, std::string(" x "));  // only the tab goes
        QCOMPARE(parse("Name:\t\n").name, std::string());
        QCOMPARE(parse("Name:\t(sd-pam)\n").name, std::string("(sd-pam)"));
        // The kernel escapes a newline as \n and a backslash as \\ in Name.
        QCOMPARE(parse("Name:\ta\\nb\\\\c\\t\n").name, std::string("a\nb\\c\\t"));
        QCOMPARE(parse("Name:\tk:\xff\n").name, std::string("k:\xff"));  // bytes kept
        QCOMPARE(parse("Name:\tx\r\nTgid:\t5\r\n").name, std::string("x"));
        QCOMPARE(parse("Name:\tx\r\nTgid:\t5\r\n").tgid, std::int64_t{5});
    }

    void lists_data() {
        QTest::addColumn<QString>("list");
        QTest::addColumn<std::vector<int>>("ids");
        QTest::newRow("single") << "0" << std::vector<int>{0};
        QTest::newRow("range") << "0-3" << std::vector<int>{0, 1, 2, 3};
        QTest::newRow("mixed") << "0-3,8,10-11" << std::vector<int>{0, 1, 2, 3, 8, 10, 11};
        QTest::newRow("one-wide range") << "5-5" << std::vector<int>{5};
        QTest::newRow("adjacent items") << "0-1,2,3-4" << std::vector<int>{0, 1, 2, 3, 4};
        QTest::newRow("largest id") << "65535" << std::vector<int>{65535};
        QTest::newRow("leading zeros") << "007" << std::vector<int>{7};
    }

    void lists() {
        QFETCH(QString, list);
        QFETCH(std::vector<int>, ids);
        QCOMPARE(StatusParser::parseList(list.toStdString(), "s", 4), ids);
        const ProcStatus st = parse("Cpus_allowed_list:\t" + list.toStdString() + "\n");
        QCOMPARE(st.cpusAllowed, ids);
    }

    void badLists_data() {
        QTest::addColumn<QString>("list");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << ""
                               << "empty list";
        QTest::newRow("empty item") << "0,,1"
                                    << "empty item in list '0,,1'";
        QTest::newRow("leading comma") << ",0"
                                       << "empty item in list ',0'";
        QTest::newRow("trailing comma") << "0,"
                                        << "empty item in list '0,'";
        QTest::newRow("reversed") << "0,3-1"
                                  << "reversed range '3-1' in list '0,3-1'";
        QTest::newRow("letter") << "a"
                                << "bad number 'a' in list 'a'";
        QTest::newRow("open range") << "1-"
                                    << "bad number '' in list '1-'";
        QTest::newRow("negative") << "-1"
                                  << "bad number '' in list '-1'";
        QTest::newRow("two dashes") << "0-3-5"
                                    << "bad number '3-5' in list '0-3-5'";
        QTest::newRow("space") << "0, 1"
                               << "bad number ' 1' in list '0, 1'";
        QTest::newRow("hex") << "0x1"
                             << "bad number '0x1' in list '0x1'";
        QTest::newRow("too big") << "99999"
                                 << "id past 65535 in list '99999'";
        QTest::newRow("past 64 bits") << "99999999999999999999"
                                      << "id past 65535 in list '99999999999999999999'";
        QTest::newRow("huge range") << "0-2147483647"
                                    << "id past 65535 in list '0-2147483647'";
        QTest::newRow("descending") << "4,2"
                                    << "list not ascending at '2' in '4,2'";
        QTest::newRow("overlap") << "0-3,3-4"
                                 << "list not ascending at '3-4' in '0-3,3-4'";
        QTest::newRow("repeat") << "1,1"
                                << "list not ascending at '1' in '1,1'";
    }

    void badLists() {
        QFETCH(QString, list);
        QFETCH(QString, reason);
        try {
            StatusParser::parseList(list.toStdString(), "17513/status", 42);
            QFAIL("no ParseError");
        } catch (const ParseError& e) {
            QCOMPARE(qs(e.reason()), reason);
            QCOMPARE(e.line(), std::size_t{42});
            QCOMPARE(e.file(), std::string("17513/status"));
        }
    }

    void rejectsBadLines_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no colon") << QByteArray("Tgid 5") << "expected 'Key: value', got 'Tgid 5'";
        QTest::newRow("no key") << QByteArray(":\t5") << "expected 'Key: value', got ':\\x095'";
        QTest::newRow("bad Tgid") << QByteArray("Tgid:\tabc") << "bad Tgid 'abc'";
        QTest::newRow("negative Tgid") << QByteArray("Tgid:\t-5") << "bad Tgid '-5'";
        QTest::newRow("empty Tgid") << QByteArray("Tgid:\t") << "bad Tgid ''";
        QTest::newRow("Tgid with junk") << QByteArray("Tgid:\t12 kB") << "bad Tgid '12 kB'";
        QTest::newRow("Tgid past 63 bits") << QByteArray("Tgid:\t9223372036854775808")
                                           << "number past 63 bits in Tgid '9223372036854775808'";
        QTest::newRow("empty cpus")
            << QByteArray("Cpus_allowed_list:\t") << "empty Cpus_allowed_list";
        QTest::newRow("blank mems")
            << QByteArray("Mems_allowed_list:\t  ") << "empty Mems_allowed_list";
        QTest::newRow("reversed mems")
            << QByteArray("Mems_allowed_list:\t3-1") << "reversed range '3-1' in list '3-1'";
        QTest::newRow("NUL in Name") << QByteArray("Name:\ta") + '\0' + "b"
                                     << "NUL byte in Name 'a\\x00b'";
        QTest::newRow("empty line") << QByteArray() << "empty line";
    }

    void rejectsBadLines() {
        QFETCH(QByteArray, line);
        QFETCH(QString, reason);
        const std::string text =
            "Name:\tsleep\nUmask:\t0022\n" + line.toStdString() + "\nState:\tS (sleeping)\n";
        try {
            StatusParser::parse(text, "17513/status");
            QFAIL("no ParseError");
        } catch (const ParseError& e) {
            QCOMPARE(qs(e.reason()), reason);
            QCOMPARE(e.line(), std::size_t{3});
            QCOMPARE(qs(e.what()), "17513/status:3: " + reason);
        }
    }

    void damagedRealFilesFailCleanly() {
        const std::string original = SampleSnapshot::read("17513", "status");
        QVERIFY(!original.empty());
        Mutator mutator(7);
        int failures = 0;
        for (int i = 0; i < 20000; ++i) {
            try {
                const ProcStatus st = StatusParser::parse(mutator.mutate(original), "s");
                QVERIFY(std::is_sorted(st.cpusAllowed.begin(), st.cpusAllowed.end()));
                QVERIFY(st.cpusAllowed.size() <= 65536);
            } catch (const ParseError& e) {
                ++failures;
                QVERIFY2(e.reason().size() < 200, e.what());
            } catch (...) {
                QFAIL("an exception other than ParseError");
            }
        }
        QVERIFY(failures > 500);
    }

    void realSnapshot() {
        // Facts of the capture (grep): perl 40, sleep 150, tail 60; 2 CPUs, one node.
        int perl = 0, sleep = 0, tail = 0;
        for (const std::string& pid : SampleSnapshot::pids()) {
            const ProcStatus st =
                StatusParser::parse(SampleSnapshot::read(pid, "status"), pid + "/status");
            QCOMPARE(st.tgid, std::int64_t{std::stoll(pid)});
            QCOMPARE(st.cpusAllowed, (std::vector<int>{0, 1}));
            QCOMPARE(st.memsAllowed, (std::vector<int>{0}));
            perl += st.name == "perl";
            sleep += st.name == "sleep";
            tail += st.name == "tail";
        }
        QCOMPARE(perl, 40);
        QCOMPARE(sleep, 150);
        QCOMPARE(tail, 60);
    }
};

IMMAP_TEST_SUITE(TestStatusParser);
#include "TestStatusParser.moc"
