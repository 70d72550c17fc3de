#include "TimelineView.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "views/FontScale.h"
#include "views/NodePalette.h"

namespace immap::views {

using trace::SpanKind;
using trace::SpanLayer;
using trace::Timeline;

namespace {

constexpr double kGutter = 92;   // lane labels
constexpr double kAxisH = 22;    // time axis
constexpr double kMarkH = 16;    // bookmark captions, the selection's length
constexpr double kGroupGap = 4;  // between NUMA nodes
constexpr double kMaxLaneH = 16;
constexpr double kMinLaneH = 2;

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

TimelineView::TimelineView(QWidget* parent) : QWidget(parent), scroll_(new QScrollBar(this)) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(320, 140);
    setAttribute(Qt::WA_OpaquePaintEvent);
    scroll_->setOrientation(Qt::Vertical);
    scroll_->hide();
    connect(scroll_, &QScrollBar::valueChanged, this, [this] { update(); });
}

QColor TimelineView::colorOf(SpanKind kind) {
    switch (kind) {
        case SpanKind::Exec:
            return QColor(0xb4, 0xd9, 0xa8);  // working
        case SpanKind::Walk:
            return QColor(0xc5, 0xae, 0xe8);
        case SpanKind::Wait:
            return QColor(0xe8, 0x59, 0x0c);  // waiting
        case SpanKind::Hold:
            return QColor(0x1c, 0x6e, 0xd4);  // holding
        case SpanKind::KernelWait:
            return QColor(0xb0, 0x1e, 0x5a);
    }
    return Qt::gray;
}

QColor TimelineView::pointColor(int eventKind) {
    switch (eventKind) {
        case sim::SimEvent::TreeInsert:
            return QColor(0x1f, 0x7a, 0x2e);
        case sim::SimEvent::TreeRemove:
            return QColor(0x44, 0x44, 0x44);
        default:
            return QColor(0x6a, 0x3d, 0xb8);
    }
}

void TimelineView::setTimeline(std::shared_ptr<const Timeline> timeline) {
    timeline_ = std::move(timeline);
    cache_ = QImage();  // a new timeline may sit where the old one was
    selection_.reset();
    highlight_.reset();
    cursor_.reset();
    from_ = timeline_ ? timeline_->begin() : 0;
    to_ = timeline_ ? timeline_->end() + 1 : 1;
    scroll_->setValue(0);
    relayout();
    update();
    emit visibleRangeChanged(from_, to_);
}

void TimelineView::setBookmarks(std::vector<Marker> marks) {
    marks_ = std::move(marks);
    update();
}

void TimelineView::setCursorTime(std::optional<Time> t) {
    cursor_ = t;
    update();
}

QRectF TimelineView::plotArea() const {
    const double right = width() - (!scroll_->isHidden() ? scroll_->width() : 0);
    return QRectF(kGutter, kAxisH + kMarkH, std::max(1.0, right - kGutter - 2),
                  std::max(1.0, height() - kAxisH - kMarkH - 2));
}

void TimelineView::relayout() {
    laneY_.clear();
    contentH_ = 0;
    if (!timeline_ || timeline_->lanes().empty()) {
        scroll_->hide();
        return;
    }
    const auto& lanes = timeline_->lanes();
    const double groups = static_cast<double>(timeline_->nodes().size());
    const double avail = height() - kAxisH - kMarkH - 2 - kGroupGap * (groups - 1);
    laneH_ =
        std::clamp(std::floor(avail / static_cast<double>(lanes.size())), kMinLaneH, kMaxLaneH);
    double y = 0;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        if (i > 0 && lanes[i].node != lanes[i - 1].node) y += kGroupGap;
        laneY_.push_back(y);
        y += laneH_;
    }
    contentH_ = y;
    const double visible = height() - kAxisH - kMarkH - 2;
    if (contentH_ > visible + 0.5) {
        scroll_->setGeometry(width() - 14, static_cast<int>(kAxisH + kMarkH), 14,
                             static_cast<int>(visible));
        scroll_->setRange(0, static_cast<int>(std::ceil(contentH_ - visible)));
        scroll_->setPageStep(static_cast<int>(visible));
        scroll_->setSingleStep(static_cast<int>(laneH_ * 3));
        scroll_->show();
    } else {
        scroll_->setValue(0);
        scroll_->hide();
    }
}

void TimelineView::resizeEvent(QResizeEvent*) {
    relayout();
}

QRectF TimelineView::laneRect(int lane) const {
    if (lane < 0 || static_cast<std::size_t>(lane) >= laneY_.size()) return {};
    const QRectF plot = plotArea();
    return QRectF(plot.left(),
                  plot.top() + laneY_[static_cast<std::size_t>(lane)] - scroll_->value(),
                  plot.width(), laneH_);
}

double TimelineView::xOfTime(Time t) const {
    const QRectF plot = plotArea();
    return plot.left() + static_cast<double>(t - from_) * plot.width() /
                             static_cast<double>(std::max<Time>(1, to_ - from_));
}

TimelineView::Time TimelineView::timeAtX(double x) const {
    const QRectF plot = plotArea();
    return from_ + static_cast<Time>(std::llround((x - plot.left()) *
                                                  static_cast<double>(to_ - from_) / plot.width()));
}

int TimelineView::laneAtY(double y) const {
    const QRectF plot = plotArea();
    if (y < plot.top() || y >= plot.bottom() || laneY_.empty()) return -1;
    const double cy = y - plot.top() + scroll_->value();
    const auto it = std::upper_bound(laneY_.begin(), laneY_.end(), cy);
    if (it == laneY_.begin()) return -1;
    const auto lane = static_cast<int>(it - laneY_.begin()) - 1;
    return cy < laneY_[static_cast<std::size_t>(lane)] + laneH_ ? lane : -1;
}

TimelineView::Time TimelineView::resolution() const {
    return std::max<Time>(1,
                          static_cast<Time>(static_cast<double>(to_ - from_) / plotArea().width()));
}

// --- the view: zoom and pan ---------------------------------------------------------------

void TimelineView::setVisibleRange(Time from, Time to) {
    if (!timeline_) return;
    const Time lo = timeline_->begin(), hi = timeline_->end() + 1;
    // At most everything, at least one nanosecond per pixel.
    const Time minW = std::min<Time>(hi - lo, static_cast<Time>(plotArea().width()));
    Time w = std::clamp(to - from, std::max<Time>(1, minW), hi - lo);
    from = std::clamp(from, lo, hi - w);
    if (from == from_ && from + w == to_) return;
    from_ = from;
    to_ = from + w;
    update();
    emit visibleRangeChanged(from_, to_);
}

void TimelineView::zoomAt(double factor, double x) {
    if (!timeline_ || factor <= 0) return;
    const Time anchor = timeAtX(x);
    const double w = static_cast<double>(to_ - from_) / factor;
    const double left = static_cast<double>(anchor - from_) / factor;
    const Time from = anchor - static_cast<Time>(std::llround(left));
    setVisibleRange(from, from + std::max<Time>(1, static_cast<Time>(std::llround(w))));
}

void TimelineView::zoomIn() {
    zoomAt(1.5, plotArea().center().x());
}

void TimelineView::zoomOut() {
    zoomAt(1 / 1.5, plotArea().center().x());
}

void TimelineView::panBy(double fractionOfView) {
    const auto d =
        static_cast<Time>(std::llround(static_cast<double>(to_ - from_) * fractionOfView));
    setVisibleRange(from_ + d, to_ + d);
}

void TimelineView::showAll() {
    if (timeline_) setVisibleRange(timeline_->begin(), timeline_->end() + 1);
}

void TimelineView::scrollToLane(int lane) {
    if (lane < 0 || static_cast<std::size_t>(lane) >= laneY_.size() || scroll_->isHidden()) return;
    const double y = laneY_[static_cast<std::size_t>(lane)];
    const double visible = plotArea().height();
    if (y < scroll_->value() || y + laneH_ > scroll_->value() + visible)
        scroll_->setValue(static_cast<int>(y - visible / 2));
}

void TimelineView::setSelection(Time from, Time to) {
    if (to < from) std::swap(from, to);
    selection_ = std::make_pair(from, to);
    update();
    emit selectionChanged(from, to);
}

void TimelineView::clearSelection() {
    if (!selection_) return;
    selection_.reset();
    update();
    emit selectionCleared();
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
        case Qt::Key_W:
            zoomIn();
            break;
        case Qt::Key_S:
            zoomOut();
            break;
        case Qt::Key_A:
            panBy(-0.2);
            break;
        case Qt::Key_D:
            panBy(0.2);
            break;
        case Qt::Key_Home:
            showAll();
            break;
        case Qt::Key_Escape:
            clearSelection();
            break;
        default:
            QWidget::keyPressEvent(e);
            return;
    }
    e->accept();
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    const double steps = e->angleDelta().y() / 120.0;
    if (e->modifiers() & Qt::ControlModifier) {
        zoomAt(std::pow(1.25, steps), e->position().x());
    } else if (e->modifiers() & Qt::ShiftModifier) {
        panBy(-0.1 * steps);
    } else if (!scroll_->isHidden()) {
        scroll_->setValue(scroll_->value() - static_cast<int>(steps * laneH_ * 3));
    }
    e->accept();
}

// --- selecting and clicking ---------------------------------------------------------------

std::optional<std::uint32_t> TimelineView::spanUnder(const QPoint& pos) const {
    const int lane = laneAtY(pos.y());
    if (!timeline_ || lane < 0) return std::nullopt;
    return timeline_->spanAt(lane, timeAtX(pos.x()), 2 * resolution());
}

std::optional<std::uint32_t> TimelineView::pointUnder(const QPoint& pos) const {
    const int lane = laneAtY(pos.y());
    if (!timeline_ || lane < 0 || laneH_ < 5) return std::nullopt;
    const QRectF r = laneRect(lane);
    if (pos.y() > r.top() + r.height() * 0.45) return std::nullopt;
    return timeline_->pointAt(lane, timeAtX(pos.x()), 3 * resolution());
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    setFocus(Qt::MouseFocusReason);
    if (e->button() != Qt::LeftButton || !plotArea().contains(e->position())) return;
    press_ = e->position();
    dragX_ = e->position().x();
    dragging_ = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
    if (!press_) return;
    dragX_ = std::clamp(e->position().x(), plotArea().left(), plotArea().right());
    if (std::abs(dragX_ - press_->x()) > 3) dragging_ = true;
    if (dragging_) update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    if (!press_ || e->button() != Qt::LeftButton) return;
    const QPointF start = *press_;
    press_.reset();
    if (dragging_) {
        dragging_ = false;
        const double x = std::clamp(e->position().x(), plotArea().left(), plotArea().right());
        setSelection(timeAtX(std::min(start.x(), x)), timeAtX(std::max(start.x(), x)));
        return;
    }
    const QPoint at = e->position().toPoint();
    if (const auto p = pointUnder(at)) {
        highlight_.reset();
        update();
        emit eventClicked(*p);
    } else if (const auto s = spanUnder(at)) {
        highlight_ = *s;
        update();
        emit eventClicked(timeline_->span(*s).open);
    }
}

QString TimelineView::describeAt(const QPoint& pos) const {
    const int lane = laneAtY(pos.y());
    if (!timeline_ || lane < 0) return {};
    const trace::TimelineLane& l = timeline_->lanes()[static_cast<std::size_t>(lane)];
    QString where = l.cpu >= 0 ? tr("CPU %1").arg(l.cpu) : tr("no CPU");
    if (l.node >= 0) where += tr(", node %1").arg(l.node);
    if (const auto p = pointUnder(pos)) {
        const trace::TimelineEvent& ev = timeline_->event(*p);
        return tr("%1\n%2 at %3 (event %L4)")
            .arg(where,
                 QString::fromLatin1(sim::simEventName(static_cast<sim::SimEvent::Kind>(ev.kind))),
                 QString::fromStdString(trace::formatTime(ev.time)))
            .arg(*p);
    }
    const auto s = spanUnder(pos);
    if (!s) return where;
    const trace::TimelineSpan& sp = timeline_->span(*s);
    QString what = QString::fromLatin1(trace::spanKindName(sp.kind));
    if (sp.kind == SpanKind::Wait || sp.kind == SpanKind::Hold)
        what += QStringLiteral(" %1 (%2)")
                    .arg(QString::fromStdString(
                             timeline_->lockNames()[static_cast<std::size_t>(sp.lock)]),
                         sp.mode ? tr("read") : tr("write"));
    return tr("%1, agent %2\n%3: %4 from %5%6")
        .arg(where)
        .arg(timeline_->event(sp.open).agent)
        .arg(what, QString::fromStdString(trace::formatTime(sp.duration())),
             QString::fromStdString(trace::formatTime(sp.start)),
             sp.close == trace::kNoEvent ? tr(" (never ends)") : QString());
}

bool TimelineView::event(QEvent* e) {
    // With the timeline focused its keys win over window shortcuts on the same keys (the
    // window's W starts an rmap walk, Home goes to the animation's start).
    if (e->type() == QEvent::ShortcutOverride) {
        const auto* k = static_cast<QKeyEvent*>(e);
        const int key = k->key();
        if ((k->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier &&
            (key == Qt::Key_W || key == Qt::Key_S || key == Qt::Key_A || key == Qt::Key_D ||
             key == Qt::Key_Home || key == Qt::Key_Escape)) {
            e->accept();
            return true;
        }
    }
    if (e->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        const QString text = describeAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

// --- painting -----------------------------------------------------------------------------

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
