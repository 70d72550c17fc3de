// The timeline: a hand-written event sequence gives the spans, lanes and statistics worked out
// by hand; on a recorded simulation, span reconstruction, overlap queries, the level of detail
// and range statistics under random filters all equal a direct loop over the raw events.
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "Suites.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"
#include "trace/RangeStats.h"
#include "trace/Timeline.h"
#include "trace/TimelineFilter.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

using namespace immap;
using namespace immap::trace;
using sim::SimEvent;

namespace {

SimEvent ev(Time t, SimEvent::Kind k, int agent, int cpu, int lock = -1, int mode = 0,
            std::uint64_t start = 0) {
    SimEvent e;
    e.time = t;
    e.kind = k;
    e.agent = agent;
    e.cpu = cpu;
    e.lock = lock;
    e.mode = static_cast<std::uint8_t>(mode);
    e.start = start;
    return e;
}

// (cpu, kind, lock, mode, start, end, open, close): a span as the brute force sees it.
using SpanTuple = std::tuple<int, int, int, int, Time, Time, std::uint32_t, std::uint32_t>;

SpanTuple tupleOf(const Timeline& t, const TimelineSpan& s) {
    return {t.lanes()[s.lane].cpu,
            static_cast<int>(s.kind),
            s.lock,
            s.mode,
            s.start,
            s.end,
            s.open,
            s.close};
}

// Spans rebuilt from raw events with maps of open spans, independently of Timeline.
std::vector<SpanTuple> bruteSpans(const std::vector<SimEvent>& ev, int locks) {
    std::vector<SpanTuple> out;
    Time end = 0;
    for (const SimEvent& e : ev)
        end = std::max(end, e.time);
    struct Open {
        Time start;
        std::uint32_t idx;
        int cpu;
        int mode;
    };
    std::map<std::tuple<int, int, int, std::uint64_t>, Open> open;  // (kind, agent, lock, addr)
    auto begin = [&](SpanKind k, const SimEvent& e, std::uint32_t i, int lock) {
        open[{static_cast<int>(k), e.agent, lock, e.start}] = {e.time, i, e.cpu, e.mode};
    };
    auto finish = [&](SpanKind k, const SimEvent& e, std::uint32_t i, int lock) {
        const auto it = open.find({static_cast<int>(k), e.agent, lock, e.start});
        if (it == open.end()) return;
        const Open& o = it->second;
        out.emplace_back(o.cpu, static_cast<int>(k), lock, o.mode, o.start, e.time, o.idx, i);
        open.erase(it);
    };
    for (std::uint32_t i = 0; i < ev.size(); ++i) {
        const SimEvent& e = ev[i];
        switch (e.kind) {
            case SimEvent::ExecBegin:
                begin(SpanKind::Exec, e, i, -1);
                break;
            case SimEvent::ExecEnd:
                finish(SpanKind::Exec, e, i, -1);
                break;
            case SimEvent::WalkBegin:
                begin(SpanKind::Walk, e, i, -1);
                break;
            case SimEvent::WalkEnd:
                finish(SpanKind::Walk, e, i, -1);
                break;
            case SimEvent::LockWait:
                begin(SpanKind::Wait, e, i, e.lock);
                break;
            case SimEvent::LockAcquire:
                finish(SpanKind::Wait, e, i, e.lock);
                begin(SpanKind::Hold, e, i, e.lock);
                break;
            case SimEvent::LockRelease:
                finish(SpanKind::Hold, e, i, e.lock);
                break;
            case SimEvent::KernelLockWait:
                begin(SpanKind::KernelWait, e, i, locks);
                break;
            case SimEvent::KernelLockAcquired:
                finish(SpanKind::KernelWait, e, i, locks);
                break;
            default:
                break;
        }
    }
    for (const auto& [k, o] : open)
        out.emplace_back(o.cpu, std::get<0>(k), std::get<2>(k), o.mode, o.start, end, o.idx,
                         kNoEvent);
    std::sort(out.begin(), out.end());
    return out;
}

const topology::Topology& numa12() {
    static const topology::Topology t = topology::Topology::fromSpec(
        std::string("xml:") + IMMAP_SAMPLES + "/topologies/numa12-384cpu.xml");
    return t;
}

// A small recorded simulation, read back as raw events.
struct Recorded {
    TraceHeader header;
    std::vector<SimEvent> events;
};

Recorded recordSmall(const char* policy, unsigned copies, double walkers) {
    QTemporaryDir dir;
    const std::string path = dir.filePath("t.trace").toStdString();
    sim::SimConfig c;
    c.topology = &numa12();
    std::string error;
    mapping::Policy::parse(policy, c.policy, error);
    c.copies = copies;
    c.durationMs = 2;
    c.walkersPerSecond = walkers;
    recordRun(c, path);
    TraceReader r(path);
    Recorded out;
    out.header = r.header();
    SimEvent e;
    while (r.next(e))
        out.events.push_back(e);
    return out;
}

// The filter as the statistics promise it, written out again.
struct BruteFilter {
    std::set<int> locks, cpus, nodes, kinds;
    std::map<int, int> cpuNode;
    bool passes(const SimEvent& e, int lock) const {
        if (lock >= 0 && !locks.empty() && !locks.count(lock)) return false;
        if (!cpus.empty() && !cpus.count(e.cpu)) return false;
        if (!nodes.empty()) {
            const auto n = cpuNode.find(e.cpu);
            if (n == cpuNode.end() || !nodes.count(n->second)) return false;
        }
        if (!kinds.empty() && !kinds.count(e.kind)) return false;
        return true;
    }
};

int lockOf(const SimEvent& e, int locks) {
    if (e.kind == SimEvent::KernelLockWait || e.kind == SimEvent::KernelLockAcquired) return locks;
    return e.lock;
}

// RangeStats by a direct loop over the events: pairs built on the fly, the union of holds by
// a sweep over boundaries.
RangeStats bruteStats(const Recorded& r, const BruteFilter& f, Time from, Time to) {
    RangeStats s;
    s.from = from;
    s.to = to;
    const int locks = static_cast<int>(r.header.locks.size());
    for (const SimEvent& e : r.events)
        if (e.time >= from && e.time < to && f.passes(e, lockOf(e, locks))) {
            ++s.events;
            ++s.byKind[e.kind];
        }
    s.execs = s.byKind[SimEvent::ExecEnd];
    const std::vector<SpanTuple> spans = bruteSpans(r.events, locks);
    for (int l = 0; l < locks; ++l) {
        if (!f.locks.empty() && !f.locks.count(l)) continue;
        LockRangeStats ls;
        ls.lock = l;
        std::vector<std::pair<Time, int>> edges;
        for (const SpanTuple& sp : spans) {
            const auto [cpu, kind, lock, mode, start, end, open, close] = sp;
            if (lock != l || !f.passes(r.events[open], l)) continue;
            if (kind == static_cast<int>(SpanKind::Wait) && start >= from && start < to &&
                close != kNoEvent) {
                ++ls.waits;
                ls.waitTotal += end - start;
                ls.waitMax = std::max(ls.waitMax, end - start);
            }
            if (kind == static_cast<int>(SpanKind::Hold)) {
                if (start >= from && start < to) ++ls.holds;
                const Time a = std::max(start, from), b = std::min(end, to);
                if (b > a) {
                    ls.holdTime += b - a;
                    edges.push_back({a, +1});
                    edges.push_back({b, -1});
                }
            }
        }
        std::sort(edges.begin(), edges.end());
        int depth = 0;
        Time last = 0;
        for (const auto& [t, d] : edges) {
            if (depth > 0) ls.heldTime += t - last;
            depth += d;
            last = t;
        }
        s.locks.push_back(ls);
    }
    return s;
}

void compareStats(const RangeStats& got, const RangeStats& want) {
    QCOMPARE(got.from, want.from);
    QCOMPARE(got.to, want.to);
    QCOMPARE(got.events, want.events);
    QVERIFY(got.byKind == want.byKind);
    QCOMPARE(got.execs, want.execs);
    // got may also hold the kernel pseudo-lock; simulations have none.
    QCOMPARE(got.locks.size(), want.locks.size());
    for (std::size_t i = 0; i < want.locks.size(); ++i) {
        const LockRangeStats &g = got.locks[i], &w = want.locks[i];
        QCOMPARE(g.lock, w.lock);
        QCOMPARE(g.waits, w.waits);
        QCOMPARE(g.waitTotal, w.waitTotal);
        QCOMPARE(g.waitMax, w.waitMax);
        QCOMPARE(g.holds, w.holds);
        QCOMPARE(g.holdTime, w.holdTime);
        QCOMPARE(g.heldTime, w.heldTime);
        if (got.to > got.from)
            QCOMPARE(g.utilisation, static_cast<double>(w.heldTime) / (got.to - got.from));
    }
}

TraceHeader handHeader() {
    TraceHeader h;
    h.files = {"libc.so.6"};
    h.locks = {{"libc.so.6 lock 0", 0}, {"libc.so.6 lock 1", 0}};
    h.copyCpus = {0, 5};
    h.copyNodes = {0, 1};
    return h;
}

// Two copies (CPUs 0 and 5), a walker on CPU 3, a set-up insert, a kernel contention pair.
std::vector<SimEvent> handEvents() {
    using K = SimEvent;
    return {
        ev(0, K::ExecBegin, 0, 0),                          // 0
        ev(10, K::LockWait, 0, 0, 0, 0),                    // 1
        ev(5, K::ExecBegin, 1, 5),                          // 2
        ev(12, K::LockAcquire, 1, 5, 0, 0),                 // 3  no wait: a hold only
        ev(12, K::TreeInsert, 1, 5),                        // 4
        ev(30, K::LockRelease, 1, 5, 0),                    // 5
        ev(30, K::LockAcquire, 0, 0, 0, 0),                 // 6  ends the wait of event 1
        ev(31, K::TreeRemove, 0, 0),                        // 7
        ev(40, K::LockRelease, 0, 0, 0),                    // 8
        ev(45, K::ExecEnd, 0, 0),                           // 9
        ev(50, K::WalkArrive, 2, 3),                        // 10
        ev(50, K::LockWait, 2, 3, 1, 1),                    // 11
        ev(55, K::LockAcquire, 2, 3, 1, 1),                 // 12
        ev(55, K::WalkBegin, 2, 3),                         // 13
        ev(70, K::WalkEnd, 2, 3),                           // 14
        ev(70, K::LockRelease, 2, 3, 1),                    // 15
        ev(80, K::KernelLockWait, 1, 5, -1, 0, 0xabc),      // 16
        ev(90, K::KernelLockAcquired, 1, 5, -1, 0, 0xabc),  // 17
        ev(0, K::TreeInsert, -1, -1),                       // 18 set-up
    };
}

}  // namespace

class TestTimeline : public QObject {
    Q_OBJECT

private slots:
    void handWrittenSequenceGivesTheKnownSpans() {
        Timeline::Builder b(handHeader());
        b.setCpuNodes({{3, 1}});
        for (const SimEvent& e : handEvents())
            b.add(e);
        const Timeline t = b.finish();
        QCOMPARE(t.eventCount(), std::size_t{19});
        QCOMPARE(t.begin(), Time{0});
        QCOMPARE(t.end(), Time{90});
        // Lanes: node 0's CPU 0, node 1's CPUs 3 and 5, then the set-up's lane with no CPU.
        QCOMPARE(t.lanes().size(), std::size_t{4});
        const std::vector<std::pair<int, int>> lanes = {{0, 0}, {3, 1}, {5, 1}, {-1, -1}};
        for (std::size_t i = 0; i < lanes.size(); ++i) {
            QCOMPARE(t.lanes()[i].cpu, lanes[i].first);
            QCOMPARE(t.lanes()[i].node, lanes[i].second);
        }
        QCOMPARE(t.nodes(), (std::vector<int>{0, 1, -1}));
        QCOMPARE(t.lockNames().size(), std::size_t{3});
        QCOMPARE(t.kernelLock(), 2);

        const int E = static_cast<int>(SpanKind::Exec), W = static_cast<int>(SpanKind::Wait),
                  H = static_cast<int>(SpanKind::Hold), K = static_cast<int>(SpanKind::KernelWait),
                  WK = static_cast<int>(SpanKind::Walk);
        std::vector<SpanTuple> want = {
            {0, E, -1, 0, 0, 45, 0, 9},     {0, W, 0, 0, 10, 30, 1, 6},
            {0, H, 0, 0, 30, 40, 6, 8},     {5, E, -1, 0, 5, 90, 2, kNoEvent},
            {5, H, 0, 0, 12, 30, 3, 5},     {5, K, 2, 0, 80, 90, 16, 17},
            {3, W, 1, 1, 50, 55, 11, 12},   {3, H, 1, 1, 55, 70, 12, 15},
            {3, WK, -1, 0, 55, 70, 13, 14},
        };
        std::vector<SpanTuple> got;
        for (std::size_t i = 0; i < t.spanCount(); ++i)
            got.push_back(tupleOf(t, t.span(i)));
        std::sort(want.begin(), want.end());
        std::sort(got.begin(), got.end());
        QCOMPARE(got, want);

        // Points: each in its CPU's lane.
        const auto pts = [&](int cpu) {
            std::vector<std::pair<Time, std::uint32_t>> v;
            for (const auto& p : t.queryPoints(t.laneOfCpu(cpu), 0, 100, 0))
                v.push_back({p.time, p.event});
            return v;
        };
        QCOMPARE(pts(5), (std::vector<std::pair<Time, std::uint32_t>>{{12, 4}}));
        QCOMPARE(pts(0), (std::vector<std::pair<Time, std::uint32_t>>{{31, 7}}));
        QCOMPARE(pts(3), (std::vector<std::pair<Time, std::uint32_t>>{{50, 10}}));
        QCOMPARE(pts(-1), (std::vector<std::pair<Time, std::uint32_t>>{{0, 18}}));

        // Hit tests: the wait is drawn over the exec; past the hold, the exec; within two ns
        // of the hold's end, the hold.
        const int lane0 = t.laneOfCpu(0);
        QCOMPARE(t.span(*t.spanAt(lane0, 20, 0)).open, 1u);
        QCOMPARE(t.span(*t.spanAt(lane0, 42, 0)).open, 0u);
        QCOMPARE(t.span(*t.spanAt(lane0, 42, 2)).open, 6u);
        QVERIFY(!t.spanAt(lane0, 60, 5));
        QCOMPARE(*t.pointAt(lane0, 33, 2), 7u);
        QVERIFY(!t.pointAt(lane0, 34, 2));
    }

    void handWrittenStatistics() {
        Timeline::Builder b(handHeader());
        for (const SimEvent& e : handEvents())
            b.add(e);
        const Timeline t = b.finish();
        TimelineFilter none;
        const RangeStats all = RangeStats::whole(t, none);
        QCOMPARE(all.events, std::uint64_t{19});
        QCOMPARE(all.execs, std::uint64_t{1});
        QCOMPARE(all.byKind[SimEvent::LockAcquire], std::uint64_t{3});
        QCOMPARE(all.locks.size(), std::size_t{3});
        QCOMPARE(all.locks[0].waits, std::uint64_t{1});
        QCOMPARE(all.locks[0].meanWait(), 20.0);
        QCOMPARE(all.locks[0].waitMax, Time{20});
        QCOMPARE(all.locks[0].holds, std::uint64_t{2});
        QCOMPARE(all.locks[0].holdTime, Time{28});
        QCOMPARE(all.locks[0].utilisation, 28.0 / 91.0);
        QCOMPARE(all.locks[1].waits, std::uint64_t{1});
        QCOMPARE(all.locks[1].waitMax, Time{5});
        QCOMPARE(all.locks[1].holdTime, Time{15});
        QCOMPARE(all.locks[2].waits, std::uint64_t{1});  // kernel contention
        QCOMPARE(all.locks[2].waitMax, Time{10});

        // [15, 35): the wait started before; CPU 5's hold started before but is held until 30,
        // CPU 0's from 30: held all the time, one hold starting.
        const RangeStats mid = RangeStats::of(t, none, 15, 35);
        QCOMPARE(mid.locks[0].waits, std::uint64_t{0});
        QCOMPARE(mid.locks[0].holds, std::uint64_t{1});
        QCOMPARE(mid.locks[0].holdTime, Time{20});
        QCOMPARE(mid.locks[0].utilisation, 1.0);
        QCOMPARE(mid.events, std::uint64_t{3});  // events 5, 6 and 7
        QCOMPARE(mid.byKind[SimEvent::LockRelease], std::uint64_t{1});

        // CPU 0 only.
        TimelineFilter cpu0;
        QVERIFY(cpu0.add(FilterItem::cpu(0)));
        const RangeStats c0 = RangeStats::whole(t, cpu0);
        QCOMPARE(c0.events, std::uint64_t{6});
        QCOMPARE(c0.locks[0].holdTime, Time{10});
        QCOMPARE(c0.locks[0].waits, std::uint64_t{1});
        QCOMPARE(c0.locks[1].holdTime, Time{0});

        // A lock filter leaves one row and drops the other lock's events only.
        TimelineFilter lock1;
        lock1.add(FilterItem::lock(1));
        const RangeStats l1 = RangeStats::whole(t, lock1);
        QCOMPARE(l1.locks.size(), std::size_t{1});
        QCOMPARE(l1.locks[0].lock, 1);
        QCOMPARE(l1.byKind[SimEvent::LockAcquire], std::uint64_t{1});
        QCOMPARE(l1.byKind[SimEvent::ExecBegin], std::uint64_t{2});
        QCOMPARE(l1.byKind[SimEvent::KernelLockWait], std::uint64_t{0});

        // A time item cuts the range.
        TimelineFilter late;
        late.add(FilterItem::timeRange(50, 60));
        const RangeStats lt = RangeStats::whole(t, late);
        QCOMPARE(lt.from, Time{50});
        QCOMPARE(lt.to, Time{60});
        QCOMPARE(lt.locks[1].holdTime, Time{5});
        QCOMPARE(lt.locks[1].waits, std::uint64_t{1});
    }

    void filterListIsShownAndEdited() {
        Timeline::Builder b(handHeader());
        for (const SimEvent& e : handEvents())
            b.add(e);
        const Timeline t = b.finish();
        TimelineFilter f;
        QVERIFY(f.add(FilterItem::lock(1)));
        QVERIFY(!f.add(FilterItem::lock(1)));  // duplicate
        QVERIFY(f.add(FilterItem::cpu(3)));
        QVERIFY(f.add(FilterItem::node(1)));
        QVERIFY(f.add(FilterItem::kind(SimEvent::LockWait)));
        QVERIFY(f.add(FilterItem::timeRange(1000, 2'500'000)));
        QVERIFY(f.add(FilterItem::timeRange(1500, 3'000'000)));  // replaces the first
        const std::vector<std::string> want = {"lock libc.so.6 lock 1", "CPU 3", "node 1",
                                               "events: lock_wait",
                                               "time 1.50 \xC2\xB5s to 3.000 ms"};
        QCOMPARE(f.describe(t), want);
        f.remove(1);
        QCOMPARE(f.items().size(), std::size_t{4});
        QCOMPARE(f.describe(t)[1], std::string("node 1"));
        QCOMPARE(formatTime(999), std::string("999 ns"));
        QCOMPARE(formatTime(2'000'000'000), std::string("2.000 s"));
    }

    void spansEqualBruteForceOnARecording() {
        const Recorded r = recordSmall("split-locks", 48, 3000);
        const Timeline t = Timeline::fromEvents(r.header, r.events);
        QCOMPARE(t.eventCount(), r.events.size());
        std::vector<SpanTuple> got;
        for (std::size_t i = 0; i < t.spanCount(); ++i)
            got.push_back(tupleOf(t, t.span(i)));
        std::sort(got.begin(), got.end());
        const auto want = bruteSpans(r.events, static_cast<int>(r.header.locks.size()));
        QVERIFY(want.size() > 1000);
        QCOMPARE(got.size(), want.size());
        QVERIFY(got == want);
        QVERIFY(t.windowStart().has_value());
        // Every lane holds only its CPU's spans; lanes come grouped by node.
        for (std::size_t l = 1; l < t.lanes().size(); ++l) {
            const auto &a = t.lanes()[l - 1], &b = t.lanes()[l];
            if (a.cpu >= 0 && b.cpu >= 0 && a.node >= 0 && b.node >= 0)
                QVERIFY(std::make_pair(a.node, a.cpu) < std::make_pair(b.node, b.cpu));
        }
    }

    void overlapAndLevelOfDetailEqualBruteForce() {
        const Recorded r = recordSmall("single", 24, 2000);
        const Timeline t = Timeline::fromEvents(r.header, r.events);
        std::mt19937_64 rng(7);
        const Time span = t.end() - t.begin();
        for (int round = 0; round < 60; ++round) {
            const int lane = static_cast<int>(rng() % t.lanes().size());
            Time from = t.begin() + static_cast<Time>(rng() % static_cast<std::uint64_t>(span));
            Time to = from + static_cast<Time>(rng() % static_cast<std::uint64_t>(span / 4 + 1));
            for (const SpanLayer layer : {SpanLayer::Activity, SpanLayer::Locks}) {
                std::vector<std::uint32_t> want;
                for (std::uint32_t i = 0; i < t.spanCount(); ++i) {
                    const TimelineSpan& s = t.span(i);
                    if (s.lane == lane && layerOf(s.kind) == layer && s.start < to &&
                        (s.end > from || s.start >= from))
                        want.push_back(i);
                }
                QCOMPARE(t.overlapping(lane, layer, from, to), want);
                // Resolution 0: every span its own item.
                const auto exact = t.query(lane, layer, from, to, 0);
                QCOMPARE(exact.size(), want.size());
                for (std::size_t i = 0; i < want.size(); ++i)
                    QCOMPARE(exact[i].span, want[i]);
                // A 200-pixel view: every span inside an item, the counts add up, and few
                // items beyond the spans long enough to stand alone.
                const Time res = std::max<Time>(1, (to - from) / 200);
                const auto items = t.query(lane, layer, from, to, res);
                std::uint64_t counted = 0, wide = 0;
                for (const TimelineItem& it : items)
                    counted += it.count;
                QCOMPARE(counted, static_cast<std::uint64_t>(want.size()));
                for (const std::uint32_t i : want) {
                    const TimelineSpan& s = t.span(i);
                    wide += s.duration() >= res;
                    QVERIFY(std::any_of(items.begin(), items.end(), [&](const TimelineItem& it) {
                        return it.start <= s.start && s.end <= it.end;
                    }));
                }
                QVERIFY(items.size() <= wide + 2 * 200 + 2);
            }
        }
    }

    void rangeStatisticsEqualBruteForce() {
        const Recorded r = recordSmall("split-locks", 48, 3000);
        const Timeline t = Timeline::fromEvents(r.header, r.events);
        BruteFilter base;
        for (std::size_t i = 0; i < r.header.copyCpus.size(); ++i)
            base.cpuNode[static_cast<int>(r.header.copyCpus[i])] = r.header.copyNodes[i];
        std::mt19937_64 rng(42);
        const Time span = t.end() - t.begin() + 1;
        for (int round = 0; round < 80; ++round) {
            Time from = t.begin() + static_cast<Time>(rng() % static_cast<std::uint64_t>(span));
            Time to = from + static_cast<Time>(rng() % static_cast<std::uint64_t>(span / 3));
            if (round == 0) std::tie(from, to) = std::make_pair(t.begin(), t.end() + 1);
            TimelineFilter f;
            BruteFilter bf = base;
            if (rng() % 3 == 0)
                for (int k = 0; k < 3; ++k) {
                    const int cpu = static_cast<int>(r.header.copyCpus[rng() % 48]);
                    f.add(FilterItem::cpu(cpu));
                    bf.cpus.insert(cpu);
                }
            if (rng() % 3 == 0) {
                const int node = static_cast<int>(rng() % 12);
                f.add(FilterItem::node(node));
                bf.nodes.insert(node);
            }
            if (rng() % 3 == 0)
                for (int k = 0; k < 2; ++k) {
                    const int lock = static_cast<int>(rng() % r.header.locks.size());
                    f.add(FilterItem::lock(lock));
                    bf.locks.insert(lock);
                }
            if (rng() % 4 == 0)
                for (int k : {SimEvent::LockAcquire, SimEvent::ExecEnd}) {
                    f.add(FilterItem::kind(k));
                    bf.kinds.insert(k);
                }
            Time bfFrom = from, bfTo = to;
            if (rng() % 4 == 0) {
                const Time a =
                    t.begin() + static_cast<Time>(rng() % static_cast<std::uint64_t>(span));
                const Time b = a + static_cast<Time>(rng() % static_cast<std::uint64_t>(span / 2));
                f.add(FilterItem::timeRange(a, b));
                bfFrom = std::max(from, a);
                bfTo = std::min(to, b);
            }
            const RangeStats got = RangeStats::of(t, f, from, to);
            const RangeStats want = bruteStats(r, bf, bfFrom, bfTo);
            compareStats(got, want);
            if (QTest::currentTestFailed()) {
                qWarning("round %d", round);
                return;
            }
        }
        // Contention happened at all, so the comparison meant something.
        const RangeStats all = RangeStats::whole(t, TimelineFilter{});
        std::uint64_t waits = 0;
        for (const auto& l : all.locks)
            waits += l.waits;
        QVERIFY(waits > 0);
    }
};

IMMAP_TEST_SUITE(TestTimeline);
#include "TestTimeline.moc"
