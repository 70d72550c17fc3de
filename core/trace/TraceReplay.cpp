#include "trace/TraceReplay.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "itree/Node.h"
#include "mapping/Policy.h"
#include "sim/ResultMath.h"

namespace immap::trace {

using sim::SimEvent;
using Phase = sim::PhaseClock::Phase;

TraceReplay::TraceReplay(const TraceHeader& header)
    : header_(header), state_(header, this, EventInterpreter::Options{}) {
    state_.setTouchObserver(&reads_);
    fileOps_.resize(header.files.size());
    // The recorded handoff timeout decides grants as it did in the run (traces from before it
    // existed had no spinners apart from sleepers, so the default changes nothing for them).
    sim::CostParams params;
    std::string ignored;
    if (const auto it = header.params.find("handoff_timeout_ns"); it != header.params.end())
        params.set(it->first, it->second, ignored);  // out of range: the default
    locks_.reserve(header.locks.size());
    for (std::size_t i = 0; i < header.locks.size(); ++i)
        locks_.emplace_back(0, static_cast<sim::Time>(std::llround(params.handoffTimeoutNs)));
    // The window ends by the recorded rule; traces from before window_execs had a fixed one.
    params.windowExecs = 0;
    params.windowTotalExecs = 0;
    for (const char* name : {"window_execs", "window_total_execs", "window_max_ms"})
        if (const auto it = header.params.find(name); it != header.params.end())
            params.set(it->first, it->second, ignored);
    window_ = sim::MeasureWindow(header.durationMs, params.windowExecs, params.windowMaxMs,
                                 header.copies, params.windowTotalExecs);
    end_ = std::numeric_limits<std::int64_t>::max() / 2;
}

struct TraceReplay::Snapshot {
    std::shared_ptr<const EventInterpreter::Snapshot> state;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> fileOps;
    std::vector<sim::RwSemModel> locks;
    std::vector<Copy> copies;
    bool inWindow = false, started = false;
    std::int64_t windowStart = 0, end = 0, now = 0;
    sim::MeasureWindow window;
    sim::WaitHistogram walkLatencies;
    std::uint64_t walksSkipped = 0;
    std::uint64_t events = 0, reads = 0;
    sim::CostCounters costs;
};

std::shared_ptr<const TraceReplay::Snapshot> TraceReplay::snapshot() const {
    auto s = std::make_shared<Snapshot>();
    s->state = state_.snapshot();
    s->fileOps = fileOps_;
    s->locks = locks_;
    s->copies = copies_;
    s->inWindow = inWindow_;
    s->started = started_;
    s->windowStart = windowStart_;
    s->end = end_;
    s->window = window_;
    s->now = now_;
    s->walkLatencies = walkLatencies_;
    s->walksSkipped = walksSkipped_;
    s->events = events_;
    s->reads = reads_.reads;
    s->costs = costs_;
    return s;
}

void TraceReplay::restore(const Snapshot& s) {
    state_.restore(*s.state);
    fileOps_ = s.fileOps;
    locks_ = s.locks;
    copies_ = s.copies;
    inWindow_ = s.inWindow;
    started_ = s.started;
    windowStart_ = s.windowStart;
    end_ = s.end;
    window_ = s.window;
    now_ = s.now;
    walkLatencies_ = s.walkLatencies;
    walksSkipped_ = s.walksSkipped;
    events_ = s.events;
    reads_.reads = s.reads;
    costs_ = s.costs;
}

TraceReplay::Copy* TraceReplay::copy(std::int32_t id) {
    if (!state_.isCopy(id) || id >= kDenseCopies) return nullptr;
    if (static_cast<std::size_t>(id) >= copies_.size())
        copies_.resize(static_cast<std::size_t>(id) + 1);
    return &copies_[static_cast<std::size_t>(id)];
}

// A copy asking for the first lock of a hold starts waiting (the simulator's beginLocked).
void TraceReplay::beginWaiting(const SimEvent& e) {
    Copy* c = copy(e.agent);
    if (c && (c->clock.phase == Phase::Work || c->clock.phase == Phase::Idle))
        c->clock.set(Phase::Wait, e.time, inWindow_, windowStart_);
}

void TraceReplay::waitBegan(const SimEvent& e) {
    beginWaiting(e);
    if (locks_[static_cast<std::size_t>(e.lock)].acquire(
            e.time, static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.agent)),
            e.mode ? sim::RwSemModel::Mode::Read : sim::RwSemModel::Mode::Write, e.spin && !e.mode))
        failure_ = "a wait for a lock that was free";
}

// A spinner gave up: it sleeps on the wait list from now (the model throws if it was not
// spinning; apply() reports that).
void TraceReplay::waitSlept(const SimEvent& e) {
    locks_[static_cast<std::size_t>(e.lock)].stopSpinning(
        e.time, static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.agent)));
}

void TraceReplay::acquired(const SimEvent& e, bool afterWait) {
    // Every copy hold has exactly one write lock, and its critical section starts as that lock
    // is granted: count holds there, as the simulator does.
    if (!e.mode && started_ && state_.isCopy(e.agent)) ++costs_.holds;
    if (afterWait) return;  // granted by the release just replayed
    beginWaiting(e);
    if (!locks_[static_cast<std::size_t>(e.lock)].acquire(
            e.time, static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.agent)),
            e.mode ? sim::RwSemModel::Mode::Read : sim::RwSemModel::Mode::Write))
        failure_ = "an acquisition of a lock that was not free";
}

void TraceReplay::released(const SimEvent& e, bool lastHeld) {
    // The hold's last lock let go: the copy is back to unlocked work.
    if (lastHeld)
        if (Copy* c = copy(e.agent)) c->clock.set(Phase::Work, e.time, inWindow_, windowStart_);
    locks_[static_cast<std::size_t>(e.lock)].release(
        e.time, static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.agent)));
}

void TraceReplay::treeOpBegins(const SimEvent& e) {
    Copy* c = copy(e.agent);
    // A hold's first tree operation: its critical section has begun.
    if (c && c->clock.phase == Phase::Wait)
        c->clock.set(Phase::Hold, e.time, inWindow_, windowStart_);
    reads_.on = started_ && state_.isCopy(e.agent);
    if (reads_.on) ++costs_.treeOps;
}

void TraceReplay::treeChanged(const SimEvent& e) {
    auto& ops = fileOps_[static_cast<std::size_t>(e.file)];
    ++(e.kind == SimEvent::TreeInsert ? ops.first : ops.second);
}

void TraceReplay::execBegan(const SimEvent&) {
    started_ = true;
}

void TraceReplay::execEnded(const SimEvent& e) {
    Copy* c = copy(e.agent);
    if (!c) return;
    c->execs.ended(e.time, inWindow_, end_);
    if (inWindow_ && e.time <= end_) end_ = window_.counted(c->execs.count, e.time);
}

void TraceReplay::walkEnded(const SimEvent& e, sim::Time arrival) {
    sim::walkEnded(walkLatencies_, arrival, e.time, inWindow_, windowStart_, end_);
}

void TraceReplay::walkGaveUp(const SimEvent& e) {
    sim::walkGaveUp(walksSkipped_, e.time, inWindow_, end_);
}

void TraceReplay::windowStarted(const SimEvent& e) {
    inWindow_ = true;
    windowStart_ = e.time;
    end_ = window_.open(e.time);
    for (auto& l : locks_)
        l.resetStats(e.time);
    for (Copy& c : copies_)
        c.clock.windowOpened(e.time);
}

bool TraceReplay::apply(const SimEvent& e, std::string& reason) {
    ++events_;
    now_ = std::max(now_, e.time);
    const bool lockEvent = e.kind == SimEvent::LockWait || e.kind == SimEvent::LockAcquire ||
                           e.kind == SimEvent::LockRelease || e.kind == SimEvent::LockSleep;
    // The window's statistics end at end_: a lock event past it means the header's duration
    // does not belong to these events (the simulator records nothing after its window).
    if (lockEvent && inWindow_ && e.time > end_) {
        reason = "a lock event at " + std::to_string(e.time) +
                 " ns comes after the measured window's end at " + std::to_string(end_) +
                 " ns: the header's duration_ms (" + std::to_string(header_.durationMs) +
                 ") is shorter than the recording";
        return false;
    }
    try {
        if (!state_.apply(e, reason)) return false;
    } catch (const std::invalid_argument&) {  // the lock model refuses what cannot happen
        reason = "the event's time goes back before the lock's previous event";
        return false;
    } catch (const std::logic_error&) {  // the interpreter refuses these first
        reason = "agent " + std::to_string(e.agent) + " makes a lock call its lock cannot take";
        return false;
    }
    if (!failure_.empty()) {
        reason = std::move(failure_);
        failure_.clear();
        return false;
    }
    return true;
}

void TraceReplay::endsEarlyAt(std::int64_t time) {
    if (inWindow_) end_ = std::clamp(time, windowStart_, end_);
}

sim::SimResult TraceReplay::result() const {
    sim::SimResult r;
    r.policy = header_.policy;
    r.topology = header_.topology;
    r.recipe = header_.recipe;
    r.copies = header_.copies;
    r.seed = header_.seed;
    r.walkersPerSecond = header_.walkersPerSecond;
    std::string ignored;  // a parameter this build does not know keeps its default
    for (const auto& [name, value] : header_.params)
        r.params.set(name, value, ignored);
    // A recorded run ends at its window's end (its last events may come a little before).
    const std::int64_t at = inWindow_ ? end_ : now_;
    const std::int64_t from = inWindow_ ? windowStart_ : at;
    r.durationMs = static_cast<double>(at - from) / 1e6;
    r.warmupMs = static_cast<double>(from) / 1e6;
    // The simulator's estimator, over the copies (agents 0..copies-1).
    std::vector<sim::CopyExecs> execs;
    for (const Copy& c : copies_) {
        r.execs += c.execs.count;
        execs.push_back(c.execs);
    }
    r.execsPerSecond = sim::execsPerSecond(execs, from, at);
    r.execsPerCopyMin = sim::fewestExecs(execs);
    if (header_.copyCpus.size() == header_.copies) {
        static const sim::PhaseClock idle;
        std::vector<sim::CopyPlace> places;
        for (unsigned c = 0; c < header_.copies; ++c)
            places.push_back({header_.copyCpus[c], header_.copyNodes[c],
                              c < copies_.size() ? &copies_[c].clock : &idle});
        r.cpus = sim::cpuSplit(places, at, from, inWindow_);
    }
    for (std::size_t i = 0; i < locks_.size(); ++i)
        r.locks.push_back(
            {header_.locks[i].name, header_.locks[i].file, locks_[i].stats(std::max(at, from))});
    std::size_t trees = 1, linked = 0;
    for (std::size_t f = 0; f < state_.fileCount(); ++f) {
        trees = std::max(trees, state_.trees(static_cast<int>(f)).size());
        r.files.push_back(sim::summarizeFile(header_.files[f], state_.trees(static_cast<int>(f)),
                                             fileOps_[f].first, fileOps_[f].second));
        linked += r.files.back().finalVmas;
    }
    mapping::Policy policy;
    std::string error;
    if (mapping::Policy::parse(header_.policy, policy, error)) {
        r.memoryPerInodeBytes = policy.memoryPerInodeBytes(trees);
        // The rbtree's linkage is fixed per VMA; a B-tree run's depends on its nodes, which a
        // trace (operations, not structure) does not hold: 0, unknown.
        if (policy.structure == mapping::Policy::Structure::RbTree && linked > 0)
            r.linkBytesPerVma = static_cast<double>(itree::kLinkageBytes);
    }
    sim::CostCounters costs = costs_;
    costs.reads = reads_.reads;
    costs.writeTo(r);
    r.walks = walkLatencies_.count();
    r.walksSkipped = walksSkipped_;
    sim::latencyStats(walkLatencies_, r.walkerLatencyMeanNs, r.walkerLatencyP99Ns);
    return r;
}

}  // namespace immap::trace
