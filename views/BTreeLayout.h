#pragma once
// Where a B-tree's node boxes go on screen, with no painting (issue 20): plain data, so tests
// can ask where a node's slot is and compare the rendered pixels with it.
//
// World coordinates: x in slots, y in levels. Leaf k's box spans x = [k (C + G), k (C + G) + C]
// (C slots per box, G slots of gap); an inner node's box is centred over its children's; level
// L's row spans y = [L, L + 1]. Screen = world scaled by (sx, sy) plus (ox, oy). A box is drawn
// wider than its C slots where its level leaves room (the distance to its neighbours), up to
// maxSlotPx() a slot, so that a 6,000-VMA tree fitted to a window still shows its root and
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
    // maxSlotPx()), levels maxRowPx() apart at most, from the top; when the leaves are too
    // small to read, less the band the magnified step's node takes at the bottom.
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
    // Whether node i's slots are wide enough to write their values in.
    bool labelled(int i) const { return labelPx(slotPx(i), box(i).height()) >= kMinLabelPx; }
    // The node and slot under p ({i, -1} on a box's frame outside its slots; {-1, -1} none).
    std::pair<int, int> slotAt(const QPointF& p) const;

    static constexpr double kGap = 2;            // slots between neighbouring leaf boxes
    static constexpr double kBoxFraction = 0.5;  // of a row, the box's height, up to maxBoxPx
    // At 10 px type (all three grow with workshop mode's type, TreeLayout::labelScale): the
    // widest a slot is drawn, the tallest a box, the most a level's row takes.
    static constexpr double kMaxSlotPx = 46;
    static constexpr double kMaxBoxPx = 40;
    static constexpr double kMaxRowPx = 96;
    static double maxSlotPx();
    static double maxBoxPx();
    static double maxRowPx();
    // The type a slot's two values are written in: the label type, or smaller where the slot
    // is narrower than "0x1d4" at it (3.5 px of width and 2.6 of height per px of type); none
    // under kMinLabelPx.
    static double labelPx(double slotPx, double boxPx);
    static constexpr double kMinLabelPx = 9;
    static double labelBoxPx();  // two lines at the label type
    // The band fit() keeps free at the bottom for the step's magnified node (BTreePainter).
    static double insetBandPx();
};

}  // namespace immap::views
