#pragma once
// The proposal's published claims at 384 copies on its 12-node, 384-CPU machine (docs/kernel.md,
// "6. The proposal"), drawn over a speedup pane for comparison only: each a square at its
// figure, a dotted line at its level from the first copy count, and its name at the left end,
// where every curve is still near 1x (no lock is contended there), so that the figures quoted
// at the right end keep their room; further along the line when a figure is quoted there.

#include <QFont>

class QCustomPlot;
class QCPAxisRect;

namespace immap::views {

class PlotLabelPlacer;

class VendorClaims {
public:
    // Draws them into `pane`, their names placed by `placer` (after the quoted figures, which
    // they make way for); returns the largest claimed speedup (for the pane's range).
    static double draw(QCustomPlot* plot, QCPAxisRect* pane, const QFont& font,
                       PlotLabelPlacer* placer);
};

}  // namespace immap::views
