#include "BTreeLayout.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "TreeLayout.h"

namespace immap::views {

BTreeLayout BTreeLayout::of(const session::DrawBTree& tree) {
    BTreeLayout l;
    l.capacity = tree.capacity;
    l.rows = tree.height;
    const std::size_t n = tree.nodes.size();
    l.center.assign(n, 0);
    l.room.assign(n, 0);
    l.level.assign(n, 0);
    const double pitch = l.capacity + kGap;
    // Leaves across; then each level up over its children (nodes are stored by level, so
    // from the back every child is placed before its parent).
    int k = 0;
    for (std::size_t i = 0; i < n; ++i) {
        l.level[i] = tree.nodes[i].level;
        if (tree.nodes[i].leaf) l.center[i] = k++ * pitch + l.capacity / 2.0;
    }
    l.width = std::max(0.0, k * pitch - kGap);
    for (std::size_t i = n; i-- > 0;) {
        const auto& d = tree.nodes[i];
        if (d.leaf || d.child.empty()) continue;
        const double a = l.center[static_cast<std::size_t>(d.child.front())];
        const double b = l.center[static_cast<std::size_t>(d.child.back())];
        l.center[i] = (a + b) / 2;
    }
    // Room: the distance to the nearest box on the same level (a lone box has the width).
    for (std::size_t i = 0; i < n; ++i) {
        double r = std::max(l.width, static_cast<double>(l.capacity));
        if (i > 0 && l.level[i - 1] == l.level[i]) r = std::min(r, l.center[i] - l.center[i - 1]);
        if (i + 1 < n && l.level[i + 1] == l.level[i])
            r = std::min(r, l.center[i + 1] - l.center[i]);
        l.room[i] = std::max(r - kGap, static_cast<double>(l.capacity));
    }
    return l;
}

double BTreeLayout::maxSlotPx() {
    return kMaxSlotPx * TreeLayout::labelScale();
}
double BTreeLayout::maxBoxPx() {
    return kMaxBoxPx * TreeLayout::labelScale();
}
double BTreeLayout::maxRowPx() {
    return kMaxRowPx * TreeLayout::labelScale();
}

double BTreeLayout::labelPx(double slotPx, double boxPx) {
    return std::min({TreeLayout::kLabelPx * TreeLayout::labelScale(), slotPx / 3.5, boxPx / 2.6});
}

double BTreeLayout::insetBandPx() {
    return std::max(34.0, labelBoxPx() + 6) + 20;
}

double BTreeLayout::labelBoxPx() {
    return 2 * TreeLayout::kLabelLineHeight * TreeLayout::labelScale();
}

void BTreeLayout::fit(const QRectF& area) {
    const double w = std::max(width, static_cast<double>(capacity));
    sx = std::min(area.width() / w, maxSlotPx());
    // Leaves are `capacity` slots in `capacity` of room: drawn at sx a slot.
    const bool readable = labelPx(sx, maxBoxPx()) >= kMinLabelPx;
    const double height = area.height() - (readable ? 0 : insetBandPx());
    sy = std::min(std::max(height, 1.0) / std::max(1, rows), maxRowPx());
    ox = area.left() + (area.width() - w * sx) / 2;
    oy = area.top();
}

void BTreeLayout::zoomAt(const QPointF& anchor, double factor) {
    const double wx = (anchor.x() - ox) / sx;
    sx = std::clamp(sx * factor, 1e-3, 4 * maxSlotPx());
    ox = anchor.x() - wx * sx;
}

void BTreeLayout::keepView(const BTreeLayout& old) {
    sx = old.sx;
    sy = old.sy;
    ox = old.ox;
    oy = old.oy;
}

double BTreeLayout::slotPx(int i) const {
    // As wide as the level's room allows, never narrower than the zoom's own slots.
    const double roomPx = room[static_cast<std::size_t>(i)] * sx / capacity;
    return std::max(sx, std::min(roomPx, maxSlotPx()));
}

QRectF BTreeLayout::box(int i) const {
    const auto u = static_cast<std::size_t>(i);
    const double w = slotPx(i) * capacity;
    // Half the row, or more where that lets two lines of labels in (rows packed tight).
    const double h =
        std::min(maxBoxPx(), std::max(sy * kBoxFraction, std::min(sy * 0.75, labelBoxPx())));
    const double cy = (level[u] + 0.5) * sy + oy;
    // Centred over its children, but inside the tree's span: a wide upper box over lopsided
    // subtrees would stick out past the leaf row.
    double left = center[u] * sx + ox - w / 2;
    const double span = std::max(width, static_cast<double>(capacity)) * sx;
    if (w <= span) left = std::clamp(left, ox, ox + span - w);
    return {left, cy - h / 2, w, h};
}

QRectF BTreeLayout::slotRect(int i, int slot) const {
    const QRectF b = box(i);
    const double w = b.width() / capacity;
    return {b.left() + slot * w, b.top(), w, b.height()};
}

std::pair<int, int> BTreeLayout::slotAt(const QPointF& p) const {
    for (int i = 0; i < static_cast<int>(center.size()); ++i) {
        const QRectF b = box(i).adjusted(-1, -1, 1, 1);
        if (!b.contains(p)) continue;
        const int s =
            static_cast<int>(std::floor((p.x() - b.left() - 1) / (b.width() - 2) * capacity));
        return {i, std::clamp(s, 0, capacity - 1)};
    }
    return {-1, -1};
}

}  // namespace immap::views
