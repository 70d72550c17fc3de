#include "LaneHistory.h"

#include <algorithm>
#include <cstring>

#include "ContentionView.h"

namespace immap::views {

QRgb LaneHistory::stateRgb(live::LaneState s) {
    switch (s) {
        case live::LaneState::Waiting:
            return ContentionView::waitingColor().rgb();
        case live::LaneState::Holding:
            return ContentionView::holdingColor().rgb();
        case live::LaneState::Working:
            break;
    }
    return ContentionView::workingColor().rgb();
}

void LaneHistory::clear() {
    lanes_ = QImage();
    summary_ = QImage();
    groups_.clear();
    shape_.clear();
    filled_ = 0;
    times_.fill(-1);
}

sim::Time LaneHistory::timeAt(int column) const {
    if (column < 0 || column >= kColumns || column < kColumns - filled_) return -1;
    return times_[static_cast<std::size_t>(column)];
}

bool LaneHistory::add(const live::RunSnapshot& run, sim::Time now) {
    std::vector<unsigned> shape;
    shape.reserve(run.lanes.size());
    for (const live::Lane& l : run.lanes)
        shape.push_back(l.cpu);
    const bool reshape = shape != shape_ || lanes_.isNull() != run.lanes.empty();
    if (reshape) {
        clear();
        shape_ = std::move(shape);
        for (int i = 0; i < static_cast<int>(run.lanes.size()); ++i) {
            const int node = run.lanes[static_cast<std::size_t>(i)].node;
            if (groups_.empty() || groups_.back().node != node) groups_.push_back({node, i, 0});
            ++groups_.back().count;
        }
        const int rows = static_cast<int>(run.lanes.size());
        if (rows > 0) {
            lanes_ = QImage(kColumns, rows, QImage::Format_ARGB32_Premultiplied);
            lanes_.fill(Qt::transparent);
            summary_ = QImage(kColumns, static_cast<int>(groups_.size()) * kSummaryRows,
                              QImage::Format_ARGB32_Premultiplied);
            summary_.fill(Qt::transparent);
        }
    }
    if (lanes_.isNull()) return reshape;
    // A new column only when simulated time has passed since the newest one.
    if (filled_ == 0 || now > times_[kColumns - 1]) {
        shift();
        filled_ = std::min(kColumns, filled_ + 1);
    }
    times_[kColumns - 1] = now;
    writeNewest(run);
    return reshape;
}

void LaneHistory::shift() {
    for (QImage* img : {&lanes_, &summary_})
        for (int y = 0; y < img->height(); ++y) {
            auto* line = reinterpret_cast<QRgb*>(img->scanLine(y));
            std::memmove(line, line + 1, sizeof(QRgb) * (kColumns - 1));
        }
    std::move(times_.begin() + 1, times_.end(), times_.begin());
}

void LaneHistory::writeNewest(const live::RunSnapshot& run) {
    for (int y = 0; y < lanes_.height(); ++y)
        reinterpret_cast<QRgb*>(lanes_.scanLine(y))[kColumns - 1] =
            stateRgb(run.lanes[static_cast<std::size_t>(y)].state);
    // Each node's shares, stacked from the bottom: holding, waiting, then working, each
    // rounded on the running total so that the twelfths add up.
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        int hold = 0, wait = 0;
        for (int i = groups_[g].first; i < groups_[g].first + groups_[g].count; ++i) {
            const live::LaneState s = run.lanes[static_cast<std::size_t>(i)].state;
            hold += s == live::LaneState::Holding;
            wait += s == live::LaneState::Waiting;
        }
        const int n = std::max(1, groups_[g].count);
        const int holdRows = (hold * kSummaryRows + n / 2) / n;
        const int busyRows = ((hold + wait) * kSummaryRows + n / 2) / n;
        for (int k = 0; k < kSummaryRows; ++k) {  // k = 0 is the bottom row
            const QRgb c = k < holdRows   ? ContentionView::holdingColor().rgb()
                           : k < busyRows ? ContentionView::waitingColor().rgb()
                                          : ContentionView::workingColor().rgb();
            const int y = static_cast<int>(g) * kSummaryRows + (kSummaryRows - 1 - k);
            reinterpret_cast<QRgb*>(summary_.scanLine(y))[kColumns - 1] = c;
        }
    }
}

}  // namespace immap::views
