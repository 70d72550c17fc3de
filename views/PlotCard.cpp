#include "PlotCard.h"

#include <qcustomplot.h>

namespace immap::views {

namespace {

QCPItemText* card(QCustomPlot* plot, const QString& text, const QFont& font, const QColor& ink,
                  const QColor& fill, const QColor& border) {
    auto* t = new QCPItemText(plot);
    t->setLayer(QStringLiteral("legend"));
    t->setClipToAxisRect(false);
    t->setFont(font);
    t->setColor(ink);
    t->setBrush(fill);
    t->setPen(border.isValid() ? QPen(border) : QPen(Qt::NoPen));
    t->setText(text);
    return t;
}

}  // namespace

QCPItemText* PlotCard::note(QCustomPlot* plot, QCPAxisRect* pane, QPointF ratio,
                            Qt::Alignment align, const QString& text, const QFont& font,
                            const QColor& ink, const QColor& fill, const QColor& border) {
    QCPItemText* t = card(plot, text, font, ink, fill, border);
    t->position->setType(QCPItemPosition::ptAxisRectRatio);
    t->position->setAxisRect(pane);
    t->position->setCoords(ratio);
    t->setPositionAlignment(align);
    t->setTextAlignment(align & Qt::AlignHorizontal_Mask);
    t->setPadding(QMargins(8, 5, 8, 5));
    return t;
}

QCPItemText* PlotCard::figure(QCustomPlot* plot, QCPGraph* graph, double key, const QString& text,
                              const QFont& font, bool above) {
    auto* ring = new QCPItemTracer(plot);
    ring->setGraph(graph);
    ring->setGraphKey(key);
    ring->setStyle(QCPItemTracer::tsCircle);
    ring->setSize(16);
    ring->setPen(QPen(graph->pen().color(), 2.5));
    ring->setBrush(Qt::NoBrush);
    QCPItemText* t = card(plot, text, font, graph->pen().color().darker(140),
                          QColor(255, 255, 255, 225), QColor());
    // Left of the ring: the quoted points are often the last ones, at the plot's right edge.
    t->position->setParentAnchor(ring->position);
    t->position->setCoords(-6, above ? -10 : 10);
    t->setPositionAlignment(Qt::AlignRight | (above ? Qt::AlignBottom : Qt::AlignTop));
    t->setPadding(QMargins(4, 1, 4, 1));
    return t;
}

}  // namespace immap::views
