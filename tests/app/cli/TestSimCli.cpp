// `immap simulate` and `immap sweep` as a user runs them: the JSON of issue 4 item 6, bad
// arguments and bad recipes (exit 2, FILE:LINE: reason), determinism across processes, the
// CSV file, and the parameter table in docs/simulator.md agreeing with the code's defaults.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <map>

#include "CliRun.h"
#include "Suites.h"

using immap::test::json;
using immap::test::runImmap;

namespace {

const QString kTopo = QString("xml:") + IMMAP_SAMPLES + "/topologies/numa12-384cpu.xml";

}  // namespace

class TestSimCli : public QObject {
    Q_OBJECT

private slots:
    void simulateJsonHasTheDocumentedKeys() {
        const auto r = runImmap({"simulate", "--topology", kTopo, "--policy", "split-locks",
                                 "--copies", "24", "--duration-ms", "20", "--walkers", "500",
                                 "--param", "mem_local_ns=60", "--json"});
        QCOMPARE(r.status, 0);
        const QJsonObject o = json(r.out);
        for (const char* key :
             {"policy", "copies", "execs_per_s", "locks", "walker_latency_mean_ns",
              "walker_latency_p99_ns", "memory_per_inode_bytes", "seed", "params"})
            QVERIFY2(o.contains(key), key);
        QCOMPARE(o["policy"].toString(), QString("split-locks"));
        QCOMPARE(o["copies"].toInt(), 24);
        QVERIFY(o["execs_per_s"].toDouble() > 0);
        QCOMPARE(o["params"].toObject()["mem_local_ns"].toDouble(), 60.0);
        // 4 files x 12 per-node locks.
        const QJsonArray locks = o["locks"].toArray();
        QCOMPARE(locks.size(), 48);
        for (const auto& l : locks) {
            const QJsonObject lo = l.toObject();
            for (const char* key : {"name", "utilisation", "arrivals_per_s", "queue_mean",
                                    "wait_mean_ns", "wait_p50_ns", "wait_p99_ns"})
                QVERIFY2(lo.contains(key), key);
        }
        // v2 at 12 nodes: 12 x 64 B + 13 x 8 B.
        QCOMPARE(o["memory_per_inode_bytes"].toInt(), 12 * 64 + 13 * 8);
    }

    void sameSeedSameOutputAcrossProcesses() {
        const QStringList args{"simulate", "--topology", kTopo, "--copies",  "64",  "--duration-ms",
                               "10",       "--seed",     "42",  "--walkers", "100", "--json"};
        const auto a = runImmap(args);
        const auto b = runImmap(args);
        QCOMPARE(a.status, 0);
        QCOMPARE(a.out, b.out);
    }

    // Integers are decimal in every command, as sweep and scenarios read them: "010" is 10, not
    // octal 8, and "0x10" is refused.
    void seedIsDecimal() {
        auto run = [](const char* seed) {
            return runImmap({"simulate", "--topology", kTopo, "--copies", "8", "--duration-ms", "2",
                             "--seed", seed, "--json"});
        };
        const auto padded = run("010"), ten = run("10"), eight = run("8");
        QCOMPARE(padded.status, 0);
        QCOMPARE(padded.out, ten.out);
        QVERIFY(padded.out != eight.out);
        QCOMPARE(run("0x10").status, 2);
    }

    void badArgumentsExitTwo() {
        const QList<QStringList> cases{
            {"simulate", "--policy", "split-forest"},
            {"simulate", "--copies", "0"},
            {"simulate", "--copies", "many"},
            {"simulate", "--duration-ms", "-5"},
            {"simulate", "--param", "no_such_param=3"},
            {"simulate", "--param", "mem_local_ns=fast"},
            {"simulate", "--topology", "synthetic:nonsense:3"},
            {"simulate", "stray"},
            {"sweep", "--policies", "single,bogus"},
            {"sweep", "--copies", "1,x"},
            {"sweep", "--bands", "many"},
            {"sweep", "--bands", "1001"},
            {"validate", "--bands", "-1"},
            {"validate", "--seeds", "0"},
            {"validate", "--param", "mem_local_ns=fast"},
            {"validate", "stray"},
        };
        for (const QStringList& c : cases) {
            const auto r = runImmap(c);
            QVERIFY2(r.status == 2, qPrintable(c.join(' ') + " -> " + QString::number(r.status)));
            QVERIFY2(!r.err.isEmpty(), qPrintable(c.join(' ')));
        }
    }

    void badRecipeNamesFileAndLine() {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "{\"format\": \"immap-recipe\", \"version\": 1,\n\"files\": [{\"name\": \"a\"}],\n"
            "\"steps\": [\n{\"op\": \"work\", \"weight\": 1},\n{\"op\": \"mmap\", \"file\": "
            "\"a\"}\n]}\n");
        f.close();
        const auto r = runImmap({"simulate", "--recipe", path});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.startsWith((path + ":5: missing \"at\"").toUtf8()), r.err.constData());
        const auto missing = runImmap({"simulate", "--recipe", dir.filePath("none.json")});
        QCOMPARE(missing.status, 2);
        QVERIFY(missing.err.contains("none.json"));
    }

    // Issue 47 point 2: the hostile runs end. 1e6 walks/s (the top of the range) with a 1 ms
    // window never finished its warm-up; with warmup_max_ms at 20 ms it ends there and says
    // why. 1e7 and 1e8 are outside the range now (exit 2), in a scenario too (FILE:LINE).
    void saturatedRunsEndWithAVerdict() {
        const auto r =
            runImmap({"simulate", "--walkers", "1000000", "--copies", "2", "--duration-ms", "1",
                      "--topology", "synthetic:pu:2", "--param", "warmup_max_ms=20"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.contains("after 20.0 ms warm-up"), r.out.constData());
        QVERIFY2(r.out.contains("  the walkers saturate libc.so.6: 1000000 walks/s x"),
                 r.out.constData());
        for (const char* rate : {"1e7", "100000000"}) {
            const auto bad = runImmap({"simulate", "--walkers", rate, "--copies", "2",
                                       "--duration-ms", "1", "--topology", "synthetic:pu:2"});
            QCOMPARE(bad.status, 2);
            QVERIFY2(bad.err.contains("--walkers must be from 0 to 1000000 per s"),
                     bad.err.constData());
        }
        QTemporaryDir dir;
        const QString path = dir.filePath("walkers.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "{\n  \"version\": 1,\n  \"topology\": \"synthetic:pu:2\",\n"
            "  \"walkersPerSecond\": 10000000\n}\n");
        f.close();
        for (const char* cmd : {"simulate", "sweep"}) {
            const auto s = runImmap({cmd, "--scenario", path});
            QCOMPARE(s.status, 2);
            QVERIFY2(s.err.contains((path + ":4:").toUtf8()), s.err.constData());
        }
    }

    // Without walkers (--walkers 0): one slice, policies outer, copies inner.
    void sweepJsonAndCsv() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("sweep.csv");
        const auto r =
            runImmap({"sweep", "--topology", kTopo, "--policies", "single,split-trees", "--copies",
                      "1,16", "--duration-ms", "10", "--walkers", "0", "--json", "--csv", csv});
        QCOMPARE(r.status, 0);
        const QJsonArray runs = json(r.out)["runs"].toArray();
        QCOMPARE(runs.size(), 4);
        QCOMPARE(runs[0].toObject()["policy"].toString(), QString("single"));
        QCOMPARE(runs[3].toObject()["copies"].toInt(), 16);
        QCOMPARE(runs[0].toObject()["speedup_vs_single"].toDouble(), 1.0);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        QVERIFY(lines[0].startsWith("policy,copies,execs_per_s"));
        QVERIFY(lines[4].startsWith("split-trees,16,"));
    }

    // A banded sweep: every ratio the text prints carries its band, and the band is the one the
    // JSON's draws give; the sensitivity table names parameters of the table.
    void sweepPrintsBands() {
        const QStringList grid = {"sweep",
                                  "--topology",
                                  kTopo,
                                  "--policies",
                                  "single,split-locks",
                                  "--copies",
                                  "2,32",
                                  "--duration-ms",
                                  "5",
                                  "--seeds",
                                  "1",
                                  "--walkers",
                                  "0",
                                  "--bands",
                                  "10"};
        const auto text = runImmap(grid);
        QCOMPARE(text.status, 0);
        const auto j = runImmap(grid + QStringList{"--json"});
        QCOMPARE(j.status, 0);
        const QJsonObject split = json(j.out)["runs"].toArray()[3].toObject();
        QCOMPARE(split["policy"].toString(), QString("split-locks"));
        QCOMPARE(split["execs_per_s_draws"].toArray().size(), 10);
        const QJsonObject band = split["speedup_band"].toObject();
        // The band by hand from the draws: each draw's ratio within its own set, then type-7
        // quantiles of 10 sorted values (p10 at rank 0.9, the median at 4.5, p90 at 8.1).
        const QJsonObject single = json(j.out)["runs"].toArray()[1].toObject();
        QCOMPARE(single["policy"].toString(), QString("single"));
        QCOMPARE(single["copies"].toInt(), 32);
        std::vector<double> r;
        for (int d = 0; d < 10; ++d)
            r.push_back(split["execs_per_s_draws"].toArray()[d].toDouble() /
                        single["execs_per_s_draws"].toArray()[d].toDouble());
        std::sort(r.begin(), r.end());
        QVERIFY(std::abs(band["p10"].toDouble() - (r[0] + 0.9 * (r[1] - r[0]))) < 1e-9);
        QVERIFY(std::abs(band["median"].toDouble() - (r[4] + r[5]) / 2) < 1e-9);
        QVERIFY(std::abs(band["p90"].toDouble() - (r[8] + 0.1 * (r[9] - r[8]))) < 1e-9);
        const QRegularExpression line(
            "split-locks/single at 32: ([0-9.]+)x \\[([0-9.]+), ([0-9.]+)\\], median ([0-9.]+)x");
        const auto m = line.match(QString::fromUtf8(text.out));
        QVERIFY2(m.hasMatch(), text.out.constData());
        QVERIFY(std::abs(m.captured(2).toDouble() - band["p10"].toDouble()) < 0.006);
        QVERIFY(std::abs(m.captured(3).toDouble() - band["p90"].toDouble()) < 0.006);
        QVERIFY(text.out.contains("What moves each ratio most"));
        // 1.96 / sqrt(9): what chance alone exceeds one time in 20 over 10 sets.
        QVERIFY2(text.out.contains("where chance alone gives |rho| above 0.65 one time in 20"),
                 text.out.constData());
        const auto rows = QRegularExpression("\\n    ([a-z0-9_]+) +rho [+-][0-9.]+ ")
                              .globalMatch(QString::fromUtf8(text.out));
        int ranked = 0;
        const QByteArray params = runImmap({"simulate", "--list-params"}).out;
        for (auto it = rows; it.hasNext(); ++ranked)
            QVERIFY(params.contains(it.next().captured(1).toUtf8()));
        QCOMPARE(ranked, 6);
    }

    // Below Sensitivity::kMinSets sets no sensitivity table, and the text says why (issue 47,
    // point 7): --bands 1 printed "rho +0.00 0.00x / 1.02x" (an empty half's median), --bands 2
    // every parameter at rho +-1.00.
    void sweepBelowTheMinimumHasNoTable() {
        for (const char* n : {"1", "2", "9"}) {
            const auto r = runImmap({"sweep", "--topology", kTopo, "--policies",
                                     "single,split-locks", "--copies", "2", "--duration-ms", "5",
                                     "--seeds", "1", "--walkers", "0", "--bands", n});
            QCOMPARE(r.status, 0);
            QVERIFY2(!r.out.contains("rho"), r.out.constData());
            QVERIFY2(!r.out.contains("0.00x"), r.out.constData());
            QVERIFY2(r.out.contains(QByteArray("No table of what moves each ratio: a rank "
                                               "correlation takes at least 10 parameter sets to "
                                               "mean anything, and this sweep drew ") +
                                    n),
                     r.out.constData());
            // The band line is still there.
            QVERIFY(r.out.contains("split-locks/single at 2:"));
        }
        QVERIFY(runImmap({"sweep", "--help"}).out.contains("needs N of at least 10"));
    }

    // The scorecard's JSON on a small band: every observation, valid JSON, exit 0.
    void validateJson() {
        QTemporaryDir dir;
        const QString out = dir.filePath("score.json");
        const auto r =
            runImmap({"validate", "--bands", "1", "--seeds", "1", "--json", "--output", out});
        QCOMPARE(r.status, 0);
        const QJsonObject o = json(r.out);
        QCOMPARE(o["format"].toString(), QString("immap-scorecard"));
        QVERIFY(o["observations"].toArray().size() >= 9);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), r.out);
        // stderr: a line per row as it finished, "rows: k/N" counting up; a modelled row
        // printed while runs were still to come ("runs: a/b", a < b) was printed before the
        // end. The last line has every run done.
        const QList<QByteArray> rows = r.err.trimmed().split('\n');
        QCOMPARE(rows.size(), o["observations"].toArray().size());
        const QRegularExpression line(QStringLiteral(
            "^immap validate: rows: (\\d+)/(\\d+) \u00b7 runs: (\\d+)/(\\d+).*: \\| .* \\|$"));
        bool early = false;
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const auto m = line.match(QString::fromUtf8(rows[i]));
            QVERIFY2(m.hasMatch(), rows[i].constData());
            QCOMPARE(m.captured(1).toInt(), i + 1);
            QCOMPARE(m.captured(2).toInt(), rows.size());
            const int done = m.captured(3).toInt(), runs = m.captured(4).toInt();
            early = early || (done > 0 && done < runs);
            if (i + 1 == rows.size()) QCOMPARE(done, runs);
        }
        QVERIFY2(early, r.err.constData());
    }

    // --bake writes every run of the scenario's sweep into it: each point's 3 seeds whole and
    // its parameter draws as a rate, whether the runs went through the disk cache or not.
    void bakeCarriesEveryRunOfTheSweep() {
        QTemporaryDir dir;
        const QString scenario = dir.filePath("talk.json");
        const QByteArray text = R"({"version": 1, "title": "bake",
            "topology": "synthetic:package:1 numa:2 core:2 pu:1",
            "policies": ["single", "split-locks"], "copies": [1, 2], "durationMs": 1,
            "walkersPerSecond": 0, "walkersSideBySide": false, "bands": 2})";
        QByteArray baked[2];
        for (int disk = 0; disk < 2; ++disk) {
            QFile f(scenario);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
            f.close();
            const QString csv = dir.filePath("points.csv");
            const QStringList args{"sweep", "--scenario", scenario, "--bake", "--csv", csv};
            const auto r =
                disk ? runImmap(args, {},
                                {"IMMAP_NO_CACHE=0", "IMMAP_CACHE_DIR=" + dir.filePath("runs")})
                     : runImmap(args + QStringList{"--no-cache"});
            QVERIFY2(r.status == 0, r.err.constData());
            QFile points(csv);
            QVERIFY(points.open(QIODevice::ReadOnly));
            const qsizetype rows = points.readAll().trimmed().split('\n').size() - 1;
            QCOMPARE(rows, 4);  // 2 policies x 2 copy counts, one walker rate
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QJsonArray results = json(f.readAll())["results"].toArray();
            qsizetype whole = 0, rates = 0;
            for (const QJsonValue& e : results)
                (e.toObject().contains("zlib") ? whole : rates) += 1;
            QCOMPARE(whole, rows * 3);
            QCOMPARE(rates, rows * 2);
            baked[disk] = QJsonDocument(results).toJson();
        }
        QCOMPARE(baked[1], baked[0]);
    }

    // Two processes filling one run cache at once (two shards, two windows on one machine)
    // agree with a run that uses no cache, and leave entries a third process is served whole:
    // its every run from the cache, its scorecard the same.
    void twoProcessesFillOneCache() {
        QTemporaryDir dir;
        const QStringList args{"validate", "--bands", "1", "--seeds", "1", "--json"};
        const auto plain = runImmap(args + QStringList{"--no-cache"});
        QCOMPARE(plain.status, 0);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("IMMAP_NO_CACHE", "0");
        env.insert("IMMAP_CACHE_DIR", dir.filePath("runs"));
        QProcess a, b;
        for (QProcess* p : {&a, &b}) {
            p->setProcessEnvironment(env);
            p->start(IMMAP_CLI, args);
        }
        for (QProcess* p : {&a, &b}) {
            QVERIFY(p->waitForFinished(300000));
            QCOMPARE(p->exitCode(), 0);
            QCOMPARE(p->readAllStandardOutput(), plain.out);
        }
        const QStringList entries = QDir(dir.filePath("runs")).entryList({"*.run"}, QDir::Files);
        QVERIFY(!entries.isEmpty());
        // Without --json the last line says how many runs the cache served: all of them.
        const auto third =
            runImmap({"validate", "--bands", "1", "--seeds", "1"}, {},
                     {"IMMAP_NO_CACHE=0", "IMMAP_CACHE_DIR=" + dir.filePath("runs")});
        QCOMPARE(third.status, 0);
        const QRegularExpression served(
            QStringLiteral("(\\d+) runs .* \\((\\d+) of them from the run cache\\)"));
        const auto m = served.match(QString::fromUtf8(third.out));
        QVERIFY2(m.hasMatch(), third.out.right(300).constData());
        QCOMPARE(m.captured(2), m.captured(1));
        QCOMPARE(QDir(dir.filePath("runs")).entryList({"*.run"}, QDir::Files), entries);
    }

    // By default each point runs without walkers and at the default rate (SimSettings): the
    // walker-free slice first; each speedup over single at the same copies and rate, checked
    // against the printed execs/s; the CSV's last column is the rate. --no-side-by-side runs
    // the rate alone.
    void sweepShowsWalkersSideBySide() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("sweep.csv");
        const QStringList grid = {
            "sweep",    "--topology", kTopo,           "--policies", "single,split-locks",
            "--copies", "1,64",       "--duration-ms", "5",          "--seeds",
            "1"};
        const auto r = runImmap(grid + QStringList{"--walkers", "1000", "--json", "--csv", csv});
        QCOMPARE(r.status, 0);
        const QJsonArray runs = json(r.out)["runs"].toArray();
        QCOMPARE(runs.size(), 8);
        std::map<std::pair<int, double>, double> single;  // (copies, rate) -> execs/s
        for (qsizetype i = 0; i < runs.size(); ++i) {
            const QJsonObject o = runs[i].toObject();
            QCOMPARE(o["walkers_per_s"].toDouble(), i < 4 ? 0.0 : 1000.0);
            QCOMPARE(o["policy"].toString(), QString(i % 4 < 2 ? "single" : "split-locks"));
            QCOMPARE(o["copies"].toInt(), i % 2 ? 64 : 1);
            QCOMPARE(o["walks"].toDouble() > 0, i >= 4);
            if (i % 4 < 2)
                single[{o["copies"].toInt(), o["walkers_per_s"].toDouble()}] =
                    o["execs_per_s"].toDouble();
        }
        for (const QJsonValue v : runs) {
            const QJsonObject o = v.toObject();
            const double want = o["execs_per_s"].toDouble() /
                                single.at({o["copies"].toInt(), o["walkers_per_s"].toDouble()});
            QVERIFY(std::abs(o["speedup_vs_single"].toDouble() - want) <= 1e-12 * want);
        }
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 9);
        QVERIFY(lines[0].endsWith(",walkers_per_s"));
        QVERIFY(lines[1].startsWith("single,1,") && lines[1].endsWith(",0"));
        QVERIFY(lines[8].startsWith("split-locks,64,") && lines[8].endsWith(",1000"));

        // The text table says the rate, the walk latency and the trylock walks that gave up of
        // each line (no walkers: "-" for both).
        const auto text = runImmap(grid + QStringList{"--walkers", "1000"});
        QCOMPARE(text.status, 0);
        const QList<QByteArray> rows = text.out.trimmed().split('\n');
        QCOMPARE(rows.size(), 9);
        QVERIFY2(rows[0].contains("walks/s") && rows[0].contains("walk mean") &&
                     rows[0].contains("gave up"),
                 rows[0].data());
        static const QRegularExpression walked(" 1,000 .* \\d[\\d.,]* (µs|ms) +\\d+% of \\d+$");
        QVERIFY2(walked.match(QString::fromUtf8(rows[8])).hasMatch(), rows[8].data());
        QVERIFY2(rows[1].simplified().endsWith(" - -"), rows[1].data());

        const auto alone =
            runImmap(grid + QStringList{"--walkers", "1000", "--no-side-by-side", "--json"});
        QCOMPARE(alone.status, 0);
        const QJsonArray only = json(alone.out)["runs"].toArray();
        QCOMPARE(only.size(), 4);
        for (const QJsonValue v : only)
            QCOMPARE(v.toObject()["walkers_per_s"].toDouble(), 1000.0);
        // And with no --walkers at all, the default rate beside none.
        const auto byDefault = runImmap(grid + QStringList{"--json"});
        const QJsonArray both = json(byDefault.out)["runs"].toArray();
        QCOMPARE(both.size(), 8);
        QCOMPARE(both[0].toObject()["walkers_per_s"].toDouble(), 0.0);
        QVERIFY(both[7].toObject()["walkers_per_s"].toDouble() > 0);
    }

    void sweepPngRendersThePlot() {
        QTemporaryDir dir;
        const QString png = dir.filePath("sweep.png");
        const auto r = runImmap({"sweep", "--topology", kTopo, "--copies", "1,8", "--duration-ms",
                                 "5", "--png", png, "--size", "640x480"});
        QCOMPARE(r.status, 0);
        const QImage img(png);
        QCOMPARE(img.size(), QSize(640, 480));
        QCOMPARE(runImmap({"sweep", "--copies", "1", "--png", png, "--size", "big"}).status, 2);
    }

    // docs/sharding.md's GNU parallel line: three shards run by parallel, merged, give byte for
    // byte the CSV and JSON of one run of the whole grid. GNU parallel is one of the packages
    // scripts/setup.sh installs.
    void shardsRunByGnuParallelMergeIntoOneRun() {
        const QString parallel = QStandardPaths::findExecutable("parallel");
        QVERIFY2(!parallel.isEmpty(),
                 "GNU parallel is not installed (scripts/setup.sh installs it)");
        QTemporaryDir dir;
        // parallel runs in the temporary directory: the test's relative paths made absolute
        // (the outputs name the topology as given, so the one run takes the same).
        const QString topo = "xml:" + QFileInfo(kTopo.mid(4)).absoluteFilePath();
        const QStringList grid = {"sweep", "--topology",    topo, "--copies", "1,8,64", "--seeds",
                                  "2",     "--duration-ms", "2"};
        QVERIFY(runImmap(grid + QStringList{"--csv", dir.filePath("one.csv")}).status == 0);
        const auto one = runImmap(grid + QStringList{"--json"});
        QCOMPARE(one.status, 0);
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start(parallel,
                QStringList{"--halt", "now,fail=1", QFileInfo(IMMAP_CLI).absoluteFilePath()} +
                    grid +
                    QStringList{"--threads", "1", "--shard", "{}/3", "--part", "part{}.json",
                                ":::", "1", "2", "3"});
        QVERIFY(p.waitForFinished(300'000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 p.readAllStandardError().constData());
        const QStringList parts = {dir.filePath("part2.json"), dir.filePath("part3.json"),
                                   dir.filePath("part1.json")};
        QCOMPARE(runImmap(QStringList{"sweep", "merge"} + parts +
                          QStringList{"-o", dir.filePath("merged.csv")})
                     .status,
                 0);
        QCOMPARE(runImmap(QStringList{"sweep", "merge"} + parts +
                          QStringList{"-o", dir.filePath("merged.json")})
                     .status,
                 0);
        auto slurp = [&](const QString& name) {
            QFile f(dir.filePath(name));
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
        };
        QCOMPARE(slurp("merged.csv"), slurp("one.csv"));
        QCOMPARE(slurp("merged.json"), one.out);
        // Two parts of three: exit 2, naming what is missing.
        const auto cut =
            runImmap({"sweep", "merge", parts[0], parts[1], "-o", dir.filePath("cut.csv")});
        QCOMPARE(cut.status, 2);
        QVERIFY2(cut.err.contains("shard 1 of 3 is missing"), cut.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("cut.csv")));
    }

    // Shards whose recipe file or machine file was edited between them (same paths, same
    // specs): the merge exits 2 naming both parts and what differs, and writes nothing. Before,
    // such parts merged silently into a chimera.
    void mergeRefusesShardsOfAChangedRecipeOrMachine() {
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(text), text.size());
        };
        QFile recipe(QString(IMMAP_SAMPLES) + "/recipes/execl-glibc236.json");
        QVERIFY(recipe.open(QIODevice::ReadOnly));
        const QByteArray recipeText = recipe.readAll();
        const auto machine =
            runImmap({"topology", "show", "synthetic:package:2 numa:1 core:2 pu:1", "--xml"});
        QCOMPARE(machine.status, 0);
        write("recipe.json", recipeText);
        write("machine.xml", machine.out);
        const QStringList grid = {"sweep",
                                  "--topology",
                                  "xml:" + dir.filePath("machine.xml"),
                                  "--recipe",
                                  dir.filePath("recipe.json"),
                                  "--copies",
                                  "1,2",
                                  "--duration-ms",
                                  "1",
                                  "--seeds",
                                  "1"};
        auto shard = [&](int k, const QString& part) {
            const auto r = runImmap(grid + QStringList{"--shard", QString("%1/2").arg(k), "--part",
                                                       dir.filePath(part)});
            QVERIFY2(r.status == 0, r.err.constData());
        };
        shard(1, "a1.json");
        shard(2, "a2.json");
        const QString out = dir.filePath("merged.csv");
        QCOMPARE(runImmap({"sweep", "merge", dir.filePath("a1.json"), dir.filePath("a2.json"), "-o",
                           out})
                     .status,
                 0);
        QFile::remove(out);
        struct Case {
            const char* file;
            QByteArray text;
            const char* differs;
        };
        QByteArray slower = recipeText;
        slower.replace("\"weight\": 70.4", "\"weight\": 170.4");
        QVERIFY(slower != recipeText);
        // Another machine under the same file name: the packages 40 apart instead of 12.
        const auto farther =
            runImmap({"topology", "show",
                      "synthetic:package:2 numa:1 core:2 pu:1;distances=10:12:40", "--xml"});
        QCOMPARE(farther.status, 0);
        const Case cases[] = {{"recipe.json", slower, "the recipe's contents differ"},
                              {"machine.xml", farther.out, "the machine as read differs"}};
        for (const Case& c : cases) {
            write("recipe.json", recipeText);
            write("machine.xml", machine.out);
            shard(1, "b1.json");
            write(c.file, c.text);  // edited between the shards
            shard(2, "b2.json");
            const auto r = runImmap(
                {"sweep", "merge", dir.filePath("b1.json"), dir.filePath("b2.json"), "-o", out});
            QCOMPARE(r.status, 2);
            const QRegularExpression want(QRegularExpression::escape(dir.filePath("b2.json")) +
                                          ":[0-9]+: is a part of another sweep than " +
                                          QRegularExpression::escape(dir.filePath("b1.json")) +
                                          ": " + c.differs);
            QVERIFY2(want.match(QString::fromUtf8(r.err)).hasMatch(), r.err.constData());
            QVERIFY(!QFile::exists(out));
        }
    }

    // Lists longer than a sweep takes: a scenario's copies, and a part whose grid would be
    // 1,000 policies x 10,000 copies (1.5 GB allocated before this check), each refused with
    // FILE:LINE: reason and exit 2.
    void gridListsLongerThanASweepTakes() {
        QTemporaryDir dir;
        QJsonArray copies;
        for (int i = 0; i < 2000; ++i)
            copies.append(1);
        const QString scenario = dir.filePath("s.json");
        QFile f(scenario);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{"version", 1}, {"copies", copies}}).toJson());
        f.close();
        const auto r = runImmap({"sweep", "--scenario", scenario, "--duration-ms", "1"});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains((scenario + ":2: \"copies\" lists 2000 entries; the \"copies\" "
                                            "list must be from 1 to 1024 entries")
                                    .toUtf8()),
                 r.err.constData());
        QJsonArray policies, many;
        for (int i = 0; i < 1000; ++i)
            policies.append("single");
        for (int i = 0; i < 10000; ++i)
            many.append(1);
        const QJsonObject part{{"format", "immap-sweep-part"},
                               {"version", 3},
                               {"shard", 1},
                               {"of", 1},
                               {"sweep", QJsonObject{{"walker_rates", QJsonArray{0}},
                                                     {"policies", policies},
                                                     {"copies", many}}},
                               {"points", QJsonArray{}}};
        const QString path = dir.filePath("part.json");
        QFile pf(path);
        QVERIFY(pf.open(QIODevice::WriteOnly));
        pf.write(QJsonDocument(part).toJson());
        pf.close();
        const auto m = runImmap({"sweep", "merge", path, "-o", dir.filePath("out.csv")});
        QCOMPARE(m.status, 2);
        QVERIFY2(QRegularExpression(QRegularExpression::escape(path) +
                                    ":[0-9]+: the sweep's grid is larger than a sweep runs")
                     .match(QString::fromUtf8(m.err))
                     .hasMatch(),
                 m.err.constData());
        const auto c = runImmap({"sweep", "--copies", QString("1,").repeated(1100) + "1"});
        QCOMPARE(c.status, 2);
        QVERIFY2(c.err.contains("--copies: it lists 1101 entries"), c.err.constData());
    }

    // docs/simulator.md's table lists every parameter with the code's default.
    void documentedParametersMatchTheCode() {
        QFile doc(QString(IMMAP_SOURCE_DIR) + "/docs/simulator.md");
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        const auto r = runImmap({"simulate", "--list-params"});
        QCOMPARE(r.status, 0);
        static const QRegularExpression line(R"(^(\w+) = (\S+) )",
                                             QRegularExpression::MultilineOption);
        int n = 0;
        for (auto it = line.globalMatch(QString::fromUtf8(r.out)); it.hasNext(); ++n) {
            const auto m = it.next();
            const QString row = QString("| `%1` |").arg(m.captured(1));
            const qsizetype at = text.indexOf(row);
            QVERIFY2(at >= 0, qPrintable(m.captured(1) + " is not in docs/simulator.md"));
            const QString rest = text.mid(at + row.size(), 80);
            QVERIFY2(rest.contains(" " + m.captured(2) + " "),
                     qPrintable(m.captured(1) + " default " + m.captured(2) + " not in: " + rest));
        }
        QVERIFY(n >= 10);
    }
};

IMMAP_TEST_SUITE(TestSimCli);
#include "TestSimCli.moc"
