#include "PlotLabelPlacer.h"

#include <qcustomplot.h>
#include <QLineF>
#include <algorithm>
#include <cmath>
#include <limits>

namespace immap::views {

namespace {

bool segmentMeetsBox(const QLineF& s, const QRectF& box) {
    if (box.contains(s.p1()) || box.contains(s.p2())) return true;
    const QLineF edges[] = {{box.topLeft(), box.topRight()},
                            {box.topRight(), box.bottomRight()},
                            {box.bottomRight(), box.bottomLeft()},
                            {box.bottomLeft(), box.topLeft()}};
    for (const QLineF& e : edges)
        if (s.intersects(e, nullptr) == QLineF::BoundedIntersection) return true;
    return false;
}

}  // namespace

PlotLabelPlacer::PlotLabelPlacer(QCustomPlot* plot) : QObject(plot), plot_(plot) {
    connect(plot_, &QCustomPlot::afterLayout, this, &PlotLabelPlacer::place);
}

void PlotLabelPlacer::clear() {
    cards_.clear();
}

void PlotLabelPlacer::add(QCPItemText* card, std::vector<Place> places, QCPAxisRect* pane) {
    cards_.push_back({card, std::move(places), pane, nullptr});
}

void PlotLabelPlacer::lead(QCPItemText* card, const QColor& colour) {
    for (Card& c : cards_)
        if (c.item == card && !c.leader) {
            c.leader = new QCPItemLine(plot_);
            c.leader->setLayer(card->layer());
            c.leader->setClipToAxisRect(false);
            c.leader->setPen(QPen(colour, 1.2));
            c.leader->start->setParentAnchor(card->position->parentAnchor());
            c.leader->setVisible(false);
        }
}

QRectF PlotLabelPlacer::boxOf(const QCPItemText* card) {
    return QRectF(card->topLeft->pixelPosition(), card->bottomRight->pixelPosition()).normalized();
}

int PlotLabelPlacer::crossings(const QCustomPlot* plot, const QRectF& box) {
    int n = 0;
    const QCPLayer* bands = plot->layer(QStringLiteral("bands"));
    for (int i = 0; i < plot->graphCount(); ++i) {
        const QCPGraph* g = plot->graph(i);
        if (!g->visible() || g->layer() == bands || g->lineStyle() == QCPGraph::lsNone ||
            g->pen().style() == Qt::NoPen)
            continue;
        const QCPAxis* kx = g->keyAxis();
        const QCPAxis* vy = g->valueAxis();
        const bool logY = vy->scaleType() == QCPAxis::stLogarithmic;
        QPointF prev;
        bool havePrev = false;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            if (logY && it->value <= 0) {
                havePrev = false;
                continue;
            }
            const QPointF p(kx->coordToPixel(it->key), vy->coordToPixel(it->value));
            if (havePrev && segmentMeetsBox(QLineF(prev, p), box)) ++n;
            prev = p;
            havePrev = true;
        }
    }
    return n;
}

void PlotLabelPlacer::place() {
    // Earlier cards keep their place; a later one pays heavily for covering them, and most for
    // leaving its pane (it would be cut off).
    std::vector<QRectF> taken;
    for (QCPLayoutElement* e : plot_->plotLayout()->elements(true))
        if (auto* legend = qobject_cast<QCPLegend*>(e); legend && legend->visible())
            taken.push_back(legend->outerRect());
    // Other texts (notes, the claims' names) and marks: a card beside a mark that is not its
    // own would seem to name it.
    std::vector<std::pair<const QCPItemAnchor*, QRectF>> marks;
    for (int i = 0; i < plot_->itemCount(); ++i) {
        QCPAbstractItem* item = plot_->item(i);
        if (!item->visible()) continue;
        if (auto* tracer = qobject_cast<QCPItemTracer*>(item)) {
            const double r = tracer->size() / 2 + 3;
            const QPointF c = tracer->position->pixelPosition();
            marks.emplace_back(tracer->position, QRectF(c - QPointF(r, r), c + QPointF(r, r)));
        } else if (auto* text = qobject_cast<QCPItemText*>(item);
                   text && std::none_of(cards_.begin(), cards_.end(),
                                        [&](const Card& c) { return c.item == text; })) {
            taken.push_back(boxOf(text));
        }
    }
    for (Card& card : cards_) {
        QCPItemText* t = card.item;
        if (!t || !t->visible() || card.places.empty()) continue;
        const QRectF bounds = card.pane ? QRectF(card.pane->rect())
                              : t->clipToAxisRect() && t->clipAxisRect()
                                  ? QRectF(t->clipAxisRect()->rect())
                                  : QRectF(plot_->viewport());
        int best = std::numeric_limits<int>::max();
        std::size_t bestAt = 0;
        for (std::size_t k = 0; k < card.places.size(); ++k) {
            t->position->setCoords(card.places[k].offset);
            t->setPositionAlignment(card.places[k].align);
            const QRectF box = boxOf(t);
            int cost = crossings(plot_, box);
            if (!bounds.contains(box)) cost += 1000;  // cut off: worse than any overlap
            for (const QRectF& other : taken)
                if (other.intersects(box)) cost += 100;
            for (const auto& [anchor, mark] : marks)
                if (anchor != t->position->parentAnchor() && mark.intersects(box)) cost += 100;
            if (cost < best) {
                best = cost;
                bestAt = k;
            }
            if (cost == 0) break;
        }
        const Place& at = card.places[bestAt];
        t->position->setCoords(at.offset);
        t->setPositionAlignment(at.align);
        taken.push_back(boxOf(t));
        if (card.leader) {
            card.leader->setVisible(std::abs(at.offset.y()) > 12);
            const bool onRight = at.align & Qt::AlignRight;  // the card is left of its anchor
            card.leader->end->setParentAnchor(
                at.align & Qt::AlignBottom ? (onRight ? t->bottomRight : t->bottomLeft)
                : at.align & Qt::AlignTop  ? (onRight ? t->topRight : t->topLeft)
                                           : (onRight ? t->right : t->left));
        }
    }
}

}  // namespace immap::views
