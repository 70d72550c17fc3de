#include "PlotCard.h"

#include <qcustomplot.h>
#include <QFontMetricsF>
#include <cmath>

#include "PlotLabelPlacer.h"

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
                              const QFont& font, bool above, PlotLabelPlacer* placer) {
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
    if (!placer) return t;
    // Left of the ring (quoted points are often the last ones, at the right edge): its side
    // first, then the other, then level with the ring, then a card's height further out at a
    // time (two figures quoted at one point stack); then the same on the right (a point at the
    // left edge). The card is opaque, so where it would cover another curve, or leave its pane,
    // it moves, with a leader line back to the ring.
    const double dy = above ? -10 : 10;
    const double step = QFontMetricsF(font).height() + 4;  // a card with its padding, and a gap
    const Qt::Alignment near = above ? Qt::AlignBottom : Qt::AlignTop;
    const Qt::Alignment far = above ? Qt::AlignTop : Qt::AlignBottom;
    std::vector<PlotLabelPlacer::Place> places;
    for (const double side : {-1.0, 1.0}) {
        const Qt::Alignment h = side < 0 ? Qt::AlignRight : Qt::AlignLeft;
        places.insert(places.end(), {{{side * 6, dy}, h | near},
                                     {{side * 6, -dy}, h | far},
                                     {{side * 14, 0}, h | Qt::AlignVCenter}});
        for (const double k : {1.0, 2.0, 3.0}) {
            const double out = std::abs(dy) + k * step;
            places.insert(places.end(), {{{side * 6, dy < 0 ? -out : out}, h | near},
                                         {{side * 6, dy < 0 ? out : -out}, h | far}});
        }
    }
    placer->add(t, places, graph->valueAxis()->axisRect());
    placer->lead(t, graph->pen().color());
    return t;
}

}  // namespace immap::views
