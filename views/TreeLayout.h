#pragma once
// Where a tree's nodes go on screen, with no painting: x from the in-order rank, y from the
// depth, scaled and offset by the viewport. Plain data, so tests can ask where node i is and
// compare the rendered pixels with it.
//
// World coordinates: node i (in-order rank i) sits at x = i + 0.5 and in the middle of its
// level's row, which spans [rowTop[depth], rowTop[depth + 1]]. Rows are 1 high, except when a
// tree is fitted into too little height for all its levels to hold discs: then the levels too
// crowded for discs share what the disc levels leave (see fit()). Screen = world scaled by
// (sx, sy) plus (ox, oy), so sy is the height of a full row.

#include <QPointF>
#include <QRectF>
#include <cstdint>
#include <vector>

#include "session/DrawTree.h"

namespace immap::views {

struct TreeLayout {
    enum class Detail {
        Dot,    // a few pixels in a density raster
        Disc,   // a disc with its home-node ring and edges
        Label,  // a disc with its interval and subtree_last written under it
        Side,   // the same label, beside the disc (rows too tight to write under it)
    };

    int columns = 0;  // nodes (ranks)
    int rows = 0;     // levels
    std::vector<int> depth;
    // Distance in ranks to the nearest node on the same level (either side); a node gets a
    // disc only where this many ranks give it room, so sparse top levels stay readable in a
    // 100k-node tree while the crowded bottom collapses into a raster.
    std::vector<int> levelGap;
    std::vector<double> rowTop;  // rows + 1 entries, world units
    // Node i's label's width in characters (of() sets it from the values' hex digits).
    std::vector<std::uint8_t> labelChars;

    double sx = 1, sy = 1, ox = 0, oy = 0;

    static TreeLayout of(const session::DrawTree& tree);

    // Fits every node into `area` (screen pixels). When the area is too short for every
    // level to get a disc row (kDiscRowHeight), the levels whose nodes are too close for discs
    // at this width are squeezed (down to kMinDotRow each) so the sparse top keeps its discs.
    void fit(const QRectF& area);
    // Takes `old`'s zoom and rows (a zoomed view keeping its zoom over a new tree of about the
    // same shape); levels `old` did not have get its last level's height.
    void keepView(const TreeLayout& old);
    void zoomAt(const QPointF& anchor, double factor);
    void pan(const QPointF& delta) {
        ox += delta.x();
        oy += delta.y();
    }

    // (A default layout has no rows: of() or fit() gives it its tree's.)
    QPointF center(int i) const {
        const auto d = static_cast<std::size_t>(depth[static_cast<std::size_t>(i)]);
        return {(i + 0.5) * sx + ox, (rowTop[d] + rowTop[d + 1]) * 0.5 * sy + oy};
    }
    // A level's row height in screen pixels, and the level whose row holds screen y (-1: none).
    double rowHeight(int level) const {
        return (rowTop[static_cast<std::size_t>(level) + 1] -
                rowTop[static_cast<std::size_t>(level)]) *
               sy;
    }
    int rowAt(double y) const;
    // Disc radius at this zoom: most of the smaller spacing, capped.
    double radius() const;
    double radiusFor(int i) const;  // with the node's own room on its level
    Detail detail(int i) const;
    // A label's width in pixels at this type: labelChars at kLabelCharPx (kLabelRoom when the
    // layout has no tree).
    double labelWidth(int i) const;
    // The box a label beside node i takes (labelWidth wide, two lines high): on its right
    // when that covers no other node's disc or dot, else on its left when that does not; and
    // whether the chosen box is clear.
    QRectF besideBox(int i) const;
    bool besideIsClear(int i) const;
    QRectF besideBoxOn(int i, bool left) const;
    // Of `nodes`, those labelled beside their disc (sorted by rank): each that detail() gives
    // Side, the shallower first, unless its box meets the box of one kept before it.
    std::vector<int> sideLabelled(const std::vector<int>& nodes) const;
    bool coversNoNode(int i, const QRectF& box) const;
    // The node whose disc (or dot cell) covers p, -1 if none.
    int nodeAt(const QPointF& p) const;
    // Ranks visible in a screen x range (clamped).
    std::pair<int, int> visibleRanks(double x0, double x1) const;

    static constexpr double kMaxRadius = 13;
    // Pixels of level room for a disc: its radius is 0.42 of the room, so a disc is at least
    // 6 px across.
    static constexpr double kMinDiscRoom = 7.2;
    static constexpr double kDiscRowHeight = 16;   // row height fit() gives disc levels if it can
    static constexpr double kMinDotRow = 2.5;      // the least a squeezed level's row gets
    static constexpr double kLabelRoom = 120;      // pixels of level room for a label
    static constexpr double kLabelRowHeight = 52;  // pixels per level for a label under
    static constexpr double kSideRoom = 190;       // pixels of level room for a label beside
    static constexpr double kSideRowHeight = 22;
    // A label line's height at 10 px type (DejaVu Sans' is 12 px; a little to spare).
    static constexpr double kLabelLineHeight = 13;
    // A label character's advance at 10 px, at most: DejaVu Sans' digits and a-e are 6.4 px
    // or less, '[', ',', ' ' and 'x' narrower (TestTreeLayout measures the real boxes).
    static constexpr double kLabelCharPx = 6.4;
    // A node label's type (TreePainter), and how much larger it is written now (1 outside
    // workshop mode): the rooms above are for 10 px and grow with it.
    static constexpr int kLabelPx = 10;
    static double labelScale();
};

}  // namespace immap::views
