#pragma once
// A trace's events as a timeline (docs/architecture.md, "Traces: record and replay"): one lane per
// CPU holding spans (an exec, a whole-file walk, a wait for lock L, a hold of lock L) with their
// start and end in simulated time and the events that open and close them, and point events (tree
// insert and remove, a walker's arrival). Built once from the events; then queried per lane and
// time range with a level of detail (spans narrower than the resolution are merged), hit-tested,
// and summed over a range (RangeStats). No widgets: views draw what query() returns.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/Simulator.h"
#include "sim/Time.h"

namespace immap::trace {

class TraceReader;
struct TraceHeader;

using sim::Time;

inline constexpr int kEventKinds = sim::SimEvent::WalkGiveUp + 1;  // the last kind
inline constexpr std::uint32_t kNoEvent = 0xffffffffu;

enum class SpanKind : std::uint8_t { Exec, Walk, Wait, Hold, KernelWait };
inline constexpr int kSpanKinds = 5;
const char* spanKindName(SpanKind k);

// Spans in a lane come in two layers that may overlap each other: what the CPU is doing (an
// exec, a walk) and, drawn on top, what it is doing with locks (waiting, holding).
enum class SpanLayer : std::uint8_t { Activity = 0, Locks = 1 };
inline SpanLayer layerOf(SpanKind k) {
    return k == SpanKind::Exec || k == SpanKind::Walk ? SpanLayer::Activity : SpanLayer::Locks;
}

// What the timeline keeps of each event: enough for statistics, filters and inspection.
struct TimelineEvent {
    Time time = 0;
    std::int32_t agent = 0;
    std::int32_t cpu = -1;
    std::int16_t lock = -1;  // the lock index; kernel tracepoint waits use kernelLock()
    std::uint8_t kind = 0;   // sim::SimEvent::Kind
    std::uint8_t mode = 0;   // 0 write, 1 read
};

struct TimelineSpan {
    Time start = 0;
    Time end = 0;                    // a span still open at the trace's end ends there
    std::uint32_t open = 0;          // index of the event that opens it
    std::uint32_t close = kNoEvent;  // and of the one that closes it (kNoEvent: never closed)
    std::uint16_t lane = 0;
    std::int16_t lock = -1;  // waits and holds
    SpanKind kind = SpanKind::Exec;
    std::uint8_t mode = 0;  // waits and holds: 0 write, 1 read
    Time duration() const { return end - start; }
};

struct TimelinePoint {
    Time time = 0;
    std::uint32_t event = 0;
    std::uint8_t kind = 0;  // sim::SimEvent::Kind: TreeInsert, TreeRemove or WalkArrive
};

struct TimelineLane {
    int cpu = -1;   // -1: events with no CPU (set-up)
    int node = -1;  // -1: not known
    // Ranges into the timeline's span array, one per layer, sorted by start.
    std::array<std::uint32_t, 2> spanBegin{}, spanEnd{};
    std::uint32_t pointBegin = 0, pointEnd = 0;
};

// What to draw for a lane's layer at a resolution: a span of its own, or several spans
// narrower than the resolution merged into one item (count > 1) coloured by the kind that
// covers most of it; covered is the time its spans cover (<= end - start).
struct TimelineItem {
    Time start = 0;
    Time end = 0;
    std::uint32_t span = 0;  // the (first) span's index
    std::uint32_t count = 1;
    Time covered = 0;
    SpanKind kind = SpanKind::Exec;
};

struct TimelinePointItem {
    Time time = 0;
    Time last = 0;
    std::uint32_t event = 0;  // the first point's event
    std::uint32_t count = 1;
    std::uint8_t kind = 0;
    bool mixed = false;  // merged points of more than one kind
};

class Timeline {
public:
    // Feeds events in trace order; event indexes are the order of add() (0-based).
    class Builder {
    public:
        explicit Builder(const TraceHeader& header);
        // CPU OS index -> NUMA node, for CPUs the header's copy placement does not name
        // (walkers run anywhere); overrides the header's.
        void setCpuNodes(const std::vector<std::pair<int, int>>& cpuNode);
        void add(const sim::SimEvent& e);
        Timeline finish();

    private:
        struct State;
        std::shared_ptr<State> d_;
    };

    Timeline() = default;
    static Timeline fromEvents(const TraceHeader& header, const std::vector<sim::SimEvent>& events);
    // Reads the rest of the trace (a trace cut short gives the timeline of what came before).
    static Timeline fromReader(TraceReader& reader);

    bool empty() const { return events_.empty(); }
    Time begin() const { return begin_; }  // the earliest event's time
    Time end() const { return end_; }      // the latest
    std::optional<Time> windowStart() const { return windowStart_; }

    std::size_t eventCount() const { return events_.size(); }
    const TimelineEvent& event(std::size_t i) const { return events_[i]; }
    std::size_t spanCount() const { return spans_.size(); }
    const TimelineSpan& span(std::size_t i) const { return spans_[i]; }
    const std::vector<TimelineLane>& lanes() const { return lanes_; }
    const TimelinePoint& point(std::size_t i) const { return points_[i]; }
    int laneOfCpu(int cpu) const;
    int nodeOfCpu(int cpu) const;
    std::vector<int> nodes() const;  // the nodes lanes are grouped by, ascending (-1 last)

    // Lock names as in the header, plus "kernel lock contention" when the trace has kernel
    // tracepoint waits (then kernelLock() is its index; else -1).
    const std::vector<std::string>& lockNames() const { return lockNames_; }
    int kernelLock() const { return kernelLock_; }

    // Span indexes of a lane's layer overlapping [from, to) (a zero-length span at `from` or
    // later counts), in start order.
    std::vector<std::uint32_t> overlapping(int lane, SpanLayer layer, Time from, Time to) const;
    // The same spans to draw at `resolution` ns per pixel: any span at least that long stays
    // whole; runs of shorter ones, each within `resolution` of the previous, merge.
    std::vector<TimelineItem> query(int lane, SpanLayer layer, Time from, Time to,
                                    Time resolution) const;
    std::vector<TimelinePointItem> queryPoints(int lane, Time from, Time to, Time resolution) const;
    // The span drawn at time t in a lane (locks on top of activity), or the nearest one within
    // `tolerance`; a point event within `tolerance` with pointAt.
    std::optional<std::uint32_t> spanAt(int lane, Time t, Time tolerance) const;
    std::optional<std::uint32_t> pointAt(int lane, Time t, Time tolerance) const;

    // Spans of one lock, by kind (Wait or Hold; KernelWait for kernelLock()), sorted by start,
    // with the running maximum of their ends (for range searches).
    const std::vector<std::uint32_t>& lockSpans(int lock, bool holds) const {
        return lockSpans_[static_cast<std::size_t>(lock)][holds ? 1 : 0];
    }
    const std::vector<Time>& lockSpanMaxEnd(int lock, bool holds) const {
        return lockMaxEnd_[static_cast<std::size_t>(lock)][holds ? 1 : 0];
    }
    // Event indexes sorted by time (stable: trace order among equal times).
    const std::vector<std::uint32_t>& eventsByTime() const { return byTime_; }

private:
    friend class Builder;
    // Calls fn(index) for each span overlapping() returns, without building the list.
    template <typename Fn>
    void forEachOverlapping(int lane, SpanLayer layer, Time from, Time to, Fn&& fn) const;

    std::vector<TimelineEvent> events_;
    std::vector<std::uint32_t> byTime_;
    std::vector<TimelineSpan> spans_;    // grouped by lane and layer, each group by start
    std::vector<Time> spanMaxEnd_;       // running max of end within each group
    std::vector<TimelinePoint> points_;  // grouped by lane, by time
    std::vector<TimelineLane> lanes_;
    std::vector<std::pair<int, int>> cpuLane_;  // (cpu, lane) sorted by cpu
    std::vector<std::pair<int, int>> cpuNode_;  // (cpu, node) sorted by cpu
    std::vector<std::string> lockNames_;
    int kernelLock_ = -1;
    // Per lock: [0] waits (or kernel waits), [1] holds; span indexes sorted by start.
    std::vector<std::array<std::vector<std::uint32_t>, 2>> lockSpans_;
    std::vector<std::array<std::vector<Time>, 2>> lockMaxEnd_;
    Time begin_ = 0, end_ = 0;
    std::optional<Time> windowStart_;
};

// "750 ns", "12.5 µs", "3.20 ms", "1.500 s": a duration or time in the unit that suits it.
std::string formatTime(Time ns);

}  // namespace immap::trace
