#pragma once
// TimelineView's geometry, shared by its interaction (TimelineView.cpp) and its painting
// (TimelineViewPaint.cpp). Pixels.

namespace immap::views::timeline {

constexpr double kGutter = 92;   // lane labels
constexpr double kAxisH = 22;    // time axis
constexpr double kMarkH = 16;    // bookmark captions, the selection's length
constexpr double kGroupGap = 4;  // between NUMA nodes
constexpr double kMaxLaneH = 16;
constexpr double kMinLaneH = 2;

}  // namespace immap::views::timeline
