#pragma once
// Where a tree's nodes go on screen, with no painting: x from the in-order rank, y from the
// depth, scaled and offset by the viewport. Plain data, so tests can ask where node i is and
// compare the rendered pixels with it.
//
// World coordinates: node i (in-order rank i) sits at (i + 0.5, depth + 0.5). Screen = world
// scaled by (sx, sy) plus (ox, oy).

#include <QPointF>
#include <QRectF>
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

    double sx = 1, sy = 1, ox = 0, oy = 0;

    static TreeLayout of(const session::DrawTree& tree);

    // Fits every node into `area` (screen pixels).
    void fit(const QRectF& area);
    void zoomAt(const QPointF& anchor, double factor);
    void pan(const QPointF& delta) {
        ox += delta.x();
        oy += delta.y();
    }

    QPointF center(int i) const {
        return {(i + 0.5) * sx + ox, (depth[static_cast<std::size_t>(i)] + 0.5) * sy + oy};
    }
    // Disc radius at this zoom: most of the smaller spacing, capped.
    double radius() const;
    double radiusFor(int i) const;  // with the node's own room on its level
    Detail detail(int i) const;
    // The node whose disc (or dot cell) covers p, -1 if none.
    int nodeAt(const QPointF& p) const;
    // Ranks visible in a screen x range (clamped).
    std::pair<int, int> visibleRanks(double x0, double x1) const;

    static constexpr double kMaxRadius = 13;
    static constexpr double kMinDiscRoom = 7;      // pixels of level room for a disc
    static constexpr double kLabelRoom = 120;      // pixels of level room for a label
    static constexpr double kLabelRowHeight = 52;  // pixels per level for a label under
    static constexpr double kSideRoom = 190;       // pixels of level room for a label beside
    static constexpr double kSideRowHeight = 22;
    static constexpr double kWideRoom = 320;  // pixels of level room for a label in tight rows
};

}  // namespace immap::views
