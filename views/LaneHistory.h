#pragma once
// The contention view's memory: the last kColumns snapshots of a run's lanes as an image (one
// row per lane, one column per snapshot, newest on the right, coloured by state), each column's
// simulated time (for the time axis), and each node's share of working / waiting / holding
// CPUs per column (a node's summary lane when it is collapsed). A column is added only when
// the simulated clock has moved: a snapshot at the same time (a paused run, a second event at
// one instant) redraws the newest column, so pausing freezes the history.

#include <QImage>
#include <array>
#include <vector>

#include "live/LiveSnapshot.h"

namespace immap::views {

class LaneHistory {
public:
    static constexpr int kColumns = 240;
    static constexpr int kSummaryRows = 12;  // a node's summary: shares in twelfths

    LaneHistory() { times_.fill(-1); }

    struct Group {
        int node = 0;
        int first = 0;  // lane index
        int count = 0;
    };

    // Takes the snapshot at simulated time `now`. True when the lanes changed shape (another
    // run, another machine): the history started again.
    bool add(const live::RunSnapshot& run, sim::Time now);
    void clear();

    const QImage& lanes() const { return lanes_; }      // lanes x kColumns
    const QImage& summary() const { return summary_; }  // groups * kSummaryRows x kColumns
    const std::vector<Group>& groups() const { return groups_; }
    int filled() const { return filled_; }  // columns holding a snapshot, from the right
    // The simulated time of column c (0 = oldest kept, kColumns - 1 = newest); -1 when empty.
    sim::Time timeAt(int column) const;

    static QRgb stateRgb(live::LaneState s);

private:
    void shift();
    void writeNewest(const live::RunSnapshot& run);

    QImage lanes_;
    QImage summary_;
    std::array<sim::Time, kColumns> times_{};
    std::vector<Group> groups_;
    std::vector<unsigned> shape_;  // the lanes' CPUs, to tell a new run's lanes
    int filled_ = 0;
};

}  // namespace immap::views
