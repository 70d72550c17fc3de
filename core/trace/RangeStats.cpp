#include "trace/RangeStats.h"

#include <algorithm>

namespace immap::trace {

using sim::SimEvent;

RangeStats RangeStats::of(const Timeline& t, const TimelineFilter& filter, Time from, Time to) {
    RangeStats r;
    std::tie(r.from, r.to) = filter.clip(from, to);
    const bool any = r.to > r.from;
    const TimelineFilter::Compiled pass = filter.compile(t);

    if (any) {
        const auto& order = t.eventsByTime();
        auto it = std::lower_bound(order.begin(), order.end(), r.from,
                                   [&](std::uint32_t i, Time x) { return t.event(i).time < x; });
        for (; it != order.end() && t.event(*it).time < r.to; ++it) {
            const TimelineEvent& e = t.event(*it);
            if (!pass.passes(e)) continue;
            ++r.events;
            ++r.byKind[e.kind];
        }
        r.execs = r.byKind[SimEvent::ExecEnd];
    }

    for (int l = 0; l < static_cast<int>(t.lockNames().size()); ++l) {
        if (!filter.passesLock(l)) continue;
        LockRangeStats s;
        s.lock = l;
        s.name = t.lockNames()[static_cast<std::size_t>(l)];
        if (any) {
            // Waits by their start: sorted by start, so a plain search finds the first.
            const auto& waits = t.lockSpans(l, false);
            auto w = std::lower_bound(waits.begin(), waits.end(), r.from,
                                      [&](std::uint32_t i, Time x) { return t.span(i).start < x; });
            for (; w != waits.end() && t.span(*w).start < r.to; ++w) {
                const TimelineSpan& sp = t.span(*w);
                if (sp.close == kNoEvent || !pass.passes(t.event(sp.open))) continue;
                ++s.waits;
                s.waitTotal += sp.duration();
                s.waitMax = std::max(s.waitMax, sp.duration());
            }
            // Holds overlapping the range: the first whose running maximum end reaches it.
            const auto& holds = t.lockSpans(l, true);
            const auto& maxEnd = t.lockSpanMaxEnd(l, true);
            Time runStart = 0, runEnd = 0;
            bool run = false;
            for (auto i = static_cast<std::size_t>(
                     std::lower_bound(maxEnd.begin(), maxEnd.end(), r.from) - maxEnd.begin());
                 i < holds.size() && t.span(holds[i]).start < r.to; ++i) {
                const TimelineSpan& sp = t.span(holds[i]);
                if (!pass.passes(t.event(sp.open))) continue;
                if (sp.start >= r.from) ++s.holds;
                const Time a = std::max(sp.start, r.from);
                const Time b = std::min(sp.end, r.to);
                if (b <= a) continue;
                s.holdTime += b - a;
                // Spans come by start, so the union grows run by run.
                if (!run || a > runEnd) {
                    if (run) s.heldTime += runEnd - runStart;
                    runStart = a;
                    runEnd = b;
                    run = true;
                } else {
                    runEnd = std::max(runEnd, b);
                }
            }
            if (run) s.heldTime += runEnd - runStart;
            s.utilisation = static_cast<double>(s.heldTime) / static_cast<double>(r.to - r.from);
        }
        r.locks.push_back(std::move(s));
    }
    return r;
}

}  // namespace immap::trace
