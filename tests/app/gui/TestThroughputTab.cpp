// The window's throughput tab: Run sweeps the loaded topology in the background (the window
// keeps processing events), the plot then holds exactly what core/sim's Sweep gives for the
// same grid, Cancel stops a sweep, bad lists give a dialog, and --screenshot --view throughput
// renders the plot.
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

#include <QDoubleSpinBox>
#include <cmath>

#include "MainWindow.h"
#include "Suites.h"
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
        QSignalSpy done(w.sweeps(), &SweepController::finished);
        QSignalSpy progress(w.sweeps(), &SweepController::progress);
        QTest::mouseClick(w.sweepControls()->runButton(), Qt::LeftButton);
        QVERIFY(w.sweeps()->running());
        QVERIFY(!w.sweepControls()->runButton()->isEnabled());
        QVERIFY(w.sweepControls()->cancelButton()->isEnabled());
        QVERIFY(done.wait(60000));
        // 6 points, each over the session's seeds (3): one progress step per run.
        const int runsDone = 6 * static_cast<int>(w.session().settings().seeds);
        QCOMPARE(runsDone, 18);
        QCOMPARE(progress.count(), runsDone);
        QCOMPARE(w.sweepControls()->progress()->value(), runsDone);
        QVERIFY(w.sweepControls()->runButton()->isEnabled());

        // The same grid straight from core/sim.
        sim::SweepConfig c;
        std::string error;
        QVERIFY(sim::Sweep::parsePolicies("single,split-locks", c.policies, error));
        QVERIFY(sim::Sweep::parseCopies("1,16,64", c.copies, error));
        c.run.topology = w.session().host().topology.get();
        c.run.durationMs = 10;
        c.seeds = 3;
        const auto runs = sim::Sweep::run(c);
        for (const sim::SimResult& r : runs) {
            QCPGraph* g = w.throughputView()->throughputGraph(QString::fromStdString(r.policy));
            QVERIFY(g);
            bool found = false;
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                if (it->key == r.copies) found = it->value == r.execsPerSecond;
            QVERIFY2(found, r.policy.c_str());
        }
        QVERIFY(w.throughputView()->claimsShown());  // the default machine has 384 PUs
    }

    // The parameters dock feeds the sweep: a tenfold unlocked time makes one copy ten times
    // slower (nearly: the locked part stays).
    void parametersFeedTheSweep() {
        gui::MainWindow w(false);
        w.loadDefault();
        w.sweepControls()->setPolicies("single");
        w.sweepControls()->setCopies("1");
        w.sweepControls()->setDurationMs(300);
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
                            "synthetic:libc?processes=50&nodes=2"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QImage img(png);
        QCOMPARE(img.size(), QSize(1000, 700));
    }
};

IMMAP_TEST_SUITE(TestThroughputTab);
#include "TestThroughputTab.moc"
