#include "live/LiveDriver.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "trace/TraceWriter.h"

namespace immap::live {

namespace {
// How far the clock moves between keepGoing checks: small enough that a frame budget is
// kept at 384 copies (tens of events per simulated microsecond), large enough to cost little.
constexpr sim::Time kSliceNs = 2'000;
}  // namespace

LiveDriver::LiveDriver(const LiveConfig& config) : config_(config) {
    if (config_.policies.empty()) throw std::invalid_argument("live: no policy to run");
    for (const mapping::Policy& p : config_.policies) {
        auto run = std::make_unique<Run>();
        run->state = std::make_unique<LiveState>(config_.rateWindow);
        sim::SimConfig c = config_.run;
        c.policy = p;
        c.observer = run->state.get();  // the set-up inserts too: the trees start full
        run->sim = std::make_unique<sim::Simulator>(c);
        run->state->begin(trace::headerFor(c, *run->sim));
        run->state->chooseTree(config_.file, config_.tree);
        runs_.push_back(std::move(run));
    }
}

LiveDriver::~LiveDriver() = default;

void LiveDriver::setSlowdown(double factor) {
    if (!(factor == factor)) return;  // NaN
    slowdown_ = std::clamp(factor, kMinSlowdown, kMaxSlowdown);
}

void LiveDriver::chooseTree(const std::string& file, int tree) {
    config_.file = file;
    config_.tree = tree;
    for (auto& r : runs_)
        r->state->chooseTree(file, tree);
}

sim::Time LiveDriver::tick(double wallSeconds, const std::function<bool()>& keepGoing) {
    if (paused_ || cancelled_ || !(wallSeconds > 0)) return 0;
    carry_ += wallSeconds * 1e9 / slowdown_;
    const double whole = std::floor(carry_);
    carry_ -= whole;
    return advanceTo(now_ + static_cast<sim::Time>(whole), keepGoing);
}

sim::Time LiveDriver::advanceTo(sim::Time target, const std::function<bool()>& keepGoing) {
    const sim::Time from = now_;
    // The clock moves on: the last step's captions no longer say what is on screen.
    if (target > now_)
        for (auto& r : runs_)
            r->state->clearStepCaptions();
    while (now_ < target && !cancelled_) {
        const sim::Time t = std::min(target, now_ + kSliceNs);
        for (auto& r : runs_)
            r->sim->runUntil(t);
        now_ = t;
        if (keepGoing && !keepGoing()) break;
    }
    return now_ - from;
}

bool LiveDriver::step() {
    if (cancelled_) return false;
    Run* first = nullptr;
    sim::Time at = 0;
    for (auto& r : runs_) {
        if (r->sim->nextEventTime() >= r->sim->endTime()) continue;  // over
        const sim::Time t = r->sim->nextEventTime();
        if (!first || t < at) {
            first = r.get();
            at = t;
        }
    }
    if (!first) return false;
    // Only the stepping run's captions are kept: the other's would describe an older step.
    for (auto& r : runs_) {
        r->state->clearStepCaptions();
        r->state->captureSteps(r.get() == first);
    }
    const bool stepped = first->sim->step();
    first->state->captureSteps(false);
    if (!stepped) return false;
    now_ = std::max(now_, at);
    return true;
}

bool LiveDriver::stepVisible(int maxEvents) {
    bool any = false;
    for (int i = 0; i < maxEvents; ++i) {
        if (!step()) return any;
        any = true;
        for (const auto& r : runs_)
            if (!r->state->stepCaptions().empty()) return true;
    }
    return any;
}

bool LiveDriver::finished() const {
    return std::all_of(runs_.begin(), runs_.end(),
                       [](const auto& r) { return r->sim->nextEventTime() >= r->sim->endTime(); });
}

std::uint64_t LiveDriver::eventsHandled() const {
    std::uint64_t n = 0;
    for (const auto& r : runs_)
        n += r->sim->eventsHandled();
    return n;
}

LiveSnapshot LiveDriver::snapshot(bool withTrees) {
    LiveSnapshot s;
    s.now = now_;
    s.slowdown = slowdown_;
    s.paused = paused_;
    s.cancelled = cancelled_;
    s.finished = finished();
    s.serial = ++serial_;
    for (auto& r : runs_) {
        RunSnapshot rs = r->state->snapshot(now_, withTrees);
        rs.now = r->sim->now();
        rs.events = r->sim->eventsHandled();
        rs.finished = r->sim->nextEventTime() >= r->sim->endTime();
        s.runs.push_back(std::move(rs));
    }
    return s;
}

}  // namespace immap::live
