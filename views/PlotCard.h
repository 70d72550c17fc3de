#pragma once
// Text on a card over a QCustomPlot, above the curves and never clipped by its pane: a note at
// a place in a pane (the throughput plot's overlay, the note on measured points from another
// machine), or a quoted point's figure beside a ring on its curve.

#include <QColor>
#include <QFont>
#include <QPointF>
#include <QString>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPItemText;

namespace immap::views {

class PlotLabelPlacer;

class PlotCard {
public:
    // At `ratio` of `pane` (0,0 its top-left), the card's `align` corner or edge there.
    static QCPItemText* note(QCustomPlot* plot, QCPAxisRect* pane, QPointF ratio,
                             Qt::Alignment align, const QString& text, const QFont& font,
                             const QColor& ink, const QColor& fill, const QColor& border);
    // A ring on `graph` at `key`, and `text` left of it, above or below; with a placer, moved
    // (after each layout) where it covers no other curve, figure or mark.
    static QCPItemText* figure(QCustomPlot* plot, QCPGraph* graph, double key, const QString& text,
                               const QFont& font, bool above, PlotLabelPlacer* placer = nullptr);
};

}  // namespace immap::views
