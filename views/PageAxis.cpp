#include "PageAxis.h"
#include "FontScale.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

namespace immap::views {

namespace {
constexpr int kTitle = 16, kBar = 11, kGap = 3, kTicks = 16, kMaxLanes = 6;
constexpr double kSide = 10;

QString hex(std::uint64_t v) {
    return QStringLiteral("0x") + QString::number(v, 16);
}
}  // namespace

PageAxis::PageAxis(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setCursor(Qt::CrossCursor);
    setToolTip(tr("File pages. Click a page or drag over a range: rmap walk over every tree."));
    setFixedHeight(kTitle + kBar + kGap + kTicks + 4);
}

void PageAxis::setBars(std::vector<session::TreeSet::PageBar> bars) {
    bars_ = std::move(bars);  // sorted by first page
    pages_ = 1;
    for (const auto& b : bars_)
        pages_ = std::max(pages_, b.last + 1);
    // Greedy lanes: a bar goes in the first lane whose last bar ends before it starts.
    std::vector<itree::Index> laneEnd;
    lane_.assign(bars_.size(), 0);
    for (std::size_t i = 0; i < bars_.size(); ++i) {
        std::size_t l = 0;
        while (l < laneEnd.size() && laneEnd[l] >= bars_[i].first)
            ++l;
        if (l == laneEnd.size()) laneEnd.push_back(0);
        laneEnd[l] = bars_[i].last;
        lane_[i] = static_cast<int>(std::min<std::size_t>(l, kMaxLanes - 1));
    }
    lanes_ = std::max(1, std::min(static_cast<int>(laneEnd.size()), kMaxLanes));
    setFixedHeight(kTitle + lanes_ * (kBar + kGap) + kTicks + 4);
    update();
}

void PageAxis::setRange(itree::Index first, itree::Index last) {
    hasRange_ = true;
    first_ = first;
    last_ = last;
    update();
}

void PageAxis::clearRange() {
    hasRange_ = false;
    update();
}

QRectF PageAxis::axisRect() const {
    return QRectF(kSide, kTitle, width() - 2 * kSide, lanes_ * (kBar + kGap));
}

double PageAxis::xOf(itree::Index page) const {
    const QRectF a = axisRect();
    return a.left() + a.width() * static_cast<double>(page) / static_cast<double>(pages_);
}

itree::Index PageAxis::pageAt(double x) const {
    const QRectF a = axisRect();
    const double f = std::clamp((x - a.left()) / a.width(), 0.0, 1.0);
    return std::min<itree::Index>(pages_ - 1, static_cast<itree::Index>(f * pages_));
}

void PageAxis::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(0xf6, 0xf7, 0xf8));
    QFont f = font();
    f.setPixelSize(scaledPx(11));
    p.setFont(f);
    p.setPen(QColor(0x40, 0x40, 0x40));
    p.drawText(QRectF(kSide, 0, width() - 2 * kSide, kTitle), Qt::AlignLeft | Qt::AlignVCenter,
               tr("file pages: each bar is the VMAs mapping those pages · click or drag for an "
                  "rmap walk"));
    const QRectF a = axisRect();
    if (hasRange_) {
        const double x0 = xOf(first_), x1 = std::max(xOf(last_ + 1), x0 + 2);
        p.fillRect(QRectF(x0, a.top() - 2, x1 - x0, a.height() + 4), QColor(0x2c, 0xa0, 0x2c, 90));
    }
    const QFontMetrics fm(f);
    for (std::size_t i = 0; i < bars_.size(); ++i) {
        const auto& b = bars_[i];
        const double x0 = xOf(b.first), x1 = std::max(xOf(b.last + 1), x0 + 1.5);
        // A hairline gap between neighbours so adjacent ranges read as separate bars.
        const double w = x1 - x0 > 3 ? x1 - x0 - 1 : x1 - x0;
        const QRectF r(x0, a.top() + lane_[i] * (kBar + kGap), w, kBar);
        const bool hit = hasRange_ && b.first <= last_ && first_ <= b.last;
        p.fillRect(r, hit ? QColor(0x2c, 0xa0, 0x2c) : QColor(0x4a, 0x78, 0xa8));
        const QString label = QStringLiteral("×%1").arg(b.count);
        if (fm.horizontalAdvance(label) + 4 < r.width()) {
            p.setPen(Qt::white);
            p.drawText(r, Qt::AlignCenter, label);
        }
    }
    // Ticks: about one per 120 px, at page numbers.
    const double y = a.bottom() + 2;
    p.setPen(QColor(0x80, 0x80, 0x80));
    p.drawLine(QPointF(a.left(), y), QPointF(a.right(), y));
    const int ticks = std::max(2, static_cast<int>(a.width() / 120));
    for (int t = 0; t <= ticks; ++t) {
        const itree::Index page =
            pages_ * static_cast<itree::Index>(t) / static_cast<itree::Index>(ticks);
        const double x = xOf(page);
        p.drawLine(QPointF(x, y), QPointF(x, y + 3));
        const QString text = hex(page);
        const double w = fm.horizontalAdvance(text);
        p.drawText(QPointF(std::clamp(x - w / 2, 0.0, width() - w), y + 3 + fm.ascent()), text);
    }
}

void PageAxis::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    dragging_ = true;
    anchor_ = pageAt(e->position().x());
    setRange(anchor_, anchor_);
}

void PageAxis::mouseMoveEvent(QMouseEvent* e) {
    const itree::Index page = pageAt(e->position().x());
    if (dragging_) setRange(std::min(anchor_, page), std::max(anchor_, page));
    setToolTip(tr("page %1").arg(hex(page)));
}

void PageAxis::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !dragging_) return;
    dragging_ = false;
    emit rangeChosen(first_, last_);
}

}  // namespace immap::views
