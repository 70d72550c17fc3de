// One scenario, every path that simulates (issue 16): the app's sweep, its recording and its
// live contention run, and `immap simulate --trace` and `immap sweep` given the same scenario,
// all run the configuration the scenario says. Each path's configuration is read back from what
// it produced (a trace's header, a sweep's results) and compared field by field with the values
// written into the scenario here, and with each other.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "../cli/CliRun.h"
#include "MainWindow.h"
#include "Suites.h"
#include "sim/Recipe.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

using namespace immap;

namespace {

// What the scenario asks for, written by hand: every path must run exactly this.
constexpr const char* kTopology = "synthetic:numa:2 core:4 pu:1";
constexpr const char* kRecipeName = "execl, glibc 2.36, x86-64 (test scenario's copy)";
constexpr std::uint64_t kSeed = 7;
constexpr double kWalkers = 2000;
constexpr double kDurationMs = 5;
const std::map<std::string, double> kParams = {
    {"unlocked_ns_per_exec", 200'000}, {"tree_op_ns", 55}, {"background_processes", 20}};

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The scenario: the sample recipe renamed and embedded, three parameters off their defaults,
// walkers, a seed and a short window; a grid of two policies by two copy counts.
QString writeScenario(const QTemporaryDir& dir) {
    QJsonObject recipe = readJson(IMMAP_SAMPLES "/recipes/execl-glibc236.json");
    recipe["name"] = kRecipeName;
    QJsonObject params;
    for (const auto& [name, value] : kParams)
        params[QString::fromStdString(name)] = value;
    QJsonObject s{{"version", 1},
                  {"title", "one scenario, every path"},
                  {"topology", kTopology},
                  {"policies", QJsonArray{"single", "split-locks"}},
                  {"copies", QJsonArray{2, 4}},
                  {"durationMs", kDurationMs},
                  {"seed", static_cast<double>(kSeed)},
                  {"walkersPerSecond", kWalkers},
                  {"recipe", recipe},
                  {"params", params}};
    const QString path = dir.filePath("paths.json");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(QJsonDocument(s).toJson());
    return path;
}

// A header against the scenario's values (the policy, copies and length are the path's own).
void checkHeader(const trace::TraceHeader& h, const char* path, bool fullLength = true) {
    QVERIFY2(h.topology == kTopology, path);
    QVERIFY2(h.recipe == kRecipeName, path);
    QVERIFY2(h.seed == kSeed, path);
    QVERIFY2(h.walkersPerSecond == kWalkers, path);
    if (fullLength) QVERIFY2(h.durationMs == kDurationMs, path);
    const sim::CostParams defaults;
    for (const sim::CostParams::Info& i : sim::CostParams::table()) {
        const auto want = kParams.count(i.name) ? kParams.at(i.name) : defaults.*(i.field);
        QVERIFY2(h.params.at(i.name) == want, qPrintable(QString("%1: %2").arg(path, i.name)));
    }
}

// Two headers of the same run, field by field.
void compareHeaders(const trace::TraceHeader& a, const trace::TraceHeader& b) {
    QCOMPARE(a.topology, b.topology);
    QCOMPARE(a.policy, b.policy);
    QCOMPARE(a.recipe, b.recipe);
    QCOMPARE(a.copies, b.copies);
    QCOMPARE(a.seed, b.seed);
    QCOMPARE(a.durationMs, b.durationMs);
    QCOMPARE(a.walkersPerSecond, b.walkersPerSecond);
    QCOMPARE(a.files, b.files);
    QCOMPARE(a.treesPerFile, b.treesPerFile);
    QCOMPARE(a.copyCpus, b.copyCpus);
    QCOMPARE(a.copyNodes, b.copyNodes);
    QCOMPARE(a.walkerFile, b.walkerFile);
    QCOMPARE(a.params, b.params);
    QCOMPARE(a.locks.size(), b.locks.size());
    for (std::size_t i = 0; i < a.locks.size(); ++i) {
        QCOMPARE(a.locks[i].name, b.locks[i].name);
        QCOMPARE(a.locks[i].file, b.locks[i].file);
    }
}

}  // namespace

class TestSessionPaths : public QObject {
    Q_OBJECT

private slots:
    void everyPathRunsTheScenario() {
        QTemporaryDir dir;
        const QString scenario = writeScenario(dir);
        QVERIFY(!scenario.isEmpty());

        gui::MainWindow w(false);
        w.setHeadless(true);
        QVERIFY2(w.openScenario(scenario), qPrintable(w.lastError()));

        // The session holds the values; the controls only show them.
        const session::SimSettings& s = w.session().settings();
        QCOMPARE(s.seed, kSeed);
        QCOMPARE(s.walkersPerSecond, kWalkers);
        QVERIFY(s.recipe && s.recipe->name == kRecipeName);

        // The app's recording, and `immap simulate` of the same scenario.
        const QString appTrace = dir.filePath("app.trace"), cliTrace = dir.filePath("cli.trace");
        QVERIFY2(w.recordTrace(appTrace, "split-locks", 4, static_cast<int>(kDurationMs)),
                 qPrintable(w.lastError()));
        const test::CliResult sim =
            test::runImmap({"simulate", "--scenario", scenario, "--policy", "split-locks",
                            "--copies", "4", "--trace", cliTrace, "--json"});
        QVERIFY2(sim.status == 0, sim.err.constData());
        const trace::TraceHeader app = trace::TraceReader(appTrace.toStdString()).header();
        const trace::TraceHeader cli = trace::TraceReader(cliTrace.toStdString()).header();
        checkHeader(app, "app recording");
        checkHeader(cli, "immap simulate");
        QCOMPARE(app.policy, std::string("split-locks"));
        QCOMPARE(app.copies, 4u);
        compareHeaders(app, cli);

        // The live run: the same settings, the live choice's policies and copies; only its
        // length is its own (a live run is watched for a minute, not measured).
        live::LiveConfig lc;
        QVERIFY(w.contentionConfig(lc));
        QCOMPARE(lc.run.durationMs, live::LiveConfig::kLiveDurationMs);
        QCOMPARE(lc.run.copies, 8u);  // one per PU: 2 nodes x 4 cores x 1 PU
        for (const mapping::Policy& p : lc.policies) {
            sim::SimConfig c = lc.run;
            c.policy = p;
            const sim::Simulator simulator(c);
            checkHeader(trace::headerFor(c, simulator), "live run", false);
        }
        QCOMPARE(lc.policies.back().name(), std::string("split-locks"));
        {
            sim::SimConfig c = lc.run;
            c.policy = lc.policies.back();
            c.copies = 4;  // the recording's choice
            c.durationMs = kDurationMs;
            const sim::Simulator simulator(c);
            compareHeaders(trace::headerFor(c, simulator), app);
        }

        // The app's sweep and `immap sweep`: the same grid, and run for run the same results.
        QSignalSpy done(w.sweeps(), &SweepController::finished);
        QVERIFY(w.startSweep());
        QSignalSpy failed(w.sweeps(), &SweepController::failed);
        QVERIFY(done.wait(120000) || !failed.isEmpty());
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed[0][0].toString()));
        const std::vector<sim::SimResult>& runs = w.session().sweepResults();
        const test::CliResult sweep = test::runImmap({"sweep", "--scenario", scenario, "--json"});
        QVERIFY2(sweep.status == 0, sweep.err.constData());
        const QJsonArray cliRuns = test::json(sweep.out)["runs"].toArray();
        // Each policy without walkers, then at the scenario's rate (side by side, the default).
        QCOMPARE(runs.size(), std::size_t{8});
        QCOMPARE(cliRuns.size(), qsizetype{8});
        const std::vector<std::pair<std::string, unsigned>> grid = {
            {"single", 2}, {"single", 4}, {"split-locks", 2}, {"split-locks", 4}};
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const sim::SimResult& r = runs[i];
            const QJsonObject c = cliRuns[static_cast<qsizetype>(i)].toObject();
            QCOMPARE(r.policy, grid[i % 4].first);
            QCOMPARE(r.copies, grid[i % 4].second);
            QCOMPARE(r.topology, std::string(kTopology));
            QCOMPARE(r.recipe, std::string(kRecipeName));
            QCOMPARE(r.seed, kSeed);
            QCOMPARE(r.walkersPerSecond, i < 4 ? 0.0 : kWalkers);
            // At least the scenario's duration, then until every copy did window_execs.
            QVERIFY(r.durationMs >= kDurationMs);
            QVERIFY(r.execsPerCopyMin >= r.params.windowExecs);
            QCOMPARE(c["duration_ms"].toDouble(), r.durationMs);
            QCOMPARE(c["policy"].toString().toStdString(), r.policy);
            QCOMPARE(static_cast<unsigned>(c["copies"].toInt()), r.copies);
            QCOMPARE(c["recipe"].toString().toStdString(), r.recipe);
            QCOMPARE(c["topology"].toString().toStdString(), r.topology);
            QCOMPARE(c["seed"].toString().toULongLong(), r.seed);
            QCOMPARE(c["walkers_per_s"].toDouble(), r.walkersPerSecond);
            // The parameters are in no result; equal counts from the same seed say they match.
            QCOMPARE(static_cast<std::uint64_t>(c["execs"].toDouble()), r.execs);
            QCOMPARE(static_cast<std::uint64_t>(c["walks"].toDouble()), r.walks);
            QCOMPARE(static_cast<std::uint64_t>(c["lock_holds"].toDouble()), r.lockHolds);
        }
        // The recording is the sweep's split-locks x 4 run at the scenario's rate: the same
        // execs.
        const QJsonObject simRun = test::json(sim.out);
        QCOMPARE(static_cast<std::uint64_t>(simRun["execs"].toDouble()), runs[7].execs);
    }

    // What the controls change goes into the session, and a save writes the session.
    void editsReachTheSessionAndTheSave() {
        QTemporaryDir dir;
        const QString scenario = writeScenario(dir);
        gui::MainWindow w(false);
        w.setHeadless(true);
        QVERIFY2(w.openScenario(scenario), qPrintable(w.lastError()));
        w.sweepControls()->setPolicies("split-trees");
        w.sweepControls()->setCopies("3");
        const QString saved = dir.filePath("saved.json");
        QVERIFY2(w.saveScenario(saved), qPrintable(w.lastError()));
        QCOMPARE(w.session().settings().policiesText(), std::string("split-trees"));
        const QJsonObject o = readJson(saved);
        QCOMPARE(o["policies"].toArray(), QJsonArray{"split-trees"});
        QCOMPARE(o["copies"].toArray(), QJsonArray{3});
        QCOMPARE(static_cast<std::uint64_t>(o["seed"].toDouble()), kSeed);
        QCOMPARE(o["walkersPerSecond"].toDouble(), kWalkers);
        QCOMPARE(o["recipe"].toObject()["name"].toString(), QString(kRecipeName));
        for (const auto& [name, value] : kParams)
            QCOMPARE(o["params"].toObject()[QString::fromStdString(name)].toDouble(), value);
    }
};

IMMAP_TEST_SUITE(TestSessionPaths);
#include "TestSessionPaths.moc"
