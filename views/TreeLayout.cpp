#include "TreeLayout.h"

#include "FontScale.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace immap::views {

TreeLayout TreeLayout::of(const session::DrawTree& tree) {
    TreeLayout l;
    l.columns = static_cast<int>(tree.nodes.size());
    l.rows = tree.height;
    l.depth.resize(tree.nodes.size());
    l.levelGap.assign(tree.nodes.size(), std::numeric_limits<int>::max() / 4);
    std::vector<int> lastAt(static_cast<std::size_t>(tree.height), -1);
    for (int i = 0; i < l.columns; ++i) {
        const int d = tree.nodes[static_cast<std::size_t>(i)].depth;
        l.depth[static_cast<std::size_t>(i)] = d;
        int& prev = lastAt[static_cast<std::size_t>(d)];
        if (prev >= 0) {
            const int gap = i - prev;
            auto& a = l.levelGap[static_cast<std::size_t>(prev)];
            auto& b = l.levelGap[static_cast<std::size_t>(i)];
            a = std::min(a, gap);
            b = std::min(b, gap);
        }
        prev = i;
    }
    // A label's width in characters, from its values' hex digits (TreePainter's texts:
    // "[0xS, 0xL]" and "max 0xM", the "max " counted as six for its wide "m").
    auto digits = [](std::uint64_t v) {
        int n = 1;
        while (v >>= 4)
            ++n;
        return n;
    };
    l.labelChars.resize(tree.nodes.size());
    for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
        const auto& n = tree.nodes[i];
        l.labelChars[i] = static_cast<std::uint8_t>(
            std::max(8 + digits(n.start) + digits(n.last), 8 + digits(n.subtreeLast)));
    }
    // A lone node on its level has the whole width as room.
    for (auto& g : l.levelGap)
        g = std::min(g, std::max(1, l.columns));
    l.rowTop.resize(static_cast<std::size_t>(l.rows) + 1);
    for (int d = 0; d <= l.rows; ++d)
        l.rowTop[static_cast<std::size_t>(d)] = d;
    return l;
}

void TreeLayout::fit(const QRectF& area) {
    const double cols = std::max(1, columns);
    const double rws = std::max(1, rows);
    sx = area.width() / cols;
    sy = std::min(area.height() / rws, 90.0);  // shallow trees stay compact at the top
    ox = area.left();
    oy = area.top();
    rowTop.resize(static_cast<std::size_t>(rows) + 1);
    for (int d = 0; d <= rows; ++d)
        rowTop[static_cast<std::size_t>(d)] = d;
    if (sy >= kDiscRowHeight || rows < 2) return;
    // Too short for a disc row per level. A level is a disc level when most of its nodes have
    // disc room at this width (detail() decides node by node; this only sizes the rows).
    std::vector<int> all(static_cast<std::size_t>(rows), 0), roomy(all);
    for (int i = 0; i < columns; ++i) {
        const auto d = static_cast<std::size_t>(depth[static_cast<std::size_t>(i)]);
        ++all[d];
        roomy[d] += levelGap[static_cast<std::size_t>(i)] * sx >= kMinDiscRoom;
    }
    std::vector<bool> disc(static_cast<std::size_t>(rows));
    int discs = 0;
    for (std::size_t d = 0; d < disc.size(); ++d) {
        disc[d] = all[d] > 0 && 2 * roomy[d] >= all[d];
        discs += disc[d];
    }
    const int dots = rows - discs;
    if (discs == 0 || dots == 0) return;
    // Disc rows as tall as kDiscRowHeight allows after every squeezed row's minimum; never
    // shorter than the uniform rows they replace.
    const double h = area.height();
    const double discRow = std::max(sy, std::min(kDiscRowHeight, (h - dots * kMinDotRow) / discs));
    const double dotRow = std::max(0.0, (h - discs * discRow) / dots);
    if (dotRow >= discRow) return;
    sy = discRow;
    for (int d = 0; d < rows; ++d)
        rowTop[static_cast<std::size_t>(d) + 1] =
            rowTop[static_cast<std::size_t>(d)] +
            (disc[static_cast<std::size_t>(d)] ? 1.0 : dotRow / discRow);
}

void TreeLayout::keepView(const TreeLayout& old) {
    rowTop.resize(static_cast<std::size_t>(rows) + 1);
    sx = old.sx;
    sy = old.sy;
    ox = old.ox;
    oy = old.oy;
    for (int d = 0; d < rows; ++d) {
        const int from = std::min(d, old.rows - 1);
        const double height = from < 0 ? 1.0
                                       : old.rowTop[static_cast<std::size_t>(from) + 1] -
                                             old.rowTop[static_cast<std::size_t>(from)];
        rowTop[static_cast<std::size_t>(d) + 1] = rowTop[static_cast<std::size_t>(d)] + height;
    }
}

int TreeLayout::rowAt(double y) const {
    const double w = (y - oy) / sy;
    if (rows == 0 || w < rowTop.front() || w >= rowTop.back()) return -1;
    const auto it = std::upper_bound(rowTop.begin(), rowTop.end(), w);
    return static_cast<int>(it - rowTop.begin()) - 1;
}

void TreeLayout::zoomAt(const QPointF& anchor, double factor) {
    // Keep the world point under the anchor fixed; zoom x always, y only until labels fit.
    const double wx = (anchor.x() - ox) / sx;
    const double wy = (anchor.y() - oy) / sy;
    sx *= factor;
    const double ny = std::clamp(sy * factor, 8.0, kLabelRowHeight * labelScale() * 1.6);
    sy = ny;
    ox = anchor.x() - wx * sx;
    oy = anchor.y() - wy * sy;
}

double TreeLayout::labelScale() {
    return scaledPx(kLabelPx) / static_cast<double>(kLabelPx);
}

double TreeLayout::labelWidth(int i) const {
    const auto u = static_cast<std::size_t>(i);
    return labelScale() * (u < labelChars.size() ? labelChars[u] * kLabelCharPx + 6 : kLabelRoom);
}

double TreeLayout::radius() const {
    return std::min({kMaxRadius, sx * 0.42, sy * 0.32});
}

double TreeLayout::radiusFor(int i) const {
    const double room = levelGap[static_cast<std::size_t>(i)] * sx;
    return std::min(
        {kMaxRadius, room * 0.42, rowHeight(depth[static_cast<std::size_t>(i)]) * 0.32});
}

TreeLayout::Detail TreeLayout::detail(int i) const {
    const double room = levelGap[static_cast<std::size_t>(i)] * sx;
    const double sy = rowHeight(depth[static_cast<std::size_t>(i)]);  // this level's row
    if (room < kMinDiscRoom || sy < 8) return Detail::Dot;
    // The label's room grows with its type (workshop mode writes it larger).
    const double k = labelScale();
    if (room >= kLabelRoom * k && sy >= kLabelRowHeight * k) return Detail::Label;
    if (room >= kSideRoom * k && sy >= kSideRowHeight * k) return Detail::Side;
    // Rows too tight for a label's two lines (a big tree fitted into a short pane, or large
    // type): beside the disc all the same where its box covers no other node, which happens
    // on the sparse top levels. First the cheap test that the level's neighbours are clear.
    if (room >= kLabelRoom * k + 2 * kMaxRadius + 8 && besideIsClear(i)) return Detail::Side;
    return Detail::Disc;
}

QRectF TreeLayout::besideBoxOn(int i, bool left) const {
    // TreePainter's box for a label beside the disc: two lines centred on the disc, from 4 px
    // past a radius of at least 5; moved down to start no higher than the tree's top, so that
    // the root's label is not cut off by the pane above (and dropped if it then covers a node).
    const double k = labelScale();
    const QPointF c = center(i);
    const double r = std::max(radiusFor(i), 5.0);
    const double half = kLabelLineHeight * k + 1;
    const double top = rowTop.empty() ? c.y() - half : rowTop.front() * sy + oy;
    const double w = labelWidth(i);
    return {left ? c.x() - r - 4 - w : c.x() + r + 4, std::max(c.y() - half, top), w, 2 * half};
}

bool TreeLayout::coversNoNode(int i, const QRectF& box) const {
    const auto [lo, hi] = visibleRanks(box.left() - kMaxRadius, box.right() + kMaxRadius);
    for (int j = lo; j <= hi; ++j) {
        if (j == i) continue;
        const double r = std::max(radiusFor(j), 1.5);
        if (box.adjusted(-r, -r, r, r).contains(center(j))) return false;
    }
    return true;
}

QRectF TreeLayout::besideBox(int i) const {
    // On the right where that is clear, else on the left where that is clear and inside the
    // tree's width (the root of a big tree has its level-1 child's subtree under its right).
    const QRectF right = besideBoxOn(i, false);
    if (coversNoNode(i, right)) return right;
    const QRectF left = besideBoxOn(i, true);
    if (left.left() >= ox && coversNoNode(i, left)) return left;
    return right;
}

bool TreeLayout::besideIsClear(int i) const {
    return coversNoNode(i, besideBox(i));
}

std::vector<int> TreeLayout::sideLabelled(const std::vector<int>& nodes) const {
    // Shallower first (the root's label matters most), then left to right.
    std::vector<int> side;
    for (int i : nodes)
        if (detail(i) == Detail::Side) side.push_back(i);
    std::stable_sort(side.begin(), side.end(), [&](int a, int b) {
        return depth[static_cast<std::size_t>(a)] < depth[static_cast<std::size_t>(b)];
    });
    std::vector<int> kept;
    std::vector<QRectF> boxes;
    for (int i : side) {
        const QRectF box = besideBox(i);
        if (std::none_of(boxes.begin(), boxes.end(),
                         [&](const QRectF& b) { return b.intersects(box); })) {
            kept.push_back(i);
            boxes.push_back(box);
        }
    }
    std::sort(kept.begin(), kept.end());
    return kept;
}

std::pair<int, int> TreeLayout::visibleRanks(double x0, double x1) const {
    if (columns == 0) return {0, -1};
    const int a = static_cast<int>(std::floor((x0 - ox) / sx - 0.5));
    const int b = static_cast<int>(std::ceil((x1 - ox) / sx - 0.5));
    return {std::clamp(a, 0, columns - 1), std::clamp(b, 0, columns - 1)};
}

int TreeLayout::nodeAt(const QPointF& p) const {
    if (columns == 0) return -1;
    const int row = rowAt(p.y());
    if (row < 0) return -1;
    // Search the ranks near x for a node on that row whose disc or cell covers p.
    const auto [lo, hi] = visibleRanks(p.x() - kMaxRadius - sx, p.x() + kMaxRadius + sx);
    int best = -1;
    double bestDist = std::numeric_limits<double>::max();
    for (int i = lo; i <= hi; ++i) {
        if (depth[static_cast<std::size_t>(i)] != row) continue;
        const QPointF c = center(i);
        const double r = std::max(radiusFor(i), 2.5);
        const double d = std::hypot(c.x() - p.x(), c.y() - p.y());
        if (d <= r + 1.5 && d < bestDist) {
            best = i;
            bestDist = d;
        }
    }
    return best;
}

}  // namespace immap::views
