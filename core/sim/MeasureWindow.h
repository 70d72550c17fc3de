#pragma once
// When the measured window ends, by one rule for the simulator and for trace replay.
//
// UnixBench's execl score is the copies' iteration counts summed over a fixed time, divided by
// that time (Run's runOnePass: COUNT0 / TIME). A count over a window is exact to within one
// exec per copy, so a copy must do many execs in the window for its count to mean anything:
// the window lasts at least `duration_ms`, and then until every copy has completed
// `window_execs` execs in it and all copies together `window_total_execs` (the precision of a
// run of few copies), but no longer than `window_max_ms` (a copy stuck behind a saturated lock
// would otherwise keep it open forever; the result says how many execs the slowest copy held).

#include <cstddef>
#include <cstdint>
#include <limits>

#include "sim/Time.h"

namespace immap::sim {

class MeasureWindow {
public:
    // A far-off end: the window is open until the copies have done their execs.
    static constexpr Time kOpenEnd = std::numeric_limits<Time>::max() / 4;

    MeasureWindow() = default;
    MeasureWindow(double durationMs, double minExecsPerCopy, double maxMs, std::size_t copies,
                  double minExecsTotal = 0);

    // The window opens at t; returns its end as known now.
    Time open(Time t);
    // A copy's count of execs completed in the window has just become `count` at t; returns
    // the window's end as known now (it is fixed once every copy has enough).
    Time counted(std::uint64_t count, Time t);
    Time end() const { return end_; }

private:
    Time duration_ = 0;
    Time max_ = 0;
    std::uint64_t minExecs_ = 0;
    std::size_t copies_ = 0;
    std::uint64_t minTotal_ = 0;
    std::size_t short_ = 0;    // copies with fewer than minExecs_ in the window
    std::uint64_t total_ = 0;  // execs completed in the window, all copies
    Time start_ = 0;
    Time end_ = kOpenEnd;
};

}  // namespace immap::sim
