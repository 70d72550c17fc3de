#pragma once
// Where a B-tree's node boxes go on screen, with no painting (issue 20): plain data, so tests
// can ask where a node's slot is and compare the rendered pixels with it.
//
// World coordinates: x in slots, y in levels. Leaf k's box spans x = [k (C + G), k (C + G) + C]
// (C slots per box, G slots of gap); an inner node's box is centred over its children's; level
// L's row spans y = [L, L + 1]. Screen = world scaled by (sx, sy) plus (ox, oy). A box is drawn
// wider than its C slots where its level leaves room (the distance to its neighbours), up to
// kMaxSlotPx a slot, so that a 6,000-VMA tree fitted to a window still shows its root and
// upper levels readably over a raster of leaves, as TreeLayout gives sparse levels discs.

#include <QPointF>
#include <QRectF>
#include <utility>
#include <vector>

#include "session/DrawBTree.h"

namespace immap::views {

struct BTreeLayout {
    std::vector<double> center;  // world x of each node box's centre
    std::vector<double> room;    // world width a box may take: to its nearest level neighbour
    std::vector<int> level;
    int capacity = 16;
    int rows = 0;
    double width = 0;  // world x of the leaf row's right end

    double sx = 1, sy = 1, ox = 0, oy = 0;

    static BTreeLayout of(const session::DrawBTree& tree);

    // The whole tree in `area`: the leaf row across its width (slots no wider than
    // kMaxSlotPx), levels kMaxRowPx apart at most, from the top.
    void fit(const QRectF& area);
    void zoomAt(const QPointF& anchor, double factor);  // horizontally; rows keep their height
    void pan(const QPointF& delta) {
        ox += delta.x();
        oy += delta.y();
    }
    // Takes `old`'s zoom (a new picture of about the same tree).
    void keepView(const BTreeLayout& old);

    // A slot's width in pixels in node i's box, and the box (screen).
    double slotPx(int i) const;
    QRectF box(int i) const;
    QRectF slotRect(int i, int slot) const;
    QPointF anchorOf(int i) const { return box(i).center(); }
    // Whether node i's slots are wide enough to write their values in.
    bool labelled(int i) const {
        return slotPx(i) >= labelSlotPx() && box(i).height() >= labelBoxPx();
    }
    // The node and slot under p ({i, -1} on a box's frame outside its slots; {-1, -1} none).
    std::pair<int, int> slotAt(const QPointF& p) const;

    static constexpr double kGap = 2;            // slots between neighbouring leaf boxes
    static constexpr double kMaxSlotPx = 46;     // the widest a slot is drawn
    static constexpr double kMaxRowPx = 96;      // the most a level's row takes
    static constexpr double kBoxFraction = 0.5;  // of a row, the box's height ...
    static constexpr double kMaxBoxPx = 40;      // ... up to this
    // A slot wide enough for "0x1d4" at the label type (6.4 px a character at 10 px).
    static double labelSlotPx();
    static double labelBoxPx();  // two lines of it
};

}  // namespace immap::views
