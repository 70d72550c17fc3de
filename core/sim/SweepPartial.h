#pragma once
// A sweep's points as they stream in (Sweep::run's point callback), for a plot drawn before
// the sweep ends: what is shown is honest about what is missing. A point is shown once its
// first seed has finished, at the mean of the seeds finished so far; its band only once every
// parameter set drawn for it has finished (a band over fewer sets would look narrower or wider
// than the one coming, with nothing to say so), so bands fill in point by point.

#include <optional>
#include <vector>

#include "sim/Sweep.h"

namespace immap::sim {

class SweepPartial {
public:
    // A sweep of `points` points, `seeds` seeds and `bands` sets each.
    SweepPartial(std::size_t points = 0, unsigned seeds = 1, unsigned bands = 0);

    void update(const SweepUpdate& u);
    // The points shown, in the results' order.
    std::vector<SimResult> shown() const;
    // Points shown with fewer seeds than asked, and with their band still missing.
    std::size_t pointsShort() const;
    std::size_t bandsMissing() const;
    // The last update's progress (none yet: every count 0, the totals set).
    const SweepProgress& progress() const { return progress_; }
    bool empty() const { return progress_.drawn == 0; }

private:
    struct Point {
        SimResult result;
        unsigned seedsDone = 0;
        unsigned drawsDone = 0;
    };
    std::vector<std::optional<Point>> points_;
    unsigned seeds_;
    unsigned bands_;
    SweepProgress progress_;
};

}  // namespace immap::sim
