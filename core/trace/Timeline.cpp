#include "trace/Timeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>

#include "trace/EventInterpreter.h"
#include "trace/EventListener.h"
#include "trace/TraceHeader.h"
#include "trace/TraceReader.h"

namespace immap::trace {

using sim::SimEvent;

const char* spanKindName(SpanKind k) {
    switch (k) {
        case SpanKind::Exec:
            return "exec";
        case SpanKind::Walk:
            return "whole-file walk";
        case SpanKind::Wait:
            return "waiting for";
        case SpanKind::Hold:
            return "holding";
        case SpanKind::KernelWait:
            return "kernel lock contention";
    }
    return "?";
}

std::string formatTime(Time ns) {
    char buf[48];
    const double a = std::fabs(static_cast<double>(ns));
    const double v = static_cast<double>(ns);
    if (a < 1e3) {
        std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
    } else if (a < 1e6) {
        std::snprintf(buf, sizeof buf, "%.*f \xC2\xB5s", a < 1e4 ? 2 : (a < 1e5 ? 1 : 0), v / 1e3);
    } else if (a < 1e9) {
        std::snprintf(buf, sizeof buf, "%.*f ms", a < 1e7 ? 3 : (a < 1e8 ? 2 : 1), v / 1e6);
    } else {
        std::snprintf(buf, sizeof buf, "%.3f s", v / 1e9);
    }
    return buf;
}

// --- building -----------------------------------------------------------------------------

// The spans under construction; what each event means is the interpreter's (lenient: an
// imported recording's contradictions still draw as they come).
struct Timeline::Builder::State final : EventListener {
    explicit State(const TraceHeader& h)
        : header(h), events(header, this, EventInterpreter::Options{false, true}) {
        for (std::size_t i = 0; i < h.copyCpus.size() && i < h.copyNodes.size(); ++i)
            cpuNode[static_cast<int>(h.copyCpus[i])] = h.copyNodes[i];
        for (const TraceLock& l : h.locks)
            t.lockNames_.push_back(l.name);
        headerLocks = h.locks.size();
    }
    TraceHeader header;
    EventInterpreter events;
    Timeline t;
    std::map<int, int> cpuNode;
    std::size_t headerLocks = 0;
    bool anyKernel = false;
    bool anyEvent = false;
    std::vector<TimelineSpan> spans;  // in opening order; lane holds nothing yet
    std::vector<int> spanCpu;
    std::vector<TimelinePoint> points;
    std::vector<int> pointCpu;
    std::set<int> cpus;
    // Open spans by key: the agent (exec, walk), agent and lock (wait, hold), agent and lock
    // address (kernel waits).
    std::unordered_map<std::int32_t, std::uint32_t> exec, walk;
    std::unordered_map<std::uint64_t, std::uint32_t> wait, hold;
    std::map<std::pair<std::int32_t, std::uint64_t>, std::uint32_t> kernel;
    // The event being added, as the timeline keeps it, and its index.
    TimelineEvent cur;
    std::uint32_t idx = 0;
    std::string contradiction;  // the interpreter's reason, unused

    static std::uint64_t key(std::int32_t agent, int lock) {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(agent)) << 32) |
               static_cast<std::uint32_t>(lock);
    }
    template <typename Map, typename Key>
    void open(Map& m, const Key& k, SpanKind kind) {
        // A second opening without a close ends the first one there, still marked unclosed.
        const auto it = m.find(k);
        if (it != m.end()) spans[it->second].end = cur.time;
        TimelineSpan s;
        s.start = cur.time;
        s.end = -1;
        s.open = idx;
        s.lock = cur.lock;
        s.kind = kind;
        s.mode = cur.mode;
        m[k] = static_cast<std::uint32_t>(spans.size());
        spans.push_back(s);
        spanCpu.push_back(cur.cpu);
    }
    template <typename Map, typename Key>
    void close(Map& m, const Key& k) {
        const auto it = m.find(k);
        if (it == m.end()) return;
        TimelineSpan& s = spans[it->second];
        s.end = std::max(s.start, cur.time);
        s.close = idx;
        m.erase(it);
    }
    void point() {
        points.push_back({cur.time, idx, cur.kind});
        pointCpu.push_back(cur.cpu);
    }

    void execBegan(const SimEvent&) override { open(exec, cur.agent, SpanKind::Exec); }
    void execEnded(const SimEvent&) override { close(exec, cur.agent); }
    void walkBegan(const SimEvent&) override { open(walk, cur.agent, SpanKind::Walk); }
    void walkEnded(const SimEvent&, Time) override { close(walk, cur.agent); }
    void waitBegan(const SimEvent&) override {
        open(wait, key(cur.agent, cur.lock), SpanKind::Wait);
    }
    void acquired(const SimEvent&, bool) override {
        close(wait, key(cur.agent, cur.lock));
        open(hold, key(cur.agent, cur.lock), SpanKind::Hold);
    }
    void released(const SimEvent&, bool) override { close(hold, key(cur.agent, cur.lock)); }
    void kernelWaitBegan(const SimEvent& e) override {
        open(kernel, std::make_pair(cur.agent, e.start), SpanKind::KernelWait);
    }
    void kernelAcquired(const SimEvent& e) override {
        close(kernel, std::make_pair(cur.agent, e.start));
    }
    void treeChanged(const SimEvent&) override { point(); }
    void walkArrived(const SimEvent&) override { point(); }
    void windowStarted(const SimEvent&) override {
        if (!t.windowStart_) t.windowStart_ = cur.time;
    }
};

Timeline::Builder::Builder(const TraceHeader& header) : d_(std::make_shared<State>(header)) {}

void Timeline::Builder::setCpuNodes(const std::vector<std::pair<int, int>>& cpuNode) {
    for (const auto& [cpu, node] : cpuNode)
        d_->cpuNode[cpu] = node;
}

void Timeline::Builder::add(const SimEvent& in) {
    State& s = *d_;
    Timeline& t = s.t;
    s.idx = static_cast<std::uint32_t>(t.events_.size());
    TimelineEvent& e = s.cur;
    e = {};
    e.time = in.time;
    e.agent = in.agent;
    e.cpu = in.cpu;
    e.kind = static_cast<std::uint8_t>(in.kind);
    e.mode = in.mode;
    const bool kernel =
        in.kind == SimEvent::KernelLockWait || in.kind == SimEvent::KernelLockAcquired;
    if (kernel) {
        e.lock = static_cast<std::int16_t>(s.headerLocks);
        s.anyKernel = true;
    } else if (in.lock >= 0 && static_cast<std::size_t>(in.lock) < s.headerLocks) {
        e.lock = static_cast<std::int16_t>(in.lock);
    }
    t.events_.push_back(e);
    t.begin_ = s.anyEvent ? std::min(t.begin_, e.time) : e.time;
    t.end_ = s.anyEvent ? std::max(t.end_, e.time) : e.time;
    s.anyEvent = true;
    if (in.kind != SimEvent::WindowStart) s.cpus.insert(e.cpu);
    s.events.apply(in, s.contradiction);  // drawn anyway: the timeline shows what was recorded
}

Timeline Timeline::Builder::finish() {
    State& s = *d_;
    Timeline& t = s.t;
    if (s.anyKernel) {
        t.kernelLock_ = static_cast<int>(s.headerLocks);
        t.lockNames_.push_back("kernel lock contention");
    }
    for (TimelineSpan& sp : s.spans)
        if (sp.close == kNoEvent && sp.end < 0) sp.end = std::max(sp.start, t.end_);

    // Lanes: grouped by node (unknown nodes last), CPUs ascending, the no-CPU lane last.
    for (const auto& [cpu, node] : s.cpuNode)
        t.cpuNode_.push_back({cpu, node});
    std::vector<int> cpus(s.cpus.begin(), s.cpus.end());
    auto nodeOf = [&](int cpu) { return t.nodeOfCpu(cpu); };
    std::sort(cpus.begin(), cpus.end(), [&](int a, int b) {
        const auto rank = [&](int c) {
            const int n = nodeOf(c);
            return std::make_tuple(c < 0, n < 0, n, c);
        };
        return rank(a) < rank(b);
    });
    std::unordered_map<int, int> laneOf;
    for (int cpu : cpus) {
        laneOf[cpu] = static_cast<int>(t.lanes_.size());
        TimelineLane l;
        l.cpu = cpu;
        l.node = nodeOf(cpu);
        t.lanes_.push_back(l);
        t.cpuLane_.push_back({cpu, laneOf[cpu]});
    }
    std::sort(t.cpuLane_.begin(), t.cpuLane_.end());

    // Spans grouped by lane and layer, by start within a group.
    for (std::size_t i = 0; i < s.spans.size(); ++i)
        s.spans[i].lane = static_cast<std::uint16_t>(laneOf[s.spanCpu[i]]);
    t.spans_ = std::move(s.spans);
    auto spanKey = [](const TimelineSpan& x) {
        return std::make_tuple(x.lane, static_cast<int>(layerOf(x.kind)), x.start, x.open);
    };
    std::sort(t.spans_.begin(), t.spans_.end(), [&](const TimelineSpan& a, const TimelineSpan& b) {
        return spanKey(a) < spanKey(b);
    });
    for (TimelineLane& l : t.lanes_)
        for (int layer = 0; layer < 2; ++layer)
            l.spanBegin[static_cast<std::size_t>(layer)] =
                l.spanEnd[static_cast<std::size_t>(layer)] = 0;
    t.spanMaxEnd_.resize(t.spans_.size());
    for (std::size_t i = 0; i < t.spans_.size(); ++i) {
        const TimelineSpan& x = t.spans_[i];
        const auto layer = static_cast<std::size_t>(layerOf(x.kind));
        TimelineLane& l = t.lanes_[x.lane];
        const bool first = i == 0 || t.spans_[i - 1].lane != x.lane ||
                           layerOf(t.spans_[i - 1].kind) != layerOf(x.kind);
        if (first) l.spanBegin[layer] = static_cast<std::uint32_t>(i);
        l.spanEnd[layer] = static_cast<std::uint32_t>(i + 1);
        t.spanMaxEnd_[i] = first ? x.end : std::max(t.spanMaxEnd_[i - 1], x.end);
    }

    // Points by lane, then time.
    std::vector<std::uint32_t> order(s.points.size());
    std::iota(order.begin(), order.end(), 0u);
    std::vector<int> pointLane(s.points.size());
    for (std::size_t i = 0; i < s.points.size(); ++i)
        pointLane[i] = laneOf[s.pointCpu[i]];
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return std::make_tuple(pointLane[a], s.points[a].time, s.points[a].event) <
               std::make_tuple(pointLane[b], s.points[b].time, s.points[b].event);
    });
    t.points_.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        const int lane = pointLane[order[i]];
        TimelineLane& l = t.lanes_[static_cast<std::size_t>(lane)];
        if (i == 0 || pointLane[order[i - 1]] != lane) l.pointBegin = static_cast<std::uint32_t>(i);
        l.pointEnd = static_cast<std::uint32_t>(i + 1);
        t.points_.push_back(s.points[order[i]]);
    }

    t.byTime_.resize(t.events_.size());
    std::iota(t.byTime_.begin(), t.byTime_.end(), 0u);
    std::stable_sort(t.byTime_.begin(), t.byTime_.end(), [&](std::uint32_t a, std::uint32_t b) {
        return t.events_[a].time < t.events_[b].time;
    });

    // Per-lock span lists: [0] waits (kernel waits for the kernel lock), [1] holds.
    t.lockSpans_.assign(t.lockNames_.size(), {});
    t.lockMaxEnd_.assign(t.lockNames_.size(), {});
    for (std::size_t i = 0; i < t.spans_.size(); ++i) {
        const TimelineSpan& x = t.spans_[i];
        if (x.lock < 0 || static_cast<std::size_t>(x.lock) >= t.lockSpans_.size()) continue;
        t.lockSpans_[static_cast<std::size_t>(x.lock)][x.kind == SpanKind::Hold ? 1 : 0].push_back(
            static_cast<std::uint32_t>(i));
    }
    for (std::size_t l = 0; l < t.lockSpans_.size(); ++l)
        for (std::size_t k = 0; k < 2; ++k) {
            auto& v = t.lockSpans_[l][k];
            std::sort(v.begin(), v.end(), [&](std::uint32_t a, std::uint32_t b) {
                return std::make_pair(t.spans_[a].start, a) < std::make_pair(t.spans_[b].start, b);
            });
            auto& m = t.lockMaxEnd_[l][k];
            m.resize(v.size());
            for (std::size_t i = 0; i < v.size(); ++i)
                m[i] = i ? std::max(m[i - 1], t.spans_[v[i]].end) : t.spans_[v[i]].end;
        }
    Timeline out = std::move(t);
    d_ = std::make_shared<State>(s.header);
    return out;
}

Timeline Timeline::fromEvents(const TraceHeader& header, const std::vector<SimEvent>& events) {
    Builder b(header);
    for (const SimEvent& e : events)
        b.add(e);
    return b.finish();
}

Timeline Timeline::fromReader(TraceReader& reader) {
    Builder b(reader.header());
    SimEvent e;
    while (reader.next(e))
        b.add(e);
    return b.finish();
}

// --- looking things up --------------------------------------------------------------------

int Timeline::laneOfCpu(int cpu) const {
    const auto it = std::lower_bound(cpuLane_.begin(), cpuLane_.end(), std::make_pair(cpu, -1));
    return it != cpuLane_.end() && it->first == cpu ? it->second : -1;
}

int Timeline::nodeOfCpu(int cpu) const {
    if (cpu < 0) return -1;
    const auto it = std::lower_bound(cpuNode_.begin(), cpuNode_.end(),
                                     std::make_pair(cpu, std::numeric_limits<int>::min()));
    return it != cpuNode_.end() && it->first == cpu ? it->second : -1;
}

std::vector<int> Timeline::nodes() const {
    std::vector<int> out;
    for (const TimelineLane& l : lanes_)
        if (out.empty() || out.back() != l.node) out.push_back(l.node);
    return out;
}

template <typename Fn>
void Timeline::forEachOverlapping(int lane, SpanLayer layer, Time from, Time to, Fn&& fn) const {
    if (lane < 0 || static_cast<std::size_t>(lane) >= lanes_.size() || to <= from) return;
    const TimelineLane& l = lanes_[static_cast<std::size_t>(lane)];
    const auto k = static_cast<std::size_t>(layer);
    // The running maximum of ends is sorted: every span before the first one reaching `from`
    // ends before it.
    const auto b = spanMaxEnd_.begin() + l.spanBegin[k];
    const auto e = spanMaxEnd_.begin() + l.spanEnd[k];
    for (auto i = static_cast<std::size_t>(std::lower_bound(b, e, from) - spanMaxEnd_.begin());
         i < l.spanEnd[k] && spans_[i].start < to; ++i)
        if (spans_[i].end > from || spans_[i].start >= from) fn(static_cast<std::uint32_t>(i));
}

std::vector<std::uint32_t> Timeline::overlapping(int lane, SpanLayer layer, Time from,
                                                 Time to) const {
    std::vector<std::uint32_t> out;
    forEachOverlapping(lane, layer, from, to, [&](std::uint32_t i) { out.push_back(i); });
    return out;
}

std::vector<TimelineItem> Timeline::query(int lane, SpanLayer layer, Time from, Time to,
                                          Time resolution) const {
    std::vector<TimelineItem> out;
    TimelineItem pend;
    bool has = false;
    std::array<Time, kSpanKinds> weight{};
    auto flush = [&] {
        if (!has) return;
        if (pend.count > 1) {
            // The kind covering most time; ties go to the lock states, drawn on top.
            int best = 0;
            for (int k = 1; k < kSpanKinds; ++k)
                if (weight[static_cast<std::size_t>(k)] >= weight[static_cast<std::size_t>(best)])
                    best = k;
            pend.kind = static_cast<SpanKind>(best);
        }
        pend.covered = std::min(pend.covered, pend.end - pend.start);
        out.push_back(pend);
        has = false;
        weight.fill(0);
    };
    forEachOverlapping(lane, layer, from, to, [&](std::uint32_t i) {
        const TimelineSpan& s = spans_[i];
        const Time d = s.duration();
        if (d >= resolution) {
            flush();
            out.push_back({s.start, s.end, i, 1, d, s.kind});
            return;
        }
        if (has && s.start - pend.end < resolution) {
            pend.end = std::max(pend.end, s.end);
            ++pend.count;
            pend.covered += d;
        } else {
            flush();
            pend = {s.start, s.end, i, 1, d, s.kind};
            has = true;
        }
        weight[static_cast<std::size_t>(s.kind)] += d + 1;
    });
    flush();
    return out;
}

std::vector<TimelinePointItem> Timeline::queryPoints(int lane, Time from, Time to,
                                                     Time resolution) const {
    std::vector<TimelinePointItem> out;
    if (lane < 0 || static_cast<std::size_t>(lane) >= lanes_.size() || to <= from) return out;
    const TimelineLane& l = lanes_[static_cast<std::size_t>(lane)];
    auto it = std::lower_bound(points_.begin() + l.pointBegin, points_.begin() + l.pointEnd, from,
                               [](const TimelinePoint& p, Time t) { return p.time < t; });
    for (; it != points_.begin() + l.pointEnd && it->time < to; ++it) {
        if (!out.empty() && resolution > 0 && it->time - out.back().last < resolution) {
            TimelinePointItem& m = out.back();
            m.last = it->time;
            ++m.count;
            m.mixed = m.mixed || m.kind != it->kind;
            continue;
        }
        out.push_back({it->time, it->time, it->event, 1, it->kind, false});
    }
    return out;
}

std::optional<std::uint32_t> Timeline::spanAt(int lane, Time t, Time tolerance) const {
    for (const SpanLayer layer : {SpanLayer::Locks, SpanLayer::Activity}) {
        std::optional<std::uint32_t> best;
        Time bestDist = 0;
        forEachOverlapping(lane, layer, t - tolerance - 1, t + tolerance + 1, [&](std::uint32_t i) {
            const TimelineSpan& s = spans_[i];
            const Time dist = t < s.start ? s.start - t : (t >= s.end ? t - s.end : 0);
            if (dist > tolerance) return;
            if (!best || dist < bestDist ||
                (dist == bestDist && s.duration() < spans_[*best].duration())) {
                best = i;
                bestDist = dist;
            }
        });
        if (best) return best;
    }
    return std::nullopt;
}

std::optional<std::uint32_t> Timeline::pointAt(int lane, Time t, Time tolerance) const {
    std::optional<std::uint32_t> best;
    Time bestDist = 0;
    if (lane < 0 || static_cast<std::size_t>(lane) >= lanes_.size()) return best;
    const TimelineLane& l = lanes_[static_cast<std::size_t>(lane)];
    auto it =
        std::lower_bound(points_.begin() + l.pointBegin, points_.begin() + l.pointEnd,
                         t - tolerance, [](const TimelinePoint& p, Time x) { return p.time < x; });
    for (; it != points_.begin() + l.pointEnd && it->time <= t + tolerance; ++it) {
        const Time dist = it->time > t ? it->time - t : t - it->time;
        if (!best || dist < bestDist) {
            best = it->event;
            bestDist = dist;
        }
    }
    return best;
}

}  // namespace immap::trace
