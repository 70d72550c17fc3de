// TimelineView's painting: the time axis, the lanes at the view's level of detail (kept as an
// image between paints), the clicked span's outline, the bookmarks, the replay cursor and the
// selection over them.
#include <QPainter>
#include <QScrollBar>
#include <algorithm>
#include <cmath>

#include "views/FontScale.h"
#include "views/NodePalette.h"
#include "views/TimelineMetrics.h"
#include "views/TimelineView.h"

namespace immap::views {

using trace::SpanKind;
using trace::SpanLayer;
using trace::Timeline;
using namespace timeline;

namespace {

// 1, 2 or 5 times a power of ten, at least x.
trace::Time niceStep(double x) {
    double p = std::pow(10.0, std::floor(std::log10(std::max(1.0, x))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= x) return static_cast<trace::Time>(m * p);
    return static_cast<trace::Time>(10 * p);
}

// Draws runs of same-coloured rectangles that touch as one, on whole pixels (integer
// rectangles take the raster engine's fast path): back-to-back execs become one band.
class RectBatch {
public:
    explicit RectBatch(QPainter& p) : p_(p) {}
    ~RectBatch() { flush(); }
    void add(double x0, double x1, double y, double h, const QColor& c) {
        const int a = static_cast<int>(std::floor(x0));
        const int b = std::max(a + 1, static_cast<int>(std::floor(x1)));
        const int top = static_cast<int>(y);
        if (has_ && c == color_ && top == y_ && a <= x1_) {
            x1_ = std::max(x1_, b);
            return;
        }
        flush();
        has_ = true;
        x0_ = a;
        x1_ = b;
        y_ = top;
        h_ = std::max(1, static_cast<int>(h));
        color_ = c;
    }
    void flush() {
        if (has_) p_.fillRect(QRect(x0_, y_, x1_ - x0_, h_), color_);
        has_ = false;
    }

private:
    QPainter& p_;
    bool has_ = false;
    int x0_ = 0, x1_ = 0, y_ = 0, h_ = 0;
    QColor color_;
};

}  // namespace

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), NodePalette::background());
    const QRectF plot = plotArea();
    if (!timeline_ || timeline_->empty()) {
        p.setPen(QColor(0x70, 0x70, 0x70));
        p.drawText(rect(), Qt::AlignCenter,
                   tr("No trace: File > Open trace, or File > Record a simulation"));
        return;
    }
    const qreal dpr = devicePixelRatioF();
    const CacheKey key{timeline_.get(), from_,    to_, scroll_->value(),    laneH_,
                       width(),         height(), dpr, font().pointSizeF(), fontScale()};
    if (cache_.isNull() || key != cacheKey_) {
        cache_ = QImage(size() * dpr, QImage::Format_ARGB32_Premultiplied);
        cache_.setDevicePixelRatio(dpr);
        cache_.fill(NodePalette::background());
        QPainter c(&cache_);
        c.setFont(font());
        c.fillRect(plot, Qt::white);
        paintAxis(c, plot);
        paintLanes(c, plot);
        cacheKey_ = key;
    }
    p.drawImage(QPointF(0, 0), cache_);
    paintHighlight(p, plot);
    paintMarkers(p, plot);
}

void TimelineView::paintAxis(QPainter& p, const QRectF& plot) {
    QFont f = font();
    f.setPointSizeF(std::max(7.0, f.pointSizeF() * 0.85));
    p.setFont(f);
    const Time step = niceStep(static_cast<double>(to_ - from_) * 90.0 / plot.width());
    p.setPen(QColor(0x30, 0x30, 0x30));
    p.drawLine(QPointF(plot.left(), kAxisH - 1), QPointF(plot.right(), kAxisH - 1));
    for (Time t = (from_ / step) * step; t <= to_; t += step) {
        if (t < from_) continue;
        const double x = xOfTime(t);
        p.setPen(QColor(0x30, 0x30, 0x30));
        p.drawLine(QPointF(x, kAxisH - 6), QPointF(x, kAxisH - 1));
        p.drawText(QRectF(x - 60, 0, 120, kAxisH - 6), Qt::AlignHCenter | Qt::AlignBottom,
                   QString::fromStdString(trace::formatTime(t)));
        p.setPen(QColor(0xe6, 0xe6, 0xe6));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
    p.setPen(QColor(0x50, 0x50, 0x50));
    p.drawText(QRectF(2, 0, kGutter - 6, kAxisH - 4), Qt::AlignLeft | Qt::AlignBottom,
               tr("%1 view").arg(QString::fromStdString(trace::formatTime(to_ - from_))));
}

void TimelineView::paintLanes(QPainter& p, const QRectF& plot) {
    const auto& lanes = timeline_->lanes();
    const Time res = resolution();
    p.save();
    p.setClipRect(plot);
    const double bodyH = laneH_ >= 4 ? laneH_ - 1 : laneH_;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const QRectF r = laneRect(static_cast<int>(i));
        if (r.bottom() < plot.top() || r.top() > plot.bottom()) continue;
        if (i % 2)
            p.fillRect(QRectF(plot.left(), r.top(), plot.width(), bodyH), QColor(0xf6, 0xf7, 0xf9));
        for (const SpanLayer layer : {SpanLayer::Activity, SpanLayer::Locks}) {
            RectBatch batch(p);
            for (const trace::TimelineItem& it :
                 timeline_->query(static_cast<int>(i), layer, from_, to_, res)) {
                QColor c = colorOf(it.kind);
                if (it.count > 1 && it.end > it.start && it.covered < it.end - it.start) {
                    // A merged run drawn lighter the less of it its spans cover.
                    const double cover =
                        static_cast<double>(it.covered) / static_cast<double>(it.end - it.start);
                    const double a = 0.4 + 0.6 * cover;
                    c = QColor::fromRgbF(1 - a + a * c.redF(), 1 - a + a * c.greenF(),
                                         1 - a + a * c.blueF());
                }
                batch.add(xOfTime(it.start), xOfTime(it.end), r.top(), bodyH, c);
            }
        }
        if (laneH_ >= 5) {
            RectBatch ticks(p);
            for (const trace::TimelinePointItem& pt :
                 timeline_->queryPoints(static_cast<int>(i), from_, to_, 2 * res)) {
                const double x = xOfTime(pt.time);
                ticks.add(x, std::max(x + 1, xOfTime(pt.last)), r.top(), std::ceil(bodyH * 0.45),
                          pt.mixed ? QColor(0x30, 0x30, 0x30) : pointColor(pt.kind));
            }
        }
    }
    p.restore();

    // The gutter: node groups and, when there is room, CPU labels.
    p.save();
    p.setClipRect(QRectF(0, plot.top(), kGutter, plot.height()));
    p.fillRect(QRectF(0, plot.top(), kGutter - 2, plot.height()), NodePalette::background());
    std::size_t g = 0;
    while (g < lanes.size()) {
        std::size_t e = g;
        while (e + 1 < lanes.size() && lanes[e + 1].node == lanes[g].node)
            ++e;
        const QRectF top = laneRect(static_cast<int>(g)), bottom = laneRect(static_cast<int>(e));
        const QRectF band(2, top.top(), 4, bottom.bottom() - top.top());
        const int node = lanes[g].node;
        p.fillRect(band, node >= 0 ? NodePalette::home(node) : QColor(0xa0, 0xa0, 0xa0));
        p.setPen(QColor(0x30, 0x30, 0x30));
        const QString label = lanes[g].cpu < 0 && g == e ? tr("no CPU")
                              : node >= 0                ? tr("node %1").arg(node)
                                                         : tr("node ?");
        if (band.height() >= 11)
            p.drawText(QRectF(9, band.top(), 44, std::min(band.height(), 14.0)),
                       Qt::AlignLeft | Qt::AlignVCenter, label);
        if (laneH_ >= 9)
            for (std::size_t i = g; i <= e; ++i)
                if (lanes[i].cpu >= 0) {
                    const QRectF r = laneRect(static_cast<int>(i));
                    p.drawText(QRectF(50, r.top(), kGutter - 54, r.height()),
                               Qt::AlignRight | Qt::AlignVCenter, tr("CPU %1").arg(lanes[i].cpu));
                }
        g = e + 1;
    }
    p.restore();
}

void TimelineView::paintHighlight(QPainter& p, const QRectF& plot) {
    if (!highlight_) return;
    const trace::TimelineSpan& s = timeline_->span(*highlight_);
    const QRectF r = laneRect(s.lane);
    p.save();
    p.setClipRect(plot);
    p.setPen(QPen(Qt::black, 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(xOfTime(s.start) - 1, r.top() - 1,
                      std::max(2.0, xOfTime(s.end) - xOfTime(s.start) + 2), r.height() + 1));
    p.restore();
}

void TimelineView::paintMarkers(QPainter& p, const QRectF& plot) {
    const QRectF band(plot.left(), kAxisH, plot.width(), kMarkH);
    p.save();
    p.setClipRect(QRectF(plot.left(), 0, plot.width(), height()));
    auto line = [&](Time t, const QPen& pen, const QString& caption, const QColor& flag) {
        if (t < from_ || t > to_) return;
        const double x = xOfTime(t);
        p.setPen(pen);
        p.drawLine(QPointF(x, band.top()), QPointF(x, plot.bottom()));
        if (caption.isEmpty()) return;
        const QString text = p.fontMetrics().elidedText(caption, Qt::ElideRight, 160);
        const QRectF box(x, band.top() + 1, p.fontMetrics().horizontalAdvance(text) + 8,
                         band.height() - 2);
        p.fillRect(box, flag);
        p.setPen(Qt::white);
        p.drawText(box.adjusted(4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
    };
    if (const auto w = timeline_->windowStart())
        line(*w, QPen(QColor(0x80, 0x80, 0x80), 1, Qt::DotLine), tr("window"),
             QColor(0x80, 0x80, 0x80));
    for (const Marker& m : marks_)
        line(m.time, QPen(QColor(0x70, 0x48, 0xe8), 1, Qt::DashLine), m.caption,
             QColor(0x70, 0x48, 0xe8));

    // The selection (or the band being dragged), with its length.
    std::optional<std::pair<double, double>> xs;
    if (dragging_ && press_)
        xs = std::make_pair(std::min(press_->x(), dragX_), std::max(press_->x(), dragX_));
    else if (selection_)
        xs = std::make_pair(xOfTime(selection_->first), xOfTime(selection_->second));
    if (xs) {
        const QRectF sel(xs->first, plot.top(), std::max(1.0, xs->second - xs->first),
                         plot.height());
        p.fillRect(sel, QColor(30, 110, 220, 45));
        p.setPen(QColor(30, 110, 220));
        p.drawLine(sel.topLeft(), sel.bottomLeft());
        p.drawLine(sel.topRight(), sel.bottomRight());
        const Time len = dragging_ ? timeAtX(xs->second) - timeAtX(xs->first)
                                   : selection_->second - selection_->first;
        p.drawText(QRectF(sel.left() + 3, band.top(), 200, band.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   tr("selected %1").arg(QString::fromStdString(trace::formatTime(len))));
    }
    if (cursor_ && *cursor_ >= from_ && *cursor_ <= to_) {
        const double x = xOfTime(*cursor_);
        p.setPen(QPen(Qt::black, 1));
        p.drawLine(QPointF(x, kAxisH - 8), QPointF(x, plot.bottom()));
    }
    p.restore();
}

}  // namespace immap::views
