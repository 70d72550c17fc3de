// Byte-exact agreement with the kernel's own interval tree (tests/data/itree-reference: the
// output of lib/rbtree.c + interval_tree_generic.h compiled in user space; how they were made:
// tests/data/itree-reference/README.md).
#include <QTest>
#include <fstream>
#include <map>
#include <sstream>

#include "BruteForceModel.h"
#include "Suites.h"
#include "itree/ReplayTree.h"
#include "itree/ScriptRunner.h"
#include "itree/StepRecorder.h"

using namespace immap::itree;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string reference(const QString& name) {
    return std::string(IMMAP_TEST_DATA) + "/itree-reference/" + name.toStdString();
}

// Runs reference script NAME.ops on `runner` with `rec` recording every step.
bool runRecorded(const char* name, ScriptRunner& runner, StepRecorder& rec) {
    std::istringstream in(slurp(reference(QString(name) + ".ops")));
    std::ostringstream err;
    runner.tree().setRecorder(&rec);
    return runner.run(in, name, err);
}

}  // namespace

class TestReference : public QObject {
    Q_OBJECT

private slots:
    void matchesKernelOutput_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("libc-small") << "libc-small";
        QTest::newRow("random-small") << "random-small";
    }
    void matchesKernelOutput() {
        QFETCH(QString, name);
        const std::string ops = slurp(reference(name + ".ops"));
        const std::string expected = slurp(reference(name + ".expected"));
        QVERIFY2(!ops.empty() && !expected.empty(), "reference files missing");
        std::istringstream in(ops);
        std::ostringstream out, err;
        ScriptRunner runner(out);
        QVERIFY2(runner.run(in, name.toStdString(), err), err.str().c_str());
        const std::string got = out.str();
        if (got != expected) {
            // Name the first differing line, not just "differs".
            std::istringstream g(got), x(expected);
            std::string gl, xl;
            int line = 1;
            while (std::getline(g, gl) && std::getline(x, xl) && gl == xl)
                ++line;
            QFAIL(("output line " + std::to_string(line) + " differs:\n got: " + gl.substr(0, 300) +
                   "\nwant: " + xl.substr(0, 300))
                      .c_str());
        }
    }

    // Byte-exactness above proves something only if the scripts reach every case: each
    // fix-up case that rotates, in both mirror images, and every erase case.
    void referenceCoversEveryCase() {
        std::map<std::string, int> seen;
        for (const char* name : {"libc-small", "random-small"}) {
            std::ostringstream out;
            ScriptRunner runner(out);
            StepRecorder rec;
            QVERIFY(runRecorded(name, runner, rec));
            const auto& steps = rec.steps();
            for (std::size_t i = 0; i < steps.size(); ++i) {
                const Step& s = steps[i];
                if (s.kind != StepKind::FixupCase && s.kind != StepKind::EraseCase) continue;
                std::string key = std::string(s.function) + " " + std::to_string(s.detail);
                // A rotating case's mirror image is the direction of the rotation it starts.
                if (i + 1 < steps.size() && steps[i + 1].kind == StepKind::Rotate)
                    key += steps[i + 1].detail ? " right" : " left";
                ++seen[key];
            }
        }
        for (const char* want :
             {"__rb_insert 0", "__rb_insert 1", "__rb_insert 2 left", "__rb_insert 2 right",
              "__rb_insert 3 left", "__rb_insert 3 right", "__rb_erase_augmented 1",
              "__rb_erase_augmented 2", "__rb_erase_augmented 3", "__rb_erase_color 1 left",
              "__rb_erase_color 1 right", "__rb_erase_color 2", "__rb_erase_color 3 left",
              "__rb_erase_color 3 right", "__rb_erase_color 4 left", "__rb_erase_color 4 right"})
            QVERIFY2(seen[want] > 0, want);
    }

    // The same scripts with the recorder on: identical output, and the recorded steps rebuild
    // the tree exactly at the end.
    void recordingDoesNotChangeTheResult() {
        for (const char* name : {"libc-small", "random-small"}) {
            std::ostringstream out;
            ScriptRunner runner(out);
            StepRecorder rec;
            QVERIFY(runRecorded(name, runner, rec));
            QCOMPARE(out.str(), slurp(reference(QString(name) + ".expected")));
            ReplayTree shadow;
            for (const Step& s : rec.steps())
                QVERIFY(shadow.forward(rec, s));
            const std::string diff = shadow.differenceFrom(runner.tree());
            QVERIFY2(diff.empty(), diff.c_str());
        }
    }
};

IMMAP_TEST_SUITE(TestReference);
#include "TestReference.moc"
