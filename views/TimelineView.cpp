// TimelineView: its state, layout, zoom and pan, and the mouse and keys (painting is in
// TimelineViewPaint.cpp).
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

#include "views/NodePalette.h"
#include "views/TimelineMetrics.h"

namespace immap::views {

using trace::SpanKind;
using trace::SpanLayer;
using trace::Timeline;
using namespace timeline;

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

}  // namespace immap::views
