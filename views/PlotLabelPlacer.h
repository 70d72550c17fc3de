#pragma once
// Puts a plot's text cards where they cross the fewest curves and cover no other card: each
// card has places to try around its anchor, in order of preference, and the first of those
// that crosses the fewest curve segments wins. It runs after every layout
// (QCustomPlot::afterLayout, just before drawing), so a resize or a new axis range moves the
// cards too.

#include <QColor>
#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QRectF>
#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPItemLine;
class QCPItemText;

namespace immap::views {

class PlotLabelPlacer : public QObject {
    Q_OBJECT
public:
    // A place: the card's `align` corner or edge at `offset` pixels from its parent anchor.
    struct Place {
        QPointF offset;
        Qt::Alignment align;
    };
    explicit PlotLabelPlacer(QCustomPlot* plot);
    // Forget the cards (before the plot's items are cleared).
    void clear();
    // `card`'s position must have a parent anchor (a ring or a mark on the curve); it stays
    // inside `pane` (its clip rect when null, else the whole plot) where it can.
    void add(QCPItemText* card, std::vector<Place> places, QCPAxisRect* pane = nullptr);
    // Away from its anchor (a place more than 12 px from it): a thin line in `colour` then
    // leads from the anchor to the card's nearest corner.
    void lead(QCPItemText* card, const QColor& colour);
    void place();

    // The curve segments (of every visible line graph but the shaded bands') the card's box
    // crosses where it is now; tests ask it of the drawn cards.
    static int crossings(const QCustomPlot* plot, const QRectF& box);
    static QRectF boxOf(const QCPItemText* card);

private:
    struct Card {
        QPointer<QCPItemText> item;
        std::vector<Place> places;
        QPointer<QCPAxisRect> pane;
        QPointer<QCPItemLine> leader;
    };
    QCustomPlot* plot_;
    std::vector<Card> cards_;
};

}  // namespace immap::views
