// Benchmark, not a test: the Throughput page on the default scenario (offscreen), as a user
// opening it sees it. Times from Run to: the first point drawn, every point's curve at the
// default parameters drawn (the first seed of each), every seed in, every band in (the sweep's
// end); and, as the baseline in the same process, the same sweep run without streaming
// (Sweep::run with no point callback), whose picture appears only at its end, as every picture
// did before curves streamed in. Prints each time and its ratio to the baseline.
//   throughput_stream_bench [--quick] [--no-baseline] [--shot FILE]
// --quick: 2 copy counts, a 5 ms window and 2 parameter sets (the CTest smoke pass).
// --shot: the window (1280x720) as PNG the moment every curve is first on the plot: what a
// viewer sees mid-sweep.
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <optional>

#include "MainWindow.h"
#include "ThroughputPage.h"
#include "sim/Sweep.h"

using namespace immap;

int main(int argc, char** argv) {
    bool quick = false, baseline = true;
    QString shot;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick")) {
            quick = true;
        } else if (!std::strcmp(argv[i], "--shot") && i + 1 < argc) {
            shot = QString::fromLocal8Bit(argv[++i]);
        } else if (!std::strcmp(argv[i], "--no-baseline")) {
            baseline = false;
        } else {
            std::fprintf(
                stderr, "usage: throughput_stream_bench [--quick] [--no-baseline] [--shot FILE]\n");
            return 2;
        }
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    gui::MainWindow w(false);
    w.loadDefault();
    w.setView(QStringLiteral("throughput"));
    if (quick) {
        w.sweepControls()->setCopies(QStringLiteral("1,16"));
        w.sweepControls()->setDurationMs(5);
        w.sweepControls()->setBands(2);
    }
    w.resize(1280, 720);
    w.show();

    QElapsedTimer t;
    std::optional<double> first, curves, drawnCurves, seeds, bands, end;
    std::size_t points = 0;
    QObject::connect(w.sweeps(), &SweepController::pointDone, &app, [&](const sim::SweepUpdate& u) {
        const double s = t.elapsed() / 1e3;
        points = u.progress.points;
        if (!first) first = s;
        if (!curves && u.progress.drawn == u.progress.points) curves = s;
        if (!seeds && u.progress.seedsDone == u.progress.seedRuns) seeds = s;
        if (!bands && u.progress.bandsDone == u.progress.bandRuns) bands = s;
    });
    // What the viewer sees: the plot holding every point (after the page's redraw).
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        if (!drawnCurves && points > 0 && w.throughputView()->runs().size() == points) {
            drawnCurves = t.elapsed() / 1e3;
            if (!shot.isEmpty() && w.sweeps()->running() && !w.grab().save(shot))
                std::fprintf(stderr, "cannot write %s\n", qPrintable(shot));
        }
    });
    poll.start(20);
    QEventLoop loop;
    QObject::connect(w.sweeps(), &SweepController::finished, &app, [&] {
        end = t.elapsed() / 1e3;
        loop.quit();
    });
    t.start();
    if (!w.throughputPage()->startSweep()) {
        std::fprintf(stderr, "the sweep did not start\n");
        return 1;
    }
    loop.exec();
    if (!drawnCurves) drawnCurves = end;  // the end's picture holds every point

    const session::SimSettings& s = w.session().settings();
    double plain = 0;
    if (baseline) {
        const sim::SweepConfig config =
            s.sweep(*w.session().host().topology, sim::ParallelRuns::defaultThreads());
        QElapsedTimer b;
        b.start();
        sim::Sweep::run(config);
        plain = b.elapsed() / 1e3;
    }
    std::printf(
        "throughput page, default scenario%s: %zu points x (%u seeds + %u sets), %u "
        "threads\n",
        quick ? " (quick grid)" : "", points, s.seeds, s.bands,
        sim::ParallelRuns::defaultThreads());
    auto row = [&](const char* what, std::optional<double> v) {
        if (!v) {
            std::printf("  %-40s  never\n", what);
            return;
        }
        if (baseline && plain > 0)
            std::printf("  %-40s %7.2f s  (%.2f of the baseline)\n", what, *v, *v / plain);
        else
            std::printf("  %-40s %7.2f s\n", what, *v);
    };
    row("first point drawn", first);
    row("every curve at the defaults (first seeds)", curves);
    row("  ... on the plot", drawnCurves);
    row("every seed", seeds);
    row("every band (time to bands)", bands);
    row("sweep finished", end);
    if (baseline) std::printf("  %-40s %7.2f s\n", "baseline: the same sweep unstreamed", plain);
    return end ? 0 : 1;
}
