// `immap bench` and `immap calibrate` as a user runs them. The benches are real wall-clock
// runs on whatever shares this machine, so they run briefly and only robust properties are
// checked: positive figures, N copies never above N times one copy (+10%), 32 holds per exec.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "CliRun.h"
#include "Suites.h"

using immap::test::json;
using immap::test::runImmap;

namespace {

bool writeFile(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

const QString kHostTopo = QString("xml:") + IMMAP_SAMPLES + "/topologies/host-2cpu.xml";

}  // namespace

class TestMeasureCli : public QObject {
    Q_OBJECT

private slots:
    void execlBenchReportsSelfConsistentRates() {
        const auto r = runImmap(
            {"bench", "execl", "--copies", "1,2", "--seconds", "0.4", "--repeat", "1", "--json"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject o = json(r.out);
        QCOMPARE(o["format"].toString(), QString("immap-measured"));
        QCOMPARE(o["version"].toInt(), 1);
        const QJsonArray pts = o["points"].toArray();
        QCOMPARE(pts.size(), 2);
        double one = pts[0].toObject()["execs_per_s"].toDouble();
        double two = pts[1].toObject()["execs_per_s"].toDouble();
        QVERIFY(one > 0 && two > 0);
        // On a shared machine the single copy can be measured in a busier moment than the pair:
        // the bound is a property of a steady machine, so a violation is measured again (up to
        // three times) before it counts.
        for (int retry = 0; retry < 3 && two > 2 * one * 1.1; ++retry) {
            const auto again = runImmap({"bench", "execl", "--copies", "1,2", "--seconds", "0.4",
                                         "--repeat", "1", "--json"});
            QVERIFY2(again.status == 0, again.err.constData());
            const QJsonArray p2 = json(again.out)["points"].toArray();
            one = p2[0].toObject()["execs_per_s"].toDouble();
            two = p2[1].toObject()["execs_per_s"].toDouble();
        }
        QVERIFY2(two <= 2 * one * 1.1, qPrintable(QString("%1 vs %2").arg(two).arg(one)));
        QCOMPARE(pts[1].toObject()["copies"].toInt(), 2);
        QCOMPARE(pts[1].toObject()["runs"].toArray().size(), 1);
    }

    void execlHelperFromTheEnvironment() {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("IMMAP_EXECL_HELPER", "/nonexistent/immap-execl");
        p.setProcessEnvironment(env);
        p.start(IMMAP_CLI, {"bench", "execl", "--seconds", "0.1", "--repeat", "1"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(p.readAllStandardError().contains("/nonexistent/immap-execl"));
    }

    void treeLocksBenchRunsTheRecipe() {
        const auto r = runImmap({"bench", "tree-locks", "--threads", "1,2", "--seconds", "0.3",
                                 "--work-ns", "5000", "--json"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject o = json(r.out);
        QCOMPARE(o["format"].toString(), QString("immap-tree-locks"));
        const QJsonArray runs = o["runs"].toArray();
        QCOMPARE(runs.size(), 2);
        double single = 0;
        for (const auto& v : runs) {
            const QJsonObject run = v.toObject();
            const double execs = run["execs"].toDouble();
            const double holds = run["holds"].toDouble();
            QVERIFY(execs > 0 && run["execs_per_s"].toDouble() > 0);
            // 33 holds per exec with exit batching (docs/recipe.md: 8 + 8 + 15 + 2); at most one
            // exec per thread is unfinished.
            QVERIFY(holds >= 33 * execs && holds < 33 * (execs + run["threads"].toDouble()));
            QVERIFY(run["wait_mean_ns"].toDouble() >= 0);
            QVERIFY(run["hold_mean_ns"].toDouble() > 0);
            if (run["threads"].toInt() == 1) single = run["execs_per_s"].toDouble();
            QVERIFY(run["execs_per_s"].toDouble() <= run["threads"].toDouble() * single * 1.1);
        }
    }

    void splitLocksSaysWhenThereIsOneNode() {
        const auto r = runImmap({"bench", "tree-locks", "--threads", "2", "--policy", "split-locks",
                                 "--seconds", "0.2", "--walkers", "200", "--json"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject run = json(r.out)["runs"].toArray()[0].toObject();
        QCOMPARE(run["policy"].toString(), QString("split-locks"));
        QCOMPARE(run["locks_per_file"].toInt(), run["nodes"].toInt());
        if (run["nodes"].toInt() == 1) QVERIFY(run["note"].toString().contains("one NUMA node"));
        QVERIFY(run["walks"].toDouble() > 0);
    }

    void calibrateThenSimulateWithTheFit() {
        QTemporaryDir dir;
        const QString measured = dir.filePath("m.json");
        const QString fit = dir.filePath("fit.json");
        QVERIFY(writeFile(measured, R"({"format": "immap-measured", "version": 1,
            "points": [{"copies": 1, "execs_per_s": 1500}]})"));
        const auto c = runImmap({"calibrate", "--measured", measured, "--topology", kHostTopo,
                                 "--duration-ms", "200", "--output", fit});
        QVERIFY2(c.status == 0, c.err.constData());
        QVERIFY(c.out.contains("unlocked_ns_per_exec"));
        // Without walkers, as the fit was made (immap simulate's default rate is not 0).
        const auto s = runImmap({"simulate", "--topology", kHostTopo, "--fit", fit, "--duration-ms",
                                 "200", "--walkers", "0", "--json"});
        QVERIFY2(s.status == 0, s.err.constData());
        const double rate = json(s.out)["execs_per_s"].toDouble();
        QVERIFY2(std::abs(rate / 1500 - 1) < 0.02, qPrintable(QString::number(rate)));
        // --param beside --fit wins.
        const auto p = runImmap({"simulate", "--topology", kHostTopo, "--fit", fit, "--param",
                                 "unlocked_ns_per_exec=1000000", "--json"});
        QCOMPARE(json(p.out)["params"].toObject()["unlocked_ns_per_exec"].toDouble(), 1e6);
    }

    void badArgumentsExitTwo() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.json");
        QVERIFY(writeFile(bad, R"({"format": "something-else", "version": 1})"));
        const QString dup = dir.filePath("dup.json");
        QVERIFY(writeFile(dup, R"({"format": "immap-measured", "version": 1, "points": [
            {"copies": 1, "execs_per_s": 10}, {"copies": 1, "execs_per_s": 12}]})"));
        const QList<QStringList> cases{
            {"bench"},
            {"bench", "fork"},
            {"bench", "execl", "--copies", "0"},
            {"bench", "execl", "--copies", "one"},
            {"bench", "execl", "--seconds", "-1"},
            {"bench", "execl", "--repeat", "0"},
            {"bench", "execl", "stray"},
            {"bench", "tree-locks", "--policy", "sharded:2"},
            {"bench", "tree-locks", "--threads", "0"},
            {"bench", "tree-locks", "--work-ns", "-5"},
            {"bench", "tree-locks", "--walkers", "lots"},
            {"calibrate"},
            {"calibrate", "--measured", dir.filePath("missing.json")},
            {"calibrate", "--measured", bad},
            {"calibrate", "--measured", dup},
            {"calibrate", "--measured", dup, "--duration-ms", "0"},
            {"simulate", "--fit", dir.filePath("missing.json")},
            {"simulate", "--fit", bad},
        };
        for (const QStringList& args : cases) {
            const auto r = runImmap(args);
            QVERIFY2(r.status == 2,
                     qPrintable(args.join(' ') + " -> " + QString::number(r.status)));
            QVERIFY2(!r.err.isEmpty(), qPrintable(args.join(' ')));
        }
        // The message names the file and the reason.
        const auto r = runImmap({"calibrate", "--measured", dup});
        QVERIFY(r.err.contains(dup.toUtf8()) && r.err.contains("twice"));
    }
};

IMMAP_TEST_SUITE(TestMeasureCli);
#include "TestMeasureCli.moc"
