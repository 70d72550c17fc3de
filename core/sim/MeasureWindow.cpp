#include "sim/MeasureWindow.h"

#include <algorithm>
#include <cmath>

namespace immap::sim {

MeasureWindow::MeasureWindow(double durationMs, double minExecsPerCopy, double maxMs,
                             std::size_t copies, double minExecsTotal)
    : duration_(static_cast<Time>(std::llround(durationMs * 1e6))),
      max_(std::max(duration_, static_cast<Time>(std::llround(maxMs * 1e6)))),
      minExecs_(static_cast<std::uint64_t>(std::max(0.0, std::ceil(minExecsPerCopy)))),
      copies_(copies),
      minTotal_(static_cast<std::uint64_t>(std::max(0.0, std::ceil(minExecsTotal)))) {}

Time MeasureWindow::open(Time t) {
    start_ = t;
    short_ = minExecs_ > 0 ? copies_ : 0;
    total_ = 0;
    end_ = short_ == 0 && minTotal_ == 0 ? t + duration_ : t + max_;
    return end_;
}

Time MeasureWindow::counted(std::uint64_t count, Time t) {
    const bool wasOpen = short_ > 0 || total_ < minTotal_;
    if (count == minExecs_ && short_ > 0) --short_;
    ++total_;
    if (wasOpen && short_ == 0 && total_ >= minTotal_)
        end_ = std::min(end_, std::max(start_ + duration_, t));
    return end_;
}

}  // namespace immap::sim
