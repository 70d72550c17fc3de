#include "VendorClaims.h"

#include <qcustomplot.h>
#include <QCoreApplication>
#include <algorithm>

#include "PlotLabelPlacer.h"
#include "ThroughputView.h"

namespace immap::views {

namespace {

struct Claim {
    const char* policy;
    double speedup;
    const char* label;
};
constexpr Claim kClaims[] = {
    {"split-trees", 1.77, "v1 claim: +77%"},
    {"split-locks", 5.0, "v2 claim: over +400%"},
};
constexpr double kCopies = 384;

}  // namespace

double VendorClaims::draw(QCustomPlot* plot, QCPAxisRect* pane, const QFont& font,
                          PlotLabelPlacer* placer) {
    double most = 0;
    QCPAxis* x = pane->axis(QCPAxis::atBottom);
    QCPAxis* y = pane->axis(QCPAxis::atLeft);
    for (const Claim& claim : kClaims) {
        most = std::max(most, claim.speedup);
        const QColor c = ThroughputView::policyColor(claim.policy);
        auto* mark = new QCPItemTracer(plot);
        mark->setClipAxisRect(pane);
        mark->position->setAxes(x, y);
        mark->position->setCoords(kCopies, claim.speedup);
        mark->setStyle(QCPItemTracer::tsSquare);
        mark->setSize(9);
        mark->setPen(QPen(c, 2));
        mark->setBrush(Qt::NoBrush);
        auto* level = new QCPItemLine(plot);
        level->setClipAxisRect(pane);
        for (QCPItemPosition* end : {level->start, level->end})
            end->setAxes(x, y);
        level->start->setCoords(1, claim.speedup);
        level->end->setCoords(kCopies, claim.speedup);
        level->setPen(QPen(c, 1.2, Qt::DotLine));
        auto* text = new QCPItemText(plot);
        text->setClipAxisRect(pane);
        text->position->setParentAnchor(level->start);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        text->setPadding(QMargins(2, 0, 2, 1));
        text->setText(QString::fromUtf8(claim.label) +
                      QCoreApplication::translate("VendorClaims", " at 384 copies (vendor claim)"));
        text->setColor(c.darker(120));
        text->setFont(font);
        // Along its line, further right where a quoted figure at the first copy counts is.
        std::vector<PlotLabelPlacer::Place> places;
        for (const double dx : {0.0, 160.0, 320.0, 480.0})
            places.push_back({{dx, 0}, Qt::AlignLeft | Qt::AlignBottom});
        placer->add(text, places);
    }
    return most;
}

}  // namespace immap::views
