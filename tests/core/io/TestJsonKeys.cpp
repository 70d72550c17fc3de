// A key twice in one JSON object is refused, naming both lines (issue 47, point 7): Qt's parser
// kept the last value without a word, and the scenario's messages named the first one's line.
// JsonKeys against hand-counted lines, then every JSON reader in core/ given a duplicate: each
// refuses it as FILE:LINE: duplicate key "k" (first at line N).
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <functional>

#include "Suites.h"
#include "calib/FitFile.h"
#include "io/JsonKeys.h"
#include "measure/MeasuredCurve.h"
#include "session/Scenario.h"
#include "sim/Recipe.h"
#include "sim/SweepShard.h"
#include "trace/Bookmarks.h"
#include "trace/TraceHeader.h"

using namespace immap;
using io::JsonKeys;

namespace {

std::string messageOf(const std::function<void()>& read) {
    try {
        read();
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestJsonKeys : public QObject {
    Q_OBJECT

private slots:
    void findsTheSecondKeyAndTheFirst() {
        const std::string text =
            "{\n"                         // 1
            "  \"a\": 1,\n"               // 2
            "  \"b\": {\"a\": 2},\n"      // 3: another object's "a" is no duplicate
            "  \"list\": [{\"x\": 1},\n"  // 4
            "            {\"x\": 2}],\n"  // 5: nor is the next element's "x"
            "  \"s\": \"a\",\n"           // 6: a value "a" is no key
            "  \"a\": 3\n"                // 7: this is
            "}\n";
        const auto d = JsonKeys::firstDuplicate(text);
        QVERIFY(d.has_value());
        QCOMPARE(d->key, std::string("a"));
        QCOMPARE(d->line, 7);
        QCOMPARE(d->firstLine, 2);
        QCOMPARE(d->reason(), std::string("duplicate key \"a\" (first at line 2)"));
        QCOMPARE(JsonKeys::linesOf(text, "a"), (std::vector<int>{2, 3, 7}));
        QCOMPARE(JsonKeys::linesOf(text, "x"), (std::vector<int>{4, 5}));
    }

    void nestedAndEscapedKeys() {
        // Inside an element of an array of objects, on line 3.
        QCOMPARE(JsonKeys::firstDuplicate("[{\"k\": 1},\n {\"k\": 1,\n \"k\": 2}]")->line, 3);
        // Keys compare decoded, as the parser compares them: "\u0061" is "a", a surrogate pair is
        // one character.
        const auto e = JsonKeys::firstDuplicate("{\"a\": 1,\n\"\\u0061\": 2}");
        QVERIFY(e.has_value());
        QCOMPARE(e->key, std::string("a"));
        QCOMPARE(e->line, 2);
        QVERIFY(JsonKeys::firstDuplicate("{\"\\ud83d\\ude00\": 1, \"\xf0\x9f\x98\x80\": 2}"));
        // A quote or a brace inside a string is no structure.
        QVERIFY(!JsonKeys::firstDuplicate("{\"a\\\"\": 1, \"a\": \"}{\\\"a\\\": \"}"));
        QVERIFY(!JsonKeys::firstDuplicate("{\"a\": 1, \"b\": [\"a\", {\"a\": 2}]}"));
        // Not JSON: scanned without reading past the end.
        for (const char* broken : {"{\"a", "{\"a\": \"\\", "}}]]{", "{\"a\":1,\"a\"", "\"\\u12"})
            JsonKeys::firstDuplicate(broken);
        QCOMPARE(JsonKeys::firstDuplicate("{\"a\":1,\"a\"")->line, 1);
    }

    // Each reader, given a duplicate on line 3 of a key first on line 2.
    void everyReaderRefusesDuplicates() {
        QTemporaryDir dir;
        const std::string dup = "{\n  \"format\": \"a\",\n  \"format\": \"b\"\n}\n";
        const std::string want = ":3: duplicate key \"format\" (first at line 2)";
        auto check = [](const char* file, const std::string& message, const std::string& expected) {
            QVERIFY2(message == file + expected, message.c_str());
        };
        check("r.json", messageOf([&] { sim::Recipe::fromJson(dup, "r.json"); }), want);
        check("f.json", messageOf([&] { calib::FitFile::paramsFromJson(dup, "f.json"); }), want);
        check("m.json", messageOf([&] { measure::MeasuredCurve::fromJson(dup, "m.json"); }), want);
        // The scenario's second "copies" used to win silently, and a bad one was reported at
        // the first one's line.
        check("s.json", messageOf([&] {
                  session::Scenario::fromJson(
                      "{\n  \"version\": 1,\n  \"copies\": [1, 2],\n  \"copies\": \"x\"\n}\n",
                      "s.json", ".");
              }),
              ":4: duplicate key \"copies\" (first at line 3)");
        const std::string bookmarks = dir.filePath("b.json").toStdString();
        std::ofstream(bookmarks) << "{\"bookmarks\": [\n {\"event\": 1, \"caption\": \"x\",\n"
                                    "  \"event\": 2}]}\n";
        const std::string b = messageOf([&] { trace::Bookmarks::load(bookmarks); });
        QCOMPARE(b, bookmarks + ":3: duplicate key \"event\" (first at line 2)");
        std::vector<sim::SweepRow> rows;
        std::string error;
        QVERIFY(!sim::SweepShard::merge({{"p.json", dup}}, rows, error));
        QCOMPARE(error, std::string("p.json") + want);
        // A trace's header is one line: its JSON's duplicate is on line 1.
        std::string header = trace::TraceHeader{}.toLine();
        header.insert(header.find('{') + 1, "\"policy\": \"split-locks\", ");
        const std::string h = messageOf([&] { trace::TraceHeader::fromLine(header, "t.trace"); });
        QCOMPARE(h, std::string("t.trace:1: duplicate key \"policy\" (first at line 1)"));
    }
};

IMMAP_TEST_SUITE(TestJsonKeys);
#include "TestJsonKeys.moc"
