// The op-script language: parsing, execution semantics, and the messages for bad lines.
#include <QTest>
#include <sstream>
#include <vector>

#include "Suites.h"
#include "itree/OpScript.h"
#include "itree/ScriptRunner.h"

using namespace immap::itree;

namespace {

struct Outcome {
    bool ok;
    std::string out;
    std::string err;
    std::vector<std::string> warnings;
};

Outcome runScript(const std::string& text) {
    std::istringstream in(text);
    std::ostringstream out, err;
    ScriptRunner r(out);
    const bool ok = r.run(in, "t.ops", err);
    return {ok, out.str(), err.str(), r.warnings()};
}

}  // namespace

class TestOpScript : public QObject {
    Q_OBJECT

private slots:
    void parsesNumbersAndComments() {
        ScriptOp op;
        std::string e;
        QVERIFY(OpScript::parseLine("  i 0x10 0X1f 31   # comment", op, e));
        QCOMPARE(op.kind, ScriptOp::Kind::Insert);
        QCOMPARE(op.id, std::uint64_t{16});
        QCOMPARE(op.start, Index{31});
        QCOMPARE(op.last, Index{31});
        QVERIFY(OpScript::parseLine("\tr\t7\r", op, e));
        QCOMPARE(op.kind, ScriptOp::Kind::Remove);
        QVERIFY(OpScript::parseLine("# only a comment", op, e));
        QCOMPARE(op.kind, ScriptOp::Kind::None);
        QVERIFY(OpScript::parseLine("", op, e));
        QCOMPARE(op.kind, ScriptOp::Kind::None);
        QVERIFY(OpScript::parseLine("q 18446744073709551615 18446744073709551615", op, e));
        QCOMPARE(op.last, Index{18446744073709551615ull});
        QVERIFY(OpScript::parseLine("d", op, e));
        QCOMPARE(op.kind, ScriptOp::Kind::Dump);
    }

    void rejectsBadLines_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown op") << "x 1"
                                    << "unknown op 'x'";
        QTest::newRow("few args") << "i 1 2"
                                  << "expected 'i ID START LAST', got 2 arguments";
        QTest::newRow("many args") << "r 1 2"
                                   << "expected 'r ID', got 2 arguments";
        QTest::newRow("d with arg") << "d 1"
                                    << "expected 'd', got 1 argument";
        QTest::newRow("start > last") << "i 1 9 3"
                                      << "START > LAST (9 > 3)";
        QTest::newRow("query start > last") << "q 9 3"
                                            << "START > LAST (9 > 3)";
        QTest::newRow("not a number") << "i 1 a 3"
                                      << "bad number 'a'";
        QTest::newRow("trailing junk") << "r 12z"
                                       << "bad number '12z'";
        QTest::newRow("negative") << "r -1"
                                  << "bad number '-1'";
        QTest::newRow("bare 0x") << "r 0x"
                                 << "bad number '0x'";
        QTest::newRow("bad hex") << "r 0xfg"
                                 << "bad number '0xfg'";
        QTest::newRow("past 64 bits") << "r 18446744073709551616"
                                      << "does not fit in 64 bits";
        QTest::newRow("hex past 64 bits") << "r 0x10000000000000000"
                                          << "does not fit in 64 bits";
    }
    void rejectsBadLines() {
        QFETCH(QString, line);
        QFETCH(QString, reason);
        ScriptOp op;
        std::string e;
        QVERIFY(!OpScript::parseLine(line.toStdString(), op, e));
        QVERIFY2(e.find(reason.toStdString()) != std::string::npos, e.c_str());
    }

    void nulByteIsABadNumber() {
        ScriptOp op;
        std::string e;
        QVERIFY(!OpScript::parseLine(std::string("r 1\0"
                                                 "2",
                                                 5),
                                     op, e));
        QVERIFY2(e.find("bad number") != std::string::npos, e.c_str());
    }

    void longTokenIsCutInMessage() {
        ScriptOp op;
        std::string e;
        QVERIFY(!OpScript::parseLine("r " + std::string(1 << 20, '7') + "x", op, e));
        QVERIFY(e.size() < 200);
    }

    void runnerPrintsQueriesAndDumps() {
        const Outcome o = runScript("d\nq 0 100\ni 1 10 20\ni 2 5 6\nq 6 10\nq 21 30\nd\n");
        QVERIFY(o.ok);
        // A two-node tree: 1 is the black root, 2 its red left child.
        QCOMPARE(o.out, std::string("d: .\nq:\nq: 2 1\nq:\nd: 1:b:20 2:r:6 . . .\n"));
        QCOMPARE(o.err, std::string());
    }

    void idReuseAfterRemove() {
        const Outcome o = runScript("i 1 0 5\nr 1\ni 1 7 9\nq 0 100\n");
        QVERIFY(o.ok);
        QCOMPARE(o.out, std::string("q: 1\n"));
    }

    void semanticErrorsNameTheLine_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("message");
        QTest::newRow("live id") << "i 1 0 5\n\n# c\ni 1 2 3\n"
                                 << "t.ops:4: insert of live ID 1\n";
        QTest::newRow("unknown id") << "i 1 0 5\nr 2\n"
                                    << "t.ops:2: remove of unknown ID 2\n";
        QTest::newRow("removed id") << "i 1 0 5\nr 1\nr 1\n"
                                    << "t.ops:3: remove of unknown ID 1\n";
        QTest::newRow("syntax") << "d\nbogus\nd\n"
                                << "t.ops:2: unknown op 'bogus' (expected i, r, q or d)\n";
    }
    void semanticErrorsNameTheLine() {
        QFETCH(QString, script);
        QFETCH(QString, message);
        const Outcome o = runScript(script.toStdString());
        QVERIFY(!o.ok);
        QCOMPARE(QString::fromStdString(o.err), message);
    }

    void outputBeforeTheBadLineIsKept() {
        const Outcome o = runScript("d\nq 1 1\nr 9\nd\n");
        QVERIFY(!o.ok);
        QCOMPARE(o.out, std::string("d: .\nq:\n"));
    }

    // The same script with and without its final newline: the same output; a warning naming
    // the last line only without. A last op cut so that it no longer parses is still an error.
    void lastLineWithoutNewline() {
        const std::string expected = "q: 1 2\n";  // both overlap [6, 10], in start order
        const Outcome whole = runScript("i 1 0 10\ni 2 5 6\nq 6 10\n");
        QVERIFY(whole.ok);
        QCOMPARE(whole.out, expected);
        QVERIFY(whole.warnings.empty());
        const Outcome cut = runScript("i 1 0 10\ni 2 5 6\nq 6 10");
        QVERIFY(cut.ok);
        QCOMPARE(cut.out, expected);
        QCOMPARE(cut.err, std::string());
        QCOMPARE(cut.warnings,
                 (std::vector<std::string>{
                     "t.ops:3: the last line has no newline; the file may be cut short there"}));
        const Outcome broken = runScript("i 1 0 10\ni 2 5");
        QVERIFY(!broken.ok);
        QCOMPARE(broken.err, std::string("t.ops:2: expected 'i ID START LAST', got 2 arguments\n"));
    }

    void failedInsertLeavesTreeUnchanged() {
        std::ostringstream out;
        ScriptRunner r(out);
        std::string e;
        QVERIFY(r.execute({ScriptOp::Kind::Insert, 1, 0, 5}, e));
        QVERIFY(!r.execute({ScriptOp::Kind::Insert, 1, 7, 9}, e));
        QCOMPARE(r.tree().size(), std::size_t{1});
        QCOMPARE(r.find(1)->start, Index{0});
    }
};

IMMAP_TEST_SUITE(TestOpScript);
#include "TestOpScript.moc"
