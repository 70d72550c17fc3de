// The window's throughput tab: Run sweeps the loaded topology in the background (the window
// keeps processing events), the plot then holds exactly what core/sim's Sweep gives for the
// same grid, by default each policy without walkers and at the default rate side by side (the
// walker fields feed the sweep), the summary line gives both with the walk latency, Cancel stops
// a sweep, bad lists give a dialog, and --screenshot --view throughput renders the plot.
#include <qcustomplot.h>
#include <QElapsedTimer>
#include <QImage>
#include <QMessageBox>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLocale>
#include <cmath>
#include <set>

#include "MainWindow.h"
#include "Suites.h"
#include "ThroughputPage.h"
#include "sim/Band.h"
#include "sim/Sweep.h"

using namespace immap;

class TestThroughputTab : public QObject {
    Q_OBJECT

private slots:
    void runShowsTheSweep() {
        gui::MainWindow w(false);
        w.setHeadless(false);
        w.loadDefault();
        QVERIFY(w.setView("throughput"));
        w.sweepControls()->setPolicies("single,split-locks");
        w.sweepControls()->setCopies("1,16,64");
        w.sweepControls()->setDurationMs(10);
        // A window starts with bands; 2 sets keep the test short.
        QCOMPARE(w.sweepControls()->bands(), int(session::SimSettings::kAppBands));
        w.sweepControls()->setBands(2);
        // No dead air: the empty plot says what to do, then how far the sweep is.
        QCOMPARE(w.throughputView()->overlay(), gui::ThroughputPage::idleOverlay());
        QSignalSpy done(w.sweeps(), &SweepController::finished);
        QSignalSpy progress(w.sweeps(), &SweepController::progress);
        QTest::mouseClick(w.sweepControls()->runButton(), Qt::LeftButton);
        QVERIFY(w.sweeps()->running());
        QVERIFY(!w.sweepControls()->runButton()->isEnabled());
        QVERIFY(w.sweepControls()->cancelButton()->isEnabled());
        QVERIFY(done.wait(60000));
        // 6 points without walkers and 6 with them, each over the session's seeds (3) and the 2
        // parameter sets: one progress step per run.
        QCOMPARE(w.session().settings().bands, 2u);
        const int runsDone = 12 * static_cast<int>(w.session().settings().seeds + 2);
        QCOMPARE(runsDone, 60);
        QCOMPARE(progress.count(), runsDone);
        QCOMPARE(w.sweepControls()->progress()->value(), runsDone);
        QCOMPARE(w.sweepControls()->progress()->maximum(), runsDone);
        QVERIFY(w.throughputView()->overlay().isEmpty());
        QVERIFY(w.sweepControls()->runButton()->isEnabled());

        // The same grid straight from core/sim, without walkers and at the default rate.
        const double rate = session::SimSettings::kDefaultWalkersPerSecond;
        QCOMPARE(w.sweepControls()->walkersPerSecond(), rate);
        QVERIFY(w.sweepControls()->sideBySide());
        sim::SweepConfig c;
        std::string error;
        QVERIFY(sim::Sweep::parsePolicies("single,split-locks", c.policies, error));
        QVERIFY(sim::Sweep::parseCopies("1,16,64", c.copies, error));
        c.run.topology = w.session().host().topology.get();
        c.run.durationMs = 10;
        c.seeds = 3;
        c.walkerRates = {0, rate};
        c.bands = 2;
        const auto runs = sim::Sweep::run(c);
        QCOMPARE(runs.size(), std::size_t{12});
        for (const sim::SimResult& r : runs) {
            QCPGraph* g = w.throughputView()->throughputGraph(QString::fromStdString(r.policy),
                                                              r.walkersPerSecond);
            QVERIFY(g);
            bool found = false;
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                if (it->key == r.copies) found = it->value == r.execsPerSecond;
            QVERIFY2(found, r.policy.c_str());
            // The band shaded around the walker-free curve is that run's over its 2 draws.
            if (r.walkersPerSecond > 0) continue;
            const auto [low, high] =
                w.throughputView()->throughputBand(QString::fromStdString(r.policy));
            QVERIFY(low && high);
            const sim::Band b = sim::Band::of(r.bandRates);
            bool banded = false;
            for (int i = 0; i < low->data()->size(); ++i)
                if (low->data()->at(i)->key == r.copies)
                    banded =
                        low->data()->at(i)->value == b.p10 && high->data()->at(i)->value == b.p90;
            QVERIFY2(banded, r.policy.c_str());
        }
        QCOMPARE(w.throughputView()->throughputGraph("split-locks", rate)->pen().style(),
                 Qt::DashLine);
        QVERIFY(w.throughputView()->claimsShown());  // the default machine has 384 PUs
        // The summary: at 64 copies, each policy without walkers and with them, and the walk.
        const QString summary = w.throughputPage()->summary()->text();
        for (const sim::SimResult& r : runs)
            if (r.copies == 64) {
                const QString execs = QLocale().toString(r.execsPerSecond, 'f', 0);
                QVERIFY2(summary.contains(execs), qPrintable(execs + " not in: " + summary));
            }
        // The topology's heat: the first policy's biggest walker-free run, with a chip per
        // policy; the second chip shows split-locks' run, the CPUs' wait shares from core/sim.
        views::TopologyView* topo = w.topologyView();
        QVERIFY(topo->hasHeat());
        QVERIFY2(topo->heatText().contains(QStringLiteral("single at 64 copies")),
                 qPrintable(topo->heatText()));
        QVERIFY(!topo->heatChip(1).isEmpty() && topo->heatChip(2).isEmpty());
        QVERIFY(w.setView("topology"));
        QTest::mouseClick(topo, Qt::LeftButton, {}, topo->heatChip(1).center().toPoint());
        QVERIFY2(topo->heatText().contains(QStringLiteral("split-locks at 64 copies")),
                 qPrintable(topo->heatText()));
        // A new scenario's page starts clean: no curve of the old sweep, no heat.
        w.throughputPage()->reset();
        QVERIFY(!topo->hasHeat());
        QVERIFY(topo->heatChip(0).isEmpty());
        QVERIFY(w.throughputView()->runs().empty());
        QCOMPARE(w.throughputView()->overlay(), gui::ThroughputPage::idleOverlay());
    }

    // Curves stream in: points are drawn before the sweep ends, the first seeds of every point
    // before any band's draws, with a progress line under the plot; the picture at the end is
    // the complete sweep's (runShowsTheSweep checks it against core/sim).
    void curvesStreamIn() {
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.setView("throughput"));
        w.sweepControls()->setPolicies("single,split-locks");
        w.sweepControls()->setCopies("1,16,64");
        w.sweepControls()->setDurationMs(10);
        w.sweepControls()->setBands(2);
        QSignalSpy done(w.sweeps(), &SweepController::finished);
        std::vector<sim::SweepUpdate> updates;
        connect(w.sweeps(), &SweepController::pointDone, this, [&](const sim::SweepUpdate& u) {
            QVERIFY(done.isEmpty());
            updates.push_back(u);
        });
        QVERIFY(w.throughputPage()->startSweep());
        QTRY_VERIFY_WITH_TIMEOUT(!w.throughputView()->runs().empty() || !done.isEmpty(), 60000);
        QVERIFY2(done.isEmpty(), "nothing drawn before the sweep ended");
        QVERIFY(w.throughputView()->overlay().isEmpty());  // no card over the curves
        const QString note = w.throughputPage()->summary()->text();
        QVERIFY2(note.startsWith(QStringLiteral("Sweep running: curves: ")), qPrintable(note));
        QVERIFY(w.sweepControls()->message().startsWith(QStringLiteral("curves: ")));
        QVERIFY(done.wait(60000));
        // 12 points x (3 seeds + 2 draws): an update per run once its first seed is in.
        QVERIFY(updates.size() >= 12 && updates.size() <= 60);
        // Phase order: when the first draw comes in, every point is drawn but those whose first
        // seed is still in flight on the other threads.
        const std::size_t others = sim::ParallelRuns::defaultThreads() - 1;
        std::set<std::size_t> drawn;
        for (const sim::SweepUpdate& u : updates) {
            if (u.drawsDone > 0) {
                QVERIFY2(drawn.size() + others >= 12, qPrintable(QString::number(drawn.size())));
                break;
            }
            drawn.insert(u.index);
        }
        QCOMPARE(w.throughputView()->runs().size(), std::size_t{12});
        for (const sim::SimResult& r : w.throughputView()->runs()) {
            QCOMPARE(r.seedRates.size(), std::size_t{3});
            QCOMPARE(r.bandRates.size(), std::size_t{2});
        }
        QVERIFY(!w.throughputPage()->summary()->text().contains(QStringLiteral("Sweep running")));
    }

    // The walker fields feed the sweep: 0 walks/s runs one slice, without walkers.
    void walkerFieldsFeedTheSweep() {
        gui::MainWindow w(false);
        w.loadDefault();
        w.sweepControls()->setPolicies("single");
        w.sweepControls()->setCopies("1");
        w.sweepControls()->setDurationMs(5);
        w.sweepControls()->walkersField()->setValue(0);
        QCOMPARE(w.session().settings().walkersPerSecond, 0.0);
        QSignalSpy done(w.sweeps(), &SweepController::finished);
        QVERIFY(w.startSweep());
        QVERIFY(done.wait(60000));
        QCOMPARE(w.session().sweepResults().size(), std::size_t{1});
        QCOMPARE(w.session().sweepResults()[0].walkersPerSecond, 0.0);
        // 500 walks/s alone: one slice, with walkers.
        w.sweepControls()->walkersField()->setValue(500);
        w.sweepControls()->sideBySideBox()->setChecked(false);
        QVERIFY(w.startSweep());
        QVERIFY(done.wait(60000));
        QCOMPARE(w.session().sweepResults().size(), std::size_t{1});
        QCOMPARE(w.session().sweepResults()[0].walkersPerSecond, 500.0);
        QVERIFY(w.throughputView()->throughputGraph("single", 500));
        QVERIFY(!w.throughputView()->throughputGraph("single"));
    }

    // The summary of a side-by-side sweep, from hand-made runs: the rate and each policy's
    // memory per inode first, then the largest copy count, then the smallest, each policy's
    // execs/s without / with walkers and its walks' mean latency.
    void summaryGivesEachPolicyWithAndWithoutWalkers() {
        auto run = [](const char* policy, unsigned copies, double walkers, double execs,
                      double walkNs, std::uint64_t bytes) {
            sim::SimResult r;
            r.policy = policy;
            r.copies = copies;
            r.walkersPerSecond = walkers;
            r.execsPerSecond = execs;
            r.walkerLatencyMeanNs = walkNs;
            r.walks = walkers > 0 && walkNs > 0 ? 20 : 0;
            r.memoryPerInodeBytes = bytes;
            r.seedRates = {execs - 10, execs, execs + 10};
            return r;
        };
        const std::vector<sim::SimResult> runs = {
            run("single", 1, 0, 1105, 0, 0),
            run("single", 384, 0, 16955, 0, 0),
            run("split-locks", 1, 0, 1104, 0, 872),
            run("split-locks", 384, 0, 408717, 0, 872),
            run("single", 1, 100, 1100, 71'000, 0),
            run("single", 384, 100, 16035, 2'008'000, 0),
            run("split-locks", 1, 100, 1099, 73'800, 872),
            run("split-locks", 384, 100, 349056, 0, 872),  // no walk completed
        };
        const QString text = gui::ThroughputPage::summarise(runs);
        const QStringList lines = text.split('\n');
        QVERIFY2(lines.size() == 4, qPrintable(text));
        const QLocale loc;
        const auto n = [&](double v) { return loc.toString(v, 'f', 0); };
        QCOMPARE(lines[0], QString("Without / with 100 whole-file walks/s (memory per inode: "
                                   "single 0 B · split-locks 872 B):"));
        QCOMPARE(lines[1],
                 QString("384 copies: single %1 / %2 execs/s, walk %3 µs · split-locks "
                         "%4 / %5 execs/s, walk (none completed)")
                     .arg(n(16955), n(16035), loc.toString(2008.0, 'f', 1), n(408717), n(349056)));
        QCOMPARE(lines[2], QString("1 copy: single %1 / %2 execs/s, walk %3 µs · split-locks %4 / "
                                   "%5 execs/s, walk %6 µs")
                               .arg(n(1105), n(1100), loc.toString(71.0, 'f', 1), n(1104), n(1099),
                                    loc.toString(73.8, 'f', 1)));
        QCOMPARE(lines[3], gui::ThroughputPage::scopeNote());

        // With bands: a line of each policy over single at 384 copies without walkers, the
        // point and the 10-90% band of the draws' own ratios (3 draws: 2, 4, 3 -> p10 2.2,
        // p90 3.8 by linear interpolation).
        std::vector<sim::SimResult> banded = runs;
        for (sim::SimResult& r : banded)
            r.bandRates = r.policy == "single" ? std::vector<double>{100, 100, 100}
                                               : std::vector<double>{200, 400, 300};
        const QStringList withBands = gui::ThroughputPage::summarise(banded).split('\n');
        QVERIFY2(withBands.size() == 5, qPrintable(withBands.join('\n')));
        QCOMPARE(withBands[3], QString("At 384 copies, the point at the default parameters and "
                                       "[the 10-90% band over 3 parameter sets]: "
                                       "split-locks/single %1x [2.20, 3.80]")
                                   .arg(408717.0 / 16955, 0, 'f', 2));
        // On a slide: the heading line, the ratios, the scope in one line; the per-copies
        // figures are the plot's to show.
        const QStringList slide = gui::ThroughputPage::summarise(banded, true).split('\n');
        QCOMPARE(slide.size(), 3);
        QCOMPARE(slide[0], withBands[0]);
        QCOMPARE(slide[1], withBands[3]);
        QCOMPARE(slide.last(), gui::ThroughputPage::slideScopeNote());
        QVERIFY(!slide.contains(gui::ThroughputPage::scopeNote()));
        // A point without a steady state: its verdict is the first line, on a slide too, and
        // the rest is as before.
        std::vector<sim::SimResult> stuck = runs;
        stuck[5].overload = "the walkers saturate libc.so.6: 100 walks/s x 20 ms = 2";
        stuck[7].overload = "no steady state: after warmup_max_ms";
        const QStringList withVerdict = gui::ThroughputPage::summarise(stuck).split('\n');
        QCOMPARE(withVerdict.size(), 5);
        QCOMPARE(withVerdict[0], QString("No steady state: single at 384 copies, 100 walks/s: the "
                                         "walkers saturate libc.so.6: 100 walks/s x 20 ms = 2 "
                                         "(and 1 more points)"));
        QCOMPARE(withVerdict.mid(1), lines);
        QCOMPARE(gui::ThroughputPage::summarise(stuck, true).split('\n').first(), withVerdict[0]);
    }

    // The parameters dock feeds the sweep: a tenfold unlocked time makes one copy ten times
    // slower (nearly: the locked part stays).
    void parametersFeedTheSweep() {
        gui::MainWindow w(false);
        w.loadDefault();
        w.sweepControls()->setPolicies("single");
        w.sweepControls()->setCopies("1");
        w.sweepControls()->setDurationMs(300);
        w.sweepControls()->setBands(0);  // the seeds alone: a ratio of means
        QSignalSpy done(w.sweeps(), &SweepController::finished);
        QVERIFY(w.startSweep());
        QVERIFY(done.wait(60000));
        const double base = w.throughputView()->throughputGraph("single")->data()->at(0)->value;
        w.paramsPanel()
            ->editor("unlocked_ns_per_exec")
            ->setValue(10 * sim::CostParams{}.unlockedNsPerExec);
        QVERIFY(w.startSweep());
        QVERIFY(done.wait(60000));
        const double slow = w.throughputView()->throughputGraph("single")->data()->at(0)->value;
        QVERIFY2(slow < base / 8 && slow > base / 12,
                 qPrintable(QString("%1 vs %2").arg(slow).arg(base)));
    }

    // Measured points from the shipped file sit over the curves, error bars included.
    void measuredPointsOverlay() {
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(
            w.openMeasurements(QStringLiteral(IMMAP_SAMPLES "/measurements/host-2cpu-execl.json")));
        QCPGraph* m = w.throughputView()->measuredGraph();
        QVERIFY(m);
        QCOMPARE(m->data()->size(), 3);
        QCOMPARE(m->data()->at(0)->key, 1.0);
        QVERIFY(std::abs(m->data()->at(0)->value - 2149.87) < 0.01);
        QVERIFY(!w.openMeasurements(QStringLiteral(IMMAP_SAMPLES "/recipes/execl-glibc236.json")));
    }

    // Points measured on the 2-PU VM over curves of the 384-CPU sample: a note over the plot
    // names both shapes (and the legend says "another machine"); over a 2-PU, 1-node machine
    // there is none. A new scenario takes the points away with the rest.
    void measuredFromAnotherMachineSaySo() {
        gui::MainWindow w(false);
        w.resize(1280, 720);
        w.loadDefault();
        QVERIFY(
            w.openMeasurements(QStringLiteral(IMMAP_SAMPLES "/measurements/host-2cpu-execl.json")));
        QCPItemText* note = w.throughputView()->measuredNoteItem();
        QVERIFY(note && note->visible());
        QVERIFY2(note->text().contains(QStringLiteral("vm (2 PUs, 1 NUMA node)")),
                 qPrintable(note->text()));
        QVERIFY2(note->text().contains(QStringLiteral("384 PUs, 12 NUMA nodes")),
                 qPrintable(note->text()));
        QVERIFY(w.throughputView()->measuredGraph()->name().contains("another machine"));

        QVERIFY(w.openSource(QStringLiteral("synthetic:libc?processes=20&seed=1"),
                             QStringLiteral("synthetic:package:1 core:2 pu:1")));
        QVERIFY(
            w.openMeasurements(QStringLiteral(IMMAP_SAMPLES "/measurements/host-2cpu-execl.json")));
        QVERIFY(!w.throughputView()->measuredNoteItem());
        QVERIFY(!w.throughputView()->measuredGraph()->name().contains("another machine"));

        QVERIFY(w.openScenario(QStringLiteral(IMMAP_SAMPLES "/workshops/walkers-and-memory.json")));
        QVERIFY(!w.throughputView()->measuredGraph());
    }

    void cancelStopsASweep() {
        gui::MainWindow w(false);
        w.loadDefault();
        w.sweepControls()->setPolicies("single,split-trees,split-locks");
        w.sweepControls()->setCopies("384,384,384,384,384,384,384,384");
        w.sweepControls()->setDurationMs(1000);
        QSignalSpy cancelled(w.sweeps(), &SweepController::cancelled);
        QVERIFY(w.startSweep());
        QTest::mouseClick(w.sweepControls()->cancelButton(), Qt::LeftButton);
        QVERIFY(cancelled.wait(120000));
        QVERIFY(!w.sweeps()->running());
        QVERIFY(w.throughputView()->overlay().startsWith(QStringLiteral("Sweep cancelled")));
        QVERIFY(w.sweepControls()->runButton()->isEnabled());
    }

    void badListsGiveADialog() {
        gui::MainWindow w(false);
        w.loadDefault();
        w.sweepControls()->setPolicies("single,forest");
        QVERIFY(!w.startSweep());
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorDialog"));
        QVERIFY(box);
        QVERIFY(box->text().contains("forest") || box->informativeText().contains("forest") ||
                box->detailedText().contains("forest"));
        box->close();
        QVERIFY(!w.sweeps()->running());
    }

    void screenshotOfTheThroughputView() {
        QTemporaryDir dir;
        const QString png = dir.filePath("t.png");
        QProcess p;
        p.start(IMMAP_GUI, {"--screenshot", png, "--view", "throughput", "--size", "1000x700",
                            "--bands", "1", "synthetic:libc?processes=50&nodes=2"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QImage img(png);
        QCOMPARE(img.size(), QSize(1000, 700));
    }
};

IMMAP_TEST_SUITE(TestThroughputTab);
#include "TestThroughputTab.moc"
