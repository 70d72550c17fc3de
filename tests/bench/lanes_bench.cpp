// The contention view's frame time, offscreen: 384 lanes (the 12-node, 384-CPU sample, single
// against split-locks, 384 copies) while the live simulator runs on its own worker thread and
// publishes snapshots; each frame takes the newest snapshot into both sides' views and repaints
// them (QWidget::render, the widget's own paintEvent) at the size each side gets in a
// 1600x1000 window (800x600); and the whole tab, with libc's tree under each side set again
// whenever the worker redrew it. Prints mean, p95 and max frame time and frames/s; baselines
// painted in the same process the same way: the view with one lane, and an empty widget.
// Target (issue 6 item 8): 30 frames/s or better, i.e. a frame under 33 ms.
// `--quick`: a few frames, for CTest. `--frames N`: how many frames (default 600).
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

#include "BenchPaths.h"
#include "live/LiveDriver.h"
#include "topology/Topology.h"
#include "views/ContentionView.h"
#include "views/TreeView.h"

using namespace immap;

namespace {

struct Stats {
    double mean = 0, p95 = 0, max = 0;
};

Stats stats(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    Stats s;
    s.mean = std::accumulate(ms.begin(), ms.end(), 0.0) / static_cast<double>(ms.size());
    s.p95 = ms[std::min(ms.size() - 1, ms.size() * 95 / 100)];
    s.max = ms.back();
    return s;
}

void print(const char* what, const Stats& s, const Stats* base) {
    std::printf("%-44s mean %7.3f ms  p95 %7.3f ms  max %7.3f ms  %8.1f frames/s", what, s.mean,
                s.p95, s.max, 1000.0 / s.mean);
    if (base) std::printf("  x%.1f the baseline", s.mean / base->mean);
    std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int frames = 600;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) frames = 20;
        if (std::strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = std::atoi(argv[++i]);
    }
    frames = std::max(5, frames);
    const topology::Topology topo = topology::Topology::fromSpec(
        "xml:" + immap::bench::samplesDir() + "/topologies/numa12-384cpu.xml");
    live::LiveConfig c;
    c.run.topology = &topo;
    mapping::Policy a, b;
    std::string error;
    mapping::Policy::parse("single", a, error);
    mapping::Policy::parse("split-locks", b, error);
    c.policies = {a, b};
    c.run.copies = 384;
    live::LiveDriver driver(c);
    driver.setSlowdown(1000);

    // The simulator on its worker thread, publishing a snapshot per ~33 ms frame as the app's
    // controller does (trees every third frame).
    std::mutex m;
    std::shared_ptr<const live::LiveSnapshot> latest =
        std::make_shared<const live::LiveSnapshot>(driver.snapshot(false));
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> published{0};
    std::thread worker([&] {
        using Clock = std::chrono::steady_clock;
        auto last = Clock::now();
        std::uint64_t frame = 0;
        while (!stop) {
            const auto start = Clock::now();
            const auto deadline = start + std::chrono::milliseconds(25);
            driver.tick(std::chrono::duration<double>(start - last).count(),
                        [&] { return !stop && Clock::now() < deadline; });
            last = start;
            auto s = std::make_shared<const live::LiveSnapshot>(driver.snapshot(frame++ % 3 == 0));
            {
                std::lock_guard<std::mutex> lock(m);
                latest = std::move(s);
            }
            ++published;
            std::this_thread::sleep_until(start + std::chrono::milliseconds(33));
        }
    });

    views::ContentionView left, right, oneLane;
    QWidget empty;
    for (QWidget* w : {static_cast<QWidget*>(&left), static_cast<QWidget*>(&right),
                       static_cast<QWidget*>(&oneLane), &empty}) {
        w->setAttribute(Qt::WA_DontShowOnScreen);
        w->resize(800, 600);
        w->show();
    }
    QApplication::processEvents();
    QImage img(800, 600, QImage::Format_ARGB32_Premultiplied);
    // The whole tab: both sides plus libc's tree under each (800x400), set again when redrawn.
    views::TreeView treeL, treeR;
    for (views::TreeView* t : {&treeL, &treeR}) {
        t->setAttribute(Qt::WA_DontShowOnScreen);
        t->setMotionDuration(0);
        t->resize(800, 400);
        t->show();
    }
    std::shared_ptr<const session::DrawTree> shownL, shownR;
    std::vector<double> tab;

    std::vector<double> lanes, single, blank;
    std::uint64_t lanesSeen = 0;
    for (int f = 0; f < frames; ++f) {
        std::shared_ptr<const live::LiveSnapshot> s;
        {
            std::lock_guard<std::mutex> lock(m);
            s = latest;
        }
        QElapsedTimer t;
        t.start();
        left.setSnapshot(s->runs[0], s->now);
        right.setSnapshot(s->runs[1], s->now);
        left.render(&img);
        right.render(&img);
        lanes.push_back(t.nsecsElapsed() / 1e6);
        lanesSeen = s->runs[0].lanes.size();

        t.restart();
        left.setSnapshot(s->runs[0], s->now);
        right.setSnapshot(s->runs[1], s->now);
        if (s->runs[0].tree && s->runs[0].tree != shownL)
            treeL.setTree(*(shownL = s->runs[0].tree));
        if (s->runs[1].tree && s->runs[1].tree != shownR)
            treeR.setTree(*(shownR = s->runs[1].tree));
        left.render(&img);
        right.render(&img);
        treeL.render(&img);
        treeR.render(&img);
        tab.push_back(t.nsecsElapsed() / 1e6);

        live::RunSnapshot one = s->runs[0];
        one.lanes.resize(1);
        t.restart();
        oneLane.setSnapshot(one, s->now);
        oneLane.render(&img);
        oneLane.setSnapshot(one, s->now);
        oneLane.render(&img);  // twice: two sides, like the frame above
        single.push_back(t.nsecsElapsed() / 1e6);

        t.restart();
        empty.render(&img);
        empty.render(&img);
        blank.push_back(t.nsecsElapsed() / 1e6);
    }
    stop = true;
    worker.join();

    std::printf(
        "lanes_bench: %d frames, %zu lanes per side, 2 sides of 800x600, simulator on its "
        "worker thread (%llu snapshots published, simulated %.3f ms)\n",
        frames, static_cast<std::size_t>(lanesSeen),
        static_cast<unsigned long long>(published.load()), static_cast<double>(driver.now()) / 1e6);
    const Stats sb = stats(blank), s1 = stats(single), sl = stats(lanes);
    print("baseline: an empty widget, twice", sb, nullptr);
    print("baseline: the view with 1 lane, twice", s1, &sb);
    print("384 lanes + queues, both sides", sl, &sb);
    print("the whole tab: both sides + both trees", stats(tab), &sb);
    std::printf("384 lanes against 1 lane: x%.2f; 30 frames/s %s (p95 %.1f ms vs 33.3 ms)\n",
                sl.mean / s1.mean, sl.p95 < 1000.0 / 30 ? "held" : "MISSED", sl.p95);
    return 0;
}
