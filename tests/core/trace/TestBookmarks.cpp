// A trace's bookmarks sidecar (TRACE.bookmarks.json) checked like every other input (issue 47,
// point 7): "bookmarks": "x" was read as no bookmarks, "event": 1e300 was cast to an integer
// (undefined), a caption of 5 became "". Each is refused as FILE:LINE: reason, the line that of
// the key at fault; what save() writes reads back as it was.
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

#include "Suites.h"
#include "trace/Bookmarks.h"
#include "trace/TraceError.h"

using namespace immap;

class TestBookmarks : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string write(const std::string& text) {
        const std::string path = dir_.filePath("t.trace.bookmarks.json").toStdString();
        std::ofstream(path, std::ios::trunc) << text;
        return path;
    }

private slots:
    void refused_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");  // after "PATH:"
        QTest::newRow("bookmarks not a list") << "{\n\"bookmarks\": \"x\"\n}"
                                              << "2: \"bookmarks\" must be a list";
        QTest::newRow("no bookmarks") << "{}"
                                      << "1: a bookmarks file is {\"bookmarks\": [";
        QTest::newRow("not an object") << "[]"
                                       << "1: a bookmarks file is {\"bookmarks\": [";
        QTest::newRow("unknown top key") << "{\"bookmarks\": [],\n \"bookmark\": []}"
                                         << "2: unknown key \"bookmark\"";
        QTest::newRow("event huge") << "{\"bookmarks\": [\n{\"event\": 1, \"caption\": \"a\"},\n"
                                       "{\"event\": 1e300, \"caption\": \"b\"}]}"
                                    << "3: bookmark 2: \"event\" must be a whole number from 0 "
                                       "to 2^53";
        QTest::newRow("event negative") << "{\"bookmarks\": [{\"event\": -1}]}"
                                        << "1: bookmark 1: \"event\" must be";
        QTest::newRow("event fraction") << "{\"bookmarks\": [\n{\"event\": 2.5}]}"
                                        << "2: bookmark 1: \"event\" must be";
        QTest::newRow("event a string") << "{\"bookmarks\": [\n\n{\"event\": \"7\"}]}"
                                        << "3: bookmark 1: \"event\" must be";
        QTest::newRow("no event") << "{\n\"bookmarks\": [{\"caption\": \"a\"}]}"
                                  << "2: bookmark 1 is not {\"event\": N, \"caption\": \"...\"}";
        QTest::newRow("element not an object") << "{\"bookmarks\": [{\"event\": 1}, 7]}"
                                               << "1: bookmark 2 is not {\"event\"";
        // The second caption key in the file is the third bookmark's: counted, not assumed.
        QTest::newRow("caption not a string")
            << "{\"bookmarks\": [\n{\"event\": 1, \"caption\": \"a\"},\n{\"event\": 2},\n"
               "{\"event\": 3,\n \"caption\": 5}]}"
            << "5: bookmark 3: \"caption\" must be a string";
        QTest::newRow("unknown key in a bookmark")
            << "{\"bookmarks\": [\n{\"event\": 1, \"title\": \"a\"}]}"
            << "2: bookmark 1: unknown key \"title\"";
    }
    void refused() {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const std::string path = write(json.toStdString());
        std::string got;
        try {
            trace::Bookmarks::load(path);
        } catch (const trace::TraceError& e) {
            got = e.what();
        }
        const std::string want = path + ":" + expected.toStdString();
        QVERIFY2(got.rfind(want, 0) == 0, ("got \"" + got + "\", wanted \"" + want + "\"").c_str());
    }

    void savedReadsBack() {
        const std::string path = dir_.filePath("back.json").toStdString();
        const std::vector<trace::Bookmark> marks{
            {0, "start"}, {9007199254740992ULL, "2^53"}, {42, "a \"quoted\" caption"}};
        trace::Bookmarks::save(path, marks);
        const std::vector<trace::Bookmark> back = trace::Bookmarks::load(path);
        QCOMPARE(back.size(), marks.size());
        for (std::size_t i = 0; i < marks.size(); ++i) {
            QCOMPARE(back[i].event, marks[i].event);
            QCOMPARE(back[i].caption, marks[i].caption);
        }
        // No caption is an empty one; no file is no bookmarks.
        QCOMPARE(trace::Bookmarks::load(write("{\"bookmarks\": [{\"event\": 3}]}"))[0].caption,
                 std::string());
        QVERIFY(trace::Bookmarks::load(dir_.filePath("none.json").toStdString()).empty());
    }
};

IMMAP_TEST_SUITE(TestBookmarks);
#include "TestBookmarks.moc"
