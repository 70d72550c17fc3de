#pragma once
// Paints a laid-out tree: edges, red/black discs ringed in their home node's colour, labels
// where the level has room, and a density raster where it has none (so a 100,000-node tree
// costs one pass over the visible ranks plus one image blit). Decorations (animation, rmap
// walk, selection) come in as per-node flags.

#include <QPainter>
#include <cstdint>
#include <vector>

#include "TreeLayout.h"
#include "session/DrawTree.h"

namespace immap::views {

enum NodeFlag : std::uint16_t {
    kFlagPath = 1 << 0,      // on the current op's descent path
    kFlagFocus = 1 << 1,     // the current step's node
    kFlagFlash = 1 << 2,     // subtree_last just written
    kFlagRecolor = 1 << 3,   // colour just changed
    kFlagSelected = 1 << 4,  // selected (shared with the table)
    kFlagVisited = 1 << 5,   // rmap walk examined it
    kFlagMatch = 1 << 6,     // rmap walk found it
    kFlagPruned = 1 << 7,    // rmap walk skipped its subtree
    kFlagHover = 1 << 8,
};

struct TreeDecor {
    const std::vector<std::uint16_t>* flags = nullptr;  // by node index, or null
    // Positions overriding the layout while nodes move (rotations); by node index, or null.
    const std::vector<QPointF>* positions = nullptr;
    // A node being inserted, not linked yet: drawn floating next to `pendingNear`.
    const session::DrawNode* pending = nullptr;
    int pendingNear = -1;
    // How far a subtree_last flash has faded: 0 just written (big and bright), 1 settled.
    double flashPhase = 1;
};

// The nodes drawn in the density raster rather than as discs (levels too crowded at this
// zoom), for the legend to say what the bars are. Depths count from 0 at the root.
struct TreeAggregate {
    int nodes = 0;
    int minDepth = -1;
    int maxDepth = -1;
};

class TreePainter {
public:
    // Paints into `clip` (screen pixels, usually the widget rect); returns what it aggregated.
    static TreeAggregate paint(QPainter& p, const session::DrawTree& tree, const TreeLayout& layout,
                               const TreeDecor& decor, const QRect& clip);
    // The bottom band of a tree view: the fills, the `homeNodes` ring colours, what the raster
    // bars are (`bars`, empty if none), and the marks of a walk or of a step.
    static void paintLegend(QPainter& p, const QRect& rect, int homeNodes, const QString& bars,
                            bool walking, bool stepping);
    static constexpr int kLegendMargin = 10;
    static QString intervalText(const session::DrawNode& n);
    static QString subtreeText(const session::DrawNode& n);
};

}  // namespace immap::views
