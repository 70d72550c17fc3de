#include "sim/SweepPartial.h"

#include <algorithm>

namespace immap::sim {

SweepPartial::SweepPartial(std::size_t points, unsigned seeds, unsigned bands)
    : points_(points), seeds_(std::max(1u, seeds)), bands_(bands) {
    progress_.points = points;
    progress_.seedRuns = points * seeds_;
    progress_.bandRuns = points * bands_;
}

void SweepPartial::update(const SweepUpdate& u) {
    if (u.index >= points_.size()) return;  // not this sweep's
    // Updates of a point arrive in order, each with more runs than the one before.
    points_[u.index] = Point{u.point, u.seedsDone, u.drawsDone};
    progress_ = u.progress;
}

std::vector<SimResult> SweepPartial::shown() const {
    std::vector<SimResult> out;
    for (const std::optional<Point>& p : points_) {
        if (!p) continue;
        out.push_back(p->result);
        if (p->drawsDone < bands_) out.back().bandRates.clear();
    }
    return out;
}

std::size_t SweepPartial::pointsShort() const {
    return static_cast<std::size_t>(std::count_if(
        points_.begin(), points_.end(), [&](const auto& p) { return p && p->seedsDone < seeds_; }));
}

std::size_t SweepPartial::bandsMissing() const {
    if (bands_ == 0) return 0;
    return static_cast<std::size_t>(
        std::count_if(points_.begin(), points_.end(),
                      [&](const auto& p) { return !p || p->drawsDone < bands_; }));
}

}  // namespace immap::sim
