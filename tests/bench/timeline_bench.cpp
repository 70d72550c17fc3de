// Benchmark, not a test: the trace timeline. Records the same simulation as trace_bench
// (split-locks, 384 copies on the 12-node sample, 30 ms, 1,000 walkers/s: about 2.5 M events),
// then times: reading the events (the baseline), building the timeline from them, the range
// statistics over the whole trace, and painting the timeline view offscreen at 1600x900 over
// the full range and zoomed to 1% (the level of detail merges sub-pixel spans; target: a full
// range paint well under 100 ms), and a repaint where only the replay cursor moved. Prints the
// figures and ratios to the baseline.
//   timeline_bench [--quick]
#include <unistd.h>
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "BenchTrace.h"
#include "trace/RangeStats.h"
#include "trace/Timeline.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"
#include "views/TimelineView.h"

using namespace immap;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Median milliseconds of `runs` paints of the whole widget into an image. Cold: the visible
// range moves by 1 ns before each paint, so the view's cached lanes are drawn afresh (as on
// every zoom or pan); warm: only the replay cursor moves, drawn over the cached lanes.
double paintMs(views::TimelineView& v, int runs, bool cold) {
    QImage img(v.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> ms;
    const trace::Time from = v.visibleFrom(), to = v.visibleTo();
    for (int i = 0; i < runs; ++i) {
        if (cold)
            v.setVisibleRange(from + (i % 2), to);
        else
            v.setCursorTime(from + (to - from) * (i + 1) / (runs + 1));
        const auto t0 = Clock::now();
        QPainter p(&img);
        v.render(&p);
        p.end();
        ms.push_back(secondsSince(t0) * 1e3);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    const bool quick = argc > 1 && !std::strcmp(argv[1], "--quick");
    const auto dir = std::filesystem::temp_directory_path() /
                     ("immap-timeline-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "run.trace").string();

    const std::string what = bench::recordBenchTrace(path, quick);

    // Baseline: the events, read and parsed.
    auto t0 = Clock::now();
    std::vector<sim::SimEvent> events;
    trace::TraceReader reader(path);
    {
        sim::SimEvent e;
        while (reader.next(e))
            events.push_back(e);
    }
    const double read = secondsSince(t0);

    t0 = Clock::now();
    auto timeline =
        std::make_shared<trace::Timeline>(trace::Timeline::fromEvents(reader.header(), events));
    const double build = secondsSince(t0);

    t0 = Clock::now();
    const trace::RangeStats all = trace::RangeStats::whole(*timeline, trace::TimelineFilter{});
    const double stats = secondsSince(t0);
    trace::TimelineFilter node3;
    node3.add(trace::FilterItem::node(3));
    t0 = Clock::now();
    const trace::RangeStats filtered = trace::RangeStats::whole(*timeline, node3);
    const double statsFiltered = secondsSince(t0);

    views::TimelineView v;
    v.resize(1600, 900);
    v.setTimeline(timeline);
    const int runs = quick ? 3 : 15;
    const double full = paintMs(v, runs, true);
    const double cursorOnly = paintMs(v, runs, false);
    std::size_t items = 0;
    const trace::Time res = std::max<trace::Time>(
        1, (v.visibleTo() - v.visibleFrom()) / static_cast<trace::Time>(v.plotArea().width()));
    for (std::size_t l = 0; l < timeline->lanes().size(); ++l)
        for (auto layer : {trace::SpanLayer::Activity, trace::SpanLayer::Locks})
            items +=
                timeline->query(static_cast<int>(l), layer, v.visibleFrom(), v.visibleTo(), res)
                    .size();
    const trace::Time mid = (timeline->begin() + timeline->end()) / 2;
    const trace::Time w = std::max<trace::Time>(2000, (timeline->end() - timeline->begin()) / 100);
    v.setVisibleRange(mid - w / 2, mid + w / 2);
    const double zoomed = paintMs(v, runs, true);

    std::printf("trace: %zu events, %zu spans, %zu lanes (%s)\n", events.size(),
                timeline->spanCount(), timeline->lanes().size(), what.c_str());
    std::printf("read and parse      %8.3f s  %6.2f M events/s  (baseline)\n", read,
                static_cast<double>(events.size()) / read / 1e6);
    std::printf("build the timeline  %8.3f s  %6.2f M events/s  ratio to reading %.2f\n", build,
                static_cast<double>(events.size()) / build / 1e6, build / read);
    std::printf(
        "stats, whole trace  %8.1f ms (%llu events, %zu locks); filtered to node 3: %.1f ms "
        "(%llu events)\n",
        stats * 1e3, static_cast<unsigned long long>(all.events), all.locks.size(),
        statsFiltered * 1e3, static_cast<unsigned long long>(filtered.events));
    std::printf(
        "paint 1600x900, full range  %7.1f ms median of %d  (%zu items for %zu spans: "
        "%.1f%%)\n",
        full, runs, items, timeline->spanCount(),
        100.0 * static_cast<double>(items) / static_cast<double>(timeline->spanCount()));
    std::printf("paint 1600x900, 1%% of it    %7.1f ms median of %d\n", zoomed, runs);
    std::printf("repaint, only the replay cursor moved (lanes cached) %7.1f ms median of %d\n",
                cursorOnly, runs);
    std::filesystem::remove_all(dir);
    return 0;
}
