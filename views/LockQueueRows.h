#pragma once
// The contention view's lock column: a header, then one row per lock (all when they fit, else
// the busy ones with the longest queues first, in lock order): the lock's colour and name, its
// holders in the lock's colour (darker for a writer), then the waiting CPUs in arrival order,
// "+N" beyond the width.

#include <QFont>
#include <QPainter>
#include <QRect>
#include <utility>
#include <vector>

#include "live/LiveSnapshot.h"

namespace immap::views {

class LockQueueRows {
public:
    // Paints into `area`; returns each shown lock (index into run.locks) with its row, for
    // hit testing. nameWidth: the column the lock's name (and its colour chip) takes.
    static std::vector<std::pair<int, QRect>> paint(QPainter& p, const QRect& area,
                                                    const live::RunSnapshot& run, const QFont& f,
                                                    int rowHeight, int nameWidth);
};

}  // namespace immap::views
