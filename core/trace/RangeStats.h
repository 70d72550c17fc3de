#pragma once
// Statistics over a time range of a timeline, through a filter (TimelineFilter): what an area
// selected on the timeline shows. The range is half-open, [from, to), in trace time (ns), and
// cut to the filter's time item if it has one.
//  - events: events whose time lies in the range, by kind; execs = exec ends among them;
//  - per lock (those the filter lets through): waits = completed waits that start in the
//    range, with their mean and longest full length; holds = holds that start in the range;
//    hold time = every hold's time inside the range, added up (readers together count each);
//    utilisation = the share of the range during which at least one holder held it.
// A wait or hold counts when the event opening it passes the filter.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "trace/ExecRate.h"
#include "trace/Timeline.h"
#include "trace/TimelineFilter.h"

namespace immap::trace {

struct LockRangeStats {
    int lock = -1;
    std::string name;
    std::uint64_t waits = 0;
    Time waitTotal = 0;
    Time waitMax = 0;
    std::uint64_t holds = 0;
    Time holdTime = 0;
    Time heldTime = 0;  // time with at least one holder
    double utilisation = 0;
    double meanWait() const {
        return waits ? static_cast<double>(waitTotal) / static_cast<double>(waits) : 0.0;
    }
};

struct RangeStats {
    Time from = 0;
    Time to = 0;
    std::uint64_t events = 0;
    std::array<std::uint64_t, kEventKinds> byKind{};
    std::uint64_t execs = 0;
    std::vector<LockRangeStats> locks;

    double execsPerSecond() const {
        return to > from ? static_cast<double>(execs) * 1e9 / static_cast<double>(to - from) : 0.0;
    }
    // What every reader of a trace says of its throughput (ExecRate), over this range.
    ExecRate execRate() const { return {byKind[sim::SimEvent::ExecBegin], execs, to - from}; }
    static RangeStats of(const Timeline& t, const TimelineFilter& filter, Time from, Time to);
    // Over the whole trace: [begin, end + 1).
    static RangeStats whole(const Timeline& t, const TimelineFilter& filter) {
        return of(t, filter, t.begin(), t.end() + 1);
    }
};

}  // namespace immap::trace
