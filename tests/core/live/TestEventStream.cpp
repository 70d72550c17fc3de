// One run, four readers of its event stream: a simulation is recorded to a trace and watched by
// a LiveState at once; the trace read back goes to a TraceReplay and a Timeline. The truth is
// the simulator's own result and what the test keeps itself of the raw events (the VMAs in each
// tree, the exec ends): the replay's statistics equal the simulator's field by field, the trees
// of the replay and of the live state hold the same VMAs in the same order as the events left,
// with the simulator's sizes and heights, and each CPU's lock time in the replay's split equals
// the time the timeline's wait and hold spans of its copies cover in the window.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "ReplayCompare.h"
#include "Suites.h"
#include "itree/InvariantChecker.h"
#include "live/LiveState.h"
#include "sim/ResultMath.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"
#include "trace/RangeStats.h"
#include "trace/Timeline.h"
#include "trace/TraceReader.h"
#include "trace/TraceReplay.h"
#include "trace/TraceWriter.h"

using namespace immap;

namespace {

const topology::Topology& twoNodes() {
    static const topology::Topology t =
        topology::Topology::fromSpec("synthetic:numa:2 core:4 pu:2");
    return t;
}

using Interval = std::pair<std::uint64_t, std::uint64_t>;
using TreeKey = std::pair<int, int>;  // file, tree

// Sends every event to each observer and keeps the test's own account of the trees.
struct Tee final : sim::SimObserver {
    std::vector<sim::SimObserver*> to;
    std::map<TreeKey, std::map<std::uint32_t, Interval>> vmas;  // what the events left
    std::uint64_t execEnds = 0;
    void onEvent(const sim::SimEvent& e) override {
        for (sim::SimObserver* o : to)
            o->onEvent(e);
        if (e.kind == sim::SimEvent::TreeInsert) vmas[{e.file, e.tree}][e.vma] = {e.start, e.last};
        if (e.kind == sim::SimEvent::TreeRemove) vmas[{e.file, e.tree}].erase(e.vma);
        if (e.kind == sim::SimEvent::ExecEnd) ++execEnds;
    }
};

// A tree's VMAs in order: (id, start, last).
std::vector<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>> inOrder(
    const itree::IntervalTree& t) {
    std::vector<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>> out;
    for (const itree::Node* n = t.leftmost(); n; n = itree::IntervalTree::next(n))
        out.emplace_back(trace::EventInterpreter::vmaIdOf(n), n->start, n->last);
    return out;
}

// Everything a replay can reproduce of a run's report.
QJsonObject comparable(const sim::SimResult& r) {
    return testing::replayComparable(
        QJsonDocument::fromJson(QByteArray::fromStdString(r.toJson(true))).object());
}

// The time [from, to) that a copy's wait and hold spans cover together (overlaps once). The
// timeline ends a span still open at its last event; the run's window goes on to `to`.
sim::Time lockTime(const trace::Timeline& t, int copy, sim::Time from, sim::Time to) {
    std::vector<std::pair<sim::Time, sim::Time>> spans;
    for (std::size_t i = 0; i < t.spanCount(); ++i) {
        const trace::TimelineSpan& s = t.span(i);
        if (trace::layerOf(s.kind) != trace::SpanLayer::Locks || t.event(s.open).agent != copy)
            continue;
        const sim::Time end = s.close == trace::kNoEvent ? to : s.end;
        const sim::Time a = std::max(s.start, from), b = std::min(end, to);
        if (b > a) spans.emplace_back(a, b);
    }
    std::sort(spans.begin(), spans.end());
    sim::Time total = 0, reach = from;
    for (const auto& [a, b] : spans) {
        const sim::Time start = std::max(a, reach);
        if (b > start) total += b - start;
        reach = std::max(reach, b);
    }
    return total;
}

}  // namespace

class TestEventStream : public QObject {
    Q_OBJECT

private slots:
    void theFourReadersAgree_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<unsigned>("copies");
        QTest::addColumn<double>("walkers");
        QTest::newRow("single") << "single" << 8u << 0.0;
        QTest::newRow("split-trees, walkers") << "split-trees" << 12u << 2000.0;
        QTest::newRow("split-locks") << "split-locks" << 16u << 0.0;
        QTest::newRow("sharded:4, walkers") << "sharded:4" << 16u << 2000.0;
    }

    void theFourReadersAgree() {
        QFETCH(QString, policy);
        QFETCH(unsigned, copies);
        QFETCH(double, walkers);
        QTemporaryDir dir;
        const std::string path = dir.filePath("run.trace").toStdString();

        sim::SimConfig c;
        c.topology = &twoNodes();
        std::string error;
        QVERIFY2(mapping::Policy::parse(policy.toStdString(), c.policy, error), error.c_str());
        c.copies = copies;
        c.durationMs = 5;
        // A window of fixed length: (c) compares CPU time against the timeline's spans cut at
        // the window's end, and a window that closes at an exec's end can leave an event priced
        // ahead of the clock past it (docs/simulator.md, Simplifications).
        c.params.windowExecs = 0;
        c.params.windowTotalExecs = 0;
        c.seed = 3;
        c.walkersPerSecond = walkers;
        trace::TraceWriter writer(path);
        live::LiveState live;
        Tee tee;
        tee.to = {&writer, &live};
        c.observer = &tee;
        sim::Simulator s(c);
        const trace::TraceHeader header = trace::headerFor(c, s);
        writer.start(header);
        live.begin(header);
        const sim::SimResult direct = s.run();
        writer.close(s.now());
        QVERIFY(direct.execs > 0);
        if (walkers > 0) QVERIFY(direct.walks > 0);

        trace::TraceReader reader(path);
        trace::TraceReplay replay(reader.header());
        trace::Timeline::Builder builder(reader.header());
        sim::SimEvent e;
        std::string reason;
        while (reader.next(e)) {
            QVERIFY2(replay.apply(e, reason), reason.c_str());
            builder.add(e);
        }
        QVERIFY2(reader.complete() && reader.error().empty(), reader.error().c_str());
        const trace::Timeline timeline = builder.finish();
        const sim::SimResult r = replay.result();

        // (a) The replay's statistics are the simulator's.
        QCOMPARE(r.execs, direct.execs);
        QCOMPARE(r.execsPerSecond, direct.execsPerSecond);
        QCOMPARE(r.lockHolds, direct.lockHolds);
        QCOMPARE(r.treeOps, direct.treeOps);
        QCOMPARE(r.nodesPerTreeOp, direct.nodesPerTreeOp);
        QCOMPARE(r.walks, direct.walks);
        QCOMPARE(r.walkerLatencyMeanNs, direct.walkerLatencyMeanNs);
        QCOMPARE(r.walkerLatencyP99Ns, direct.walkerLatencyP99Ns);
        QCOMPARE(r.durationMs, direct.durationMs);
        QCOMPARE(r.warmupMs, direct.warmupMs);
        QCOMPARE(r.locks.size(), direct.locks.size());
        for (std::size_t i = 0; i < r.locks.size(); ++i) {
            QCOMPARE(r.locks[i].name, direct.locks[i].name);
            QVERIFY2(r.locks[i].stats == direct.locks[i].stats, r.locks[i].name.c_str());
        }
        QCOMPARE(r.cpus.size(), direct.cpus.size());
        for (std::size_t i = 0; i < r.cpus.size(); ++i) {
            QCOMPARE(r.cpus[i].cpu, direct.cpus[i].cpu);
            QCOMPARE(r.cpus[i].copies, direct.cpus[i].copies);
            QCOMPARE(r.cpus[i].workNs, direct.cpus[i].workNs);
            QCOMPARE(r.cpus[i].waitNs, direct.cpus[i].waitNs);
            QCOMPARE(r.cpus[i].holdNs, direct.cpus[i].holdNs);
        }
        QCOMPARE(comparable(r), comparable(direct));  // and whatever else the JSON carries

        // (b) The same trees, VMA for VMA, in the replay and the live state, as the events left
        // them, with the simulator's sizes and heights.
        QCOMPARE(live.error(), std::string());
        QCOMPARE(live.execs(), tee.execEnds);
        for (std::size_t f = 0; f < header.files.size(); ++f) {
            const int file = static_cast<int>(f);
            QCOMPARE(replay.treeCount(file), live.treeCount(file));
            std::uint64_t vmas = 0;
            for (std::size_t t = 0; t < replay.treeCount(file); ++t) {
                const int tree = static_cast<int>(t);
                const itree::IntervalTree& a = replay.tree(file, tree);
                const itree::IntervalTree* b = live.tree(file, tree);
                QVERIFY(b);
                const auto order = inOrder(a);
                QVERIFY(order == inOrder(*b));
                const itree::CheckResult check = itree::InvariantChecker::check(a);
                QVERIFY2(check.ok, check.error.c_str());
                std::map<std::uint32_t, Interval> got;
                for (const auto& [id, start, last] : order)
                    got[id] = {start, last};
                QVERIFY(got == tee.vmas[TreeKey(file, tree)]);
                QCOMPARE(check.shape.height, direct.files[f].heights[t]);
                vmas += order.size();
            }
            QCOMPARE(vmas, direct.files[f].finalVmas);
        }

        // (c) Each CPU's time in locks (waiting and holding) in the replay's split is the time
        // the timeline's lock spans of the copies on it cover in the window; the timeline counts
        // the window's execs as the simulator did.
        QVERIFY(timeline.windowStart().has_value());
        const sim::Time from = *timeline.windowStart();
        const sim::Time to = from + static_cast<sim::Time>(std::llround(direct.durationMs * 1e6));
        std::map<unsigned, double> lockNs;
        for (unsigned k = 0; k < copies; ++k)
            lockNs[header.copyCpus[k]] +=
                static_cast<double>(lockTime(timeline, static_cast<int>(k), from, to));
        for (const sim::CpuResult& cpu : r.cpus)
            QCOMPARE(cpu.waitNs + cpu.holdNs, lockNs[cpu.cpu]);
        const trace::RangeStats window =
            trace::RangeStats::of(timeline, trace::TimelineFilter{}, from, to + 1);
        QCOMPARE(window.execs, direct.execs);
    }
};

IMMAP_TEST_SUITE(TestEventStream);
#include "TestEventStream.moc"
