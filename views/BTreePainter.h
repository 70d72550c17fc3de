#pragma once
// Paints a laid-out B-tree (issue 20): each node a box of slots, a leaf's slots its items
// (start over last, a stripe in the VMA's home-node colour), an inner node's its children
// (lower bound over the max last under it, the augmentation), edges from each slot to its
// child. A step's marks come in a session::BTreeHighlight: the update's path, the step's node
// and slot, the max-last slots it wrote, a query's visits, prunes and matches. When the step's
// node is too small to read at this zoom, it is also drawn magnified at the bottom, joined to
// where it is, so every step can be read on a projector with the whole tree in view.

#include <QPainter>

#include "BTreeLayout.h"
#include "session/BTreeFrame.h"

namespace immap::views {

struct BTreeDecor {
    const session::BTreeHighlight* mark = nullptr;
    int selectedId = -1;
    int hoverNode = -1;
};

class BTreePainter {
public:
    static void paint(QPainter& p, const session::DrawBTree& tree, const BTreeLayout& layout,
                      const BTreeDecor& decor, const QRect& clip);
    // Where the magnified copy of node i goes in `clip` (empty when i reads at its own size).
    static QRectF insetFor(const BTreeLayout& layout, int i, const QRect& clip);
    static QString hex(btree::Index v);
    // The bottom band's words: what a box, a slot and the stripe are, and the step's marks
    // (a query's when `query`).
    static void paintLegend(QPainter& p, const QRect& rect, int homeNodes, bool marks, bool query);
};

}  // namespace immap::views
