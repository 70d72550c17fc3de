// Scenario files: a full scenario survives save -> load unchanged; each kind of bad file gives
// the file, the line where the problem is and the reason; the shipped workshops load and name
// files that exist.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include "Suites.h"
#include "session/Scenario.h"
#include "session/SimSettings.h"
#include "topology/Topology.h"

using namespace immap;
using session::Scenario;
using session::ScenarioError;
using session::SimSettings;

namespace {

// Loads `json` as file NAME and returns the message, or "" if it loads.
std::string errorOf(const std::string& json) {
    try {
        Scenario::fromJson(json, "bad.json", IMMAP_SAMPLES "/workshops");
    } catch (const ScenarioError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestScenario : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        Scenario s;
        s.title = "a title with \"quotes\" and ü";
        s.topology = "xml:../topologies/numa12-384cpu.xml";
        s.source = "synthetic:libc?processes=1200&seed=1";
        s.file = "ld-linux-x86-64.so.2";
        s.policies = {"single", "split-trees", "split-locks", "sharded:32"};
        s.copies = {1, 2, 4, 384};
        s.durationMs = 50;
        s.walkersPerSecond = 1000;
        s.walkersSideBySide = false;
        s.bands = 12;
        s.recipePath = "../recipes/execl-glibc236.json";
        s.params = {{"tree_op_ns", 20.5}, {"walker_pages", 4}, {"mem_local_ns", 60}};
        s.view = "throughput";
        auto mark = [&s](std::string caption, std::string view) -> session::ScenarioBookmark& {
            session::ScenarioBookmark b;
            b.caption = std::move(caption);
            b.view = std::move(view);
            return s.bookmarks.emplace_back(std::move(b));
        };
        mark("first", "split");
        mark("second\nline", "").event = std::uint64_t{123456789012};
        mark("third", "throughput").timeMs = 2.5;
        mark("fourth", "split").docks = std::vector<std::string>{"steps", "vmas"};
        mark("fifth", "split").docks = std::vector<std::string>{};
        mark("sixth", "throughput").points = {{"single", 32, false}, {"split-locks", 384, true}};
        mark("seventh", "split").zoom = 4.5;
        QTemporaryDir dir;
        const std::string path = dir.filePath("s.json").toStdString();
        s.save(path);
        // The recipe path is relative to the scenario: resolve against the samples for the check.
        const std::string text = [&] {
            QFile f(QString::fromStdString(path));
            f.open(QIODevice::ReadOnly);
            return f.readAll().toStdString();
        }();
        const Scenario back = Scenario::fromJson(text, path, IMMAP_SAMPLES "/workshops");
        QVERIFY(back == s);
        QCOMPARE(back.bookmarks[1].event.value(), std::uint64_t{123456789012});
        QCOMPARE(back.params.at("tree_op_ns"), 20.5);

        // An embedded recipe round-trips as well, and an empty scenario too.
        Scenario e;
        QFile r(IMMAP_SAMPLES "/recipes/execl-glibc236.json");
        QVERIFY(r.open(QIODevice::ReadOnly));
        const std::string recipe = r.readAll().toStdString();
        e.recipeJson =
            Scenario::fromJson("{\"version\":1,\"recipe\":" + recipe + "}", "x").recipeJson;
        QVERIFY(!e.recipeJson.empty());
        e.save(path);
        QVERIFY(Scenario::load(path) == e);
        Scenario empty;
        empty.save(path);
        QVERIFY(Scenario::load(path) == empty);
    }

    // The shipped workshops carry their sweeps' runs: they load, and a save writes them back
    // as read.
    void bakedResultsRoundTrip() {
        for (const char* name : {"libc-384.json", "walkers-and-memory.json"}) {
            const Scenario s = Scenario::load(std::string(IMMAP_SAMPLES "/workshops/") + name);
            QVERIFY2(!s.results.empty(), name);
            std::size_t full = 0;
            for (const auto& [key, run] : s.results)
                full += !run.result.empty();
            QVERIFY(full > 0 && full < s.results.size());  // draws carry their rate alone
            QCOMPARE(Scenario::fromJson(s.toJson(), name, IMMAP_SAMPLES "/workshops"), s);
        }
    }
    void badFiles_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not JSON") << "{\n\"version\": 1,\n\"title\": \"x\"\n,,\n}"
                                  << "bad.json:4: not valid JSON";
        QTest::newRow("not an object") << "[1]"
                                       << "bad.json:1: a scenario is a JSON object";
        QTest::newRow("no version") << "{}"
                                    << "bad.json:1: no \"version\"";
        QTest::newRow("future version") << "{\n\"version\": 2\n}"
                                        << "bad.json:2: version 2 is not one this program reads";
        QTest::newRow("unknown key") << "{\"version\": 1,\n\n \"polices\": []}"
                                     << "bad.json:3: unknown key \"polices\"";
        QTest::newRow("wrong type") << "{\"version\": 1,\n\"topology\": 12}"
                                    << "bad.json:2: \"topology\" must be a string";
        QTest::newRow("unknown dock") << "{\"version\": 1,\n\"bookmarks\": [{\"caption\": \"a\",\n "
                                         "\"docks\": [\"steps\", \"toolbox\"]}]}"
                                      << "bad.json:3: unknown dock \"toolbox\" in bookmark 1 "
                                         "(files, vmas, steps or parameters)";
        QTest::newRow("zoom out of range")
            << "{\"version\": 1,\n\"bookmarks\": [{\"caption\": \"a\",\n \"zoom\": 0.5}]}"
            << "bad.json:3: \"zoom\" is 0.5, out of range";
        QTest::newRow("quoted point of an unknown policy")
            << "{\"version\": 1,\n\"bookmarks\": [{\"caption\": \"a\",\n \"points\": "
               "[{\"policy\": \"split-all\", \"copies\": 4}]}]}"
            << "bad.json:3: unknown policy \"split-all\" in bookmark 1";
        QTest::newRow("quoted point without copies")
            << "{\"version\": 1,\n\"bookmarks\": [{\"caption\": \"a\",\n\n \"points\": "
               "[{\"policy\": \"single\"}]}]}"
            << "bad.json:4: \"points\" in bookmark 1 must be a list of {\"policy\": NAME, "
               "\"copies\": N}";
        QTest::newRow("policies not a list") << "{\"version\": 1,\n\"policies\": \"single\"}"
                                             << "bad.json:2: \"policies\" must be a list";
        QTest::newRow("unknown policy")
            << "{\"version\": 1,\n\"policies\": [\"single\",\n \"split-everything\"]}"
            << "bad.json:3: unknown policy \"split-everything\"";
        QTest::newRow("copies out of range") << "{\"version\": 1,\n\"copies\": [1,\n 0]}"
                                             << "bad.json:3: \"copies\" is 0, out of range";
        // Empty lists read as "not given": refused instead (issue 47, point 7).
        QTest::newRow("copies empty") << "{\"version\": 1,\n\"copies\": []}"
                                      << "bad.json:2: \"copies\" is empty";
        QTest::newRow("policies empty") << "{\"version\": 1,\n\n\"policies\": [ ]}"
                                        << "bad.json:3: \"policies\" is empty";
        // A second key won silently, and a bad one was reported at the first one's line.
        QTest::newRow("duplicate key")
            << "{\"version\": 1,\n\"copies\": [1, 2],\n\"title\": \"t\",\n\"copies\": \"x\"}"
            << "bad.json:4: duplicate key \"copies\" (first at line 2)";
        QTest::newRow("duplicate key in a bookmark")
            << "{\"version\": 1, \"bookmarks\": [\n{\"caption\": \"a\"},\n{\"caption\": \"b\",\n "
               "\"zoom\": 2, \"caption\": \"c\"}]}"
            << "bad.json:4: duplicate key \"caption\" (first at line 3)";
        // A nested object's key of the same name comes first in the text: the message names
        // the line of the key at fault.
        QTest::newRow("key named after a nested one")
            << "{\"version\": 1,\n\"bookmarks\": [{\"caption\": \"a\", \"zoom\": 2}],\n\"zoom\": 3}"
            << "bad.json:3: unknown key \"zoom\"";
        QTest::newRow("bad value after a nested key of its name")
            << "{\"version\": 1,\n\"params\": {\"title\": 1},\n\"title\": 5}"
            << "bad.json:3: \"title\" must be a string";
        QTest::newRow("copies fraction") << "{\"version\": 1,\n\"copies\": [1.5]}"
                                         << "bad.json:2: \"copies\" must be a whole number";
        QTest::newRow("unknown parameter")
            << "{\"version\": 1,\n\"params\": {\n\"mem_local_ns\": 5,\n\"lock_magic\": 3}}"
            << "bad.json:4: unknown parameter";
        QTest::newRow("parameter out of range")
            << "{\"version\": 1,\n\"params\": {\n\"walker_pages\": 0}}"
            << "bad.json:3: parameter walker_pages must be between 1";
        QTest::newRow("parameter not a number")
            << "{\"version\": 1,\n\"params\": {\"tree_op_ns\": \"fast\"}}"
            << "bad.json:2: parameter \"tree_op_ns\" must be a number";
        QTest::newRow("walkers negative") << "{\"version\": 1,\n\n\"walkersPerSecond\": -1}"
                                          << "bad.json:3: \"walkersPerSecond\" is -1, out of range";
        QTest::newRow("side by side not a boolean")
            << "{\"version\": 1,\n\"walkersPerSecond\": 5,\n\"walkersSideBySide\": \"yes\"}"
            << "bad.json:3: \"walkersSideBySide\" must be true or false";
        QTest::newRow("side by side a number") << "{\"version\": 1, \"walkersSideBySide\": 0}"
                                               << "bad.json:1: \"walkersSideBySide\" must be true "
                                                  "or false";
        QTest::newRow("bands too many") << "{\"version\": 1,\n\"bands\": 1001}"
                                        << "bad.json:2: \"bands\" is 1001, out of range";
        QTest::newRow("bands fraction") << "{\"version\": 1,\n\"bands\": 2.5}"
                                        << "bad.json:2: \"bands\" must be a whole number";
        QTest::newRow("unknown view") << "{\"version\": 1, \"view\": \"3d\"}"
                                      << "bad.json:1: unknown view \"3d\"";
        QTest::newRow("bookmark without caption")
            << "{\"version\": 1, \"bookmarks\": [\n{\"caption\": \"a\"},\n{\"event\": 3}]}"
            << "bad.json:3: bookmark 2 has no \"caption\"";
        QTest::newRow("bookmark unknown key")
            << "{\"version\": 1, \"bookmarks\": [\n{\"caption\": \"a\",\n \"evnt\": 3}]}"
            << "bad.json:3: unknown key \"evnt\" in bookmark 1";
        QTest::newRow("bookmark negative event")
            << "{\"version\": 1, \"bookmarks\": [{\"caption\": \"a\",\n \"event\": -3}]}"
            << "bad.json:2: \"event\" is -3, out of range";
        QTest::newRow("missing recipe file")
            << "{\"version\": 1,\n\"recipe\": \"nope.json\"}"
            << "bad.json:2: recipe " IMMAP_SAMPLES "/workshops/nope.json: no such file";
        QTest::newRow("broken embedded recipe")
            << "{\"version\": 1,\n\"recipe\": {\"format\": \"immap-recipe\"}}"
            << "bad.json:2: recipe bad.json (embedded recipe):";
        // A device would never end: refused before it is read.
        QTest::newRow("recipe is a device")
            << "{\"version\": 1,\n\"recipe\": \"/dev/zero\"}"
            << "bad.json:2: recipe /dev/zero: not a regular file (a character device)";
        QTest::newRow("recipe is a directory")
            << "{\"version\": 1,\n\"recipe\": \".\"}"
            << "bad.json:2: recipe " IMMAP_SAMPLES "/workshops: not a regular file (a directory)";
        // "results" (docs/cache.md): each malformed entry named at its own line.
        QTest::newRow("results not a list") << "{\"version\": 1,\n\"results\": {}}"
                                            << "bad.json:2: \"results\" must be a list";
        QTest::newRow("result key not hex")
            << "{\"version\": 1,\n\"results\": [\n{\"key\": \"abc\", \"execs_per_s\": 1}]}"
            << "bad.json:3: \"key\" must be 64 lowercase hex digits (a run key) (result 1)";
        QTest::newRow("result twice")
            << "{\"version\": 1,\n\"results\": [{\"key\": \"KEY\", \"execs_per_s\": 1},\n"
               "{\"key\": \"KEY\", \"execs_per_s\": 2}]}"
            << "bad.json:3: the run aaaaaaaaaaaa... twice (result 2)";
        QTest::newRow("result not compressed")
            << "{\"version\": 1,\n\"results\": [\n\n{\"key\": \"KEY\", \"zlib\": \"aGVsbG8=\"}]}"
            << "bad.json:4: \"zlib\" is not a compressed result (result 1)";
        QTest::newRow("result not a result")
            << "{\"version\": 1,\n\"results\": [\n{\"key\": \"KEY\", \"zlib\": \"ZLIB\"}]}"
            << "bad.json:3: not a result: not a result of format 1 (result 1)";
        QTest::newRow("result with neither")
            << "{\"version\": 1,\n\"results\": [1,\n{\"key\": \"KEY\"}]}"
            << "bad.json:2: a result must be";
        QTest::newRow("recipe does not load")
            << "{\"version\": 1,\n\"recipe\": \"libc-384.json\"}"
            << "bad.json:2: recipe " IMMAP_SAMPLES "/workshops/libc-384.json:";
    }
    void badFiles() {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        json.replace("KEY", QString(64, QLatin1Char('a')));
        // A compressed JSON object that is not a result.
        json.replace("ZLIB",
                     QString::fromLatin1(qCompress(QByteArray("{\"format\": 7}")).toBase64()));
        const std::string got = errorOf(json.toStdString());
        QVERIFY2(
            got.rfind(expected.toStdString(), 0) == 0,
            ("got \"" + got + "\", wanted it to start \"" + expected.toStdString() + "\"").c_str());
    }

    void missingAndHugeFiles() {
        try {
            Scenario::load("/nonexistent/s.json");
            QFAIL("loaded a missing file");
        } catch (const ScenarioError& e) {
            QCOMPARE(e.file(), std::string("/nonexistent/s.json"));
            QCOMPARE(e.reason(), std::string("no such file"));
        }
        QTemporaryDir dir;
        QFile big(dir.filePath("big.json"));
        QVERIFY(big.open(QIODevice::WriteOnly));
        big.write(QByteArray(5 << 20, ' '));
        big.close();
        try {
            Scenario::load(big.fileName().toStdString());
            QFAIL("loaded a 5 MiB file");
        } catch (const ScenarioError& e) {
            QCOMPARE(e.reason(), std::string("larger than the 4 MiB limit for a scenario"));
        }
    }

    void resolvesRelativeSpecs() {
        QCOMPARE(Scenario::resolveSpec("xml:../topologies/a.xml", "/s/workshops"),
                 std::string("xml:/s/topologies/a.xml"));
        QCOMPARE(Scenario::resolveSpec("xml:/abs/a.xml", "/s/workshops"),
                 std::string("xml:/abs/a.xml"));
        QCOMPARE(Scenario::resolveSpec("snapshot:host250", "/s"),
                 std::string("snapshot:/s/host250"));
        QCOMPARE(Scenario::resolveSpec("synthetic:libc?processes=3", "/s"),
                 std::string("synthetic:libc?processes=3"));
        QCOMPARE(Scenario::resolveSpec("host", "/s"), std::string("host"));
    }

    // A scenario without walkersPerSecond runs at the default rate and sweeps each policy
    // without walkers beside it; 0 stays 0 through a save (it is not the default); side by side
    // is written only when off.
    void walkerRateAndSideBySide() {
        const auto settings = [](const std::string& json) {
            return SimSettings::fromScenario(Scenario::fromJson(json, "s.json"), "s.json");
        };
        const double rate = SimSettings::kDefaultWalkersPerSecond;
        QVERIFY(rate > 0);
        const SimSettings byDefault = settings("{\"version\": 1}");
        QCOMPARE(byDefault.walkersPerSecond, rate);
        QVERIFY(byDefault.walkersSideBySide);
        QCOMPARE(byDefault.walkerRates(), (std::vector<double>{0, rate}));
        QCOMPARE(SimSettings{}.walkerRates(), (std::vector<double>{0, rate}));
        QCOMPARE(settings("{\"version\": 1, \"walkersPerSecond\": 0}").walkerRates(),
                 std::vector<double>{0});
        QCOMPARE(settings("{\"version\": 1, \"walkersPerSecond\": 250}").walkerRates(),
                 (std::vector<double>{0, 250}));
        QCOMPARE(settings("{\"version\": 1, \"walkersPerSecond\": 250, \"walkersSideBySide\": "
                          "false}")
                     .walkerRates(),
                 std::vector<double>{250});
        // The sweep SimSettings makes runs those rates over its grid.
        const auto topo = topology::Topology::fromSpec("synthetic:numa:2 core:2 pu:1");
        const sim::SweepConfig sweep = byDefault.sweep(topo, 1);
        QCOMPARE(sweep.rates(), (std::vector<double>{0, rate}));
        QCOMPARE(sweep.gridSize(), 2 * byDefault.policies.size() * sweep.copies.size());

        // Settings -> scenario -> JSON -> scenario -> settings.
        const auto through = [](const SimSettings& in, QString& json) {
            Scenario s;
            in.toScenario(s);
            json = QString::fromStdString(s.toJson());
            return SimSettings::fromScenario(Scenario::fromJson(s.toJson(), "t.json"), "t.json");
        };
        QString json;
        SimSettings none;
        none.walkersPerSecond = 0;
        QCOMPARE(through(none, json).walkersPerSecond, 0.0);
        QVERIFY2(json.contains("\"walkersPerSecond\": 0"), qPrintable(json));
        QVERIFY2(!json.contains("walkersSideBySide"), qPrintable(json));
        SimSettings alone;
        alone.walkersSideBySide = false;
        const SimSettings back = through(alone, json);
        QVERIFY(!back.walkersSideBySide);
        QCOMPARE(back.walkersPerSecond, rate);
        QVERIFY2(json.contains("\"walkersSideBySide\": false"), qPrintable(json));
        // The default rate is not written, so that the scenario follows the default.
        QVERIFY2(!json.contains("walkersPerSecond"), qPrintable(json));
    }

    void shippedWorkshopsLoad() {
        const QDir dir(IMMAP_SAMPLES "/workshops");
        const QStringList files = dir.entryList({"*.json"}, QDir::Files);
        QCOMPARE(files.size(), 2);
        for (const QString& f : files) {
            const Scenario s = Scenario::load(dir.filePath(f).toStdString());
            QVERIFY(!s.title.empty());
            QVERIFY(!s.bookmarks.empty());
            QVERIFY(!s.policies.empty());
            // Whatever file the scenario names must be there.
            const std::string topo = Scenario::resolveSpec(s.topology, dir.path().toStdString());
            if (topo.rfind("xml:", 0) == 0)
                QVERIFY2(QFileInfo::exists(QString::fromStdString(topo.substr(4))), topo.c_str());
            for (const auto& b : s.bookmarks)
                QVERIFY(!b.caption.empty());
            // Each sweeps its policies without walkers and with them: its own rate, or the
            // default one.
            const SimSettings settings =
                SimSettings::fromScenario(s, dir.filePath(f).toStdString());
            const double rate =
                f == "walkers-and-memory.json" ? 10000.0 : SimSettings::kDefaultWalkersPerSecond;
            QCOMPARE(settings.walkerRates(), (std::vector<double>{0, rate}));
            QVERIFY(settings.bands > 0);  // the captions cite the bands the plot shades
        }
    }
};

IMMAP_TEST_SUITE(TestScenario);
#include "TestScenario.moc"
