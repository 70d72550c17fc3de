#include "ContentionView.h"

#include "FontScale.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QToolTip>
#include <algorithm>
#include <cstring>

#include "LockQueueRows.h"
#include "NodePalette.h"
#include "trace/Timeline.h"

namespace immap::views {

namespace {
constexpr int kChip = 10;
constexpr int kGroupGap = 3;
constexpr int kAxisTicks = 4;  // besides "now"

QString lockName(const live::RunSnapshot& r, int lock) {
    return lock >= 0 && static_cast<std::size_t>(lock) < r.locks.size()
               ? QString::fromStdString(r.locks[static_cast<std::size_t>(lock)].name)
               : QStringLiteral("?");
}

}  // namespace

ContentionView::ContentionView(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
}

QColor ContentionView::lockColor(int lock) {
    return NodePalette::home(std::max(0, lock));
}

QString ContentionView::shortLockName(const QString& name) {
    const int slash = name.lastIndexOf(QLatin1Char('/'));
    QString file = slash >= 0 ? name.left(slash) : name;
    const int cut = file.indexOf(QRegularExpression(QStringLiteral("[.-]")));
    if (cut > 0) file.truncate(cut);
    if (slash < 0) return file;
    QString part = name.mid(slash + 1);
    if (part.startsWith(QLatin1String("node"))) part = QLatin1Char('n') + part.mid(4);
    if (part.startsWith(QLatin1String("shard"))) part = QLatin1Char('s') + part.mid(5);
    return file + QLatin1Char('/') + part;
}

void ContentionView::setTitle(const QString& title) {
    title_ = title;
    update(header_);
}

void ContentionView::clear() {
    run_ = {};
    now_ = 0;
    history_.clear();
    collapsedNodes_.clear();
    relayout();
    update();
}

void ContentionView::setSnapshot(const live::RunSnapshot& run, sim::Time now) {
    run_ = run;
    now_ = now;
    if (history_.add(run_, now)) {
        autoCollapse_ = true;  // a new set of lanes: the size chooses again
        relayout();
    }
    update();
}

void ContentionView::setCollapsed(int node, bool collapsed) {
    autoCollapse_ = false;
    std::erase(collapsedNodes_, node);
    if (collapsed) collapsedNodes_.push_back(node);
    relayout();
}

void ContentionView::setAllCollapsed(bool collapsed) {
    autoCollapse_ = false;
    collapsedNodes_.clear();
    if (collapsed)
        for (const LaneHistory::Group& g : history_.groups())
            collapsedNodes_.push_back(g.node);
    relayout();
}

bool ContentionView::isCollapsed(int node) const {
    return std::find(collapsedNodes_.begin(), collapsedNodes_.end(), node) != collapsedNodes_.end();
}

void ContentionView::resizeEvent(QResizeEvent*) {
    relayout();
}

void ContentionView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange) relayout();
    QWidget::changeEvent(e);
}

void ContentionView::relayout() {
    const QRect r = rect();
    const QFontMetrics fm(font());
    {
        QFont big = font();
        big.setPointSizeF(big.pointSizeF() * 1.5);
        header_h_ = std::max(34, QFontMetrics(big).height() + 8);
        legend_h_ = std::max(20, fm.height() + 4);
        nodeLabel_ = fm.horizontalAdvance(QStringLiteral("\u25b8 ") + tr("node %1").arg(88)) + 14;
        queueRow_ = std::max(17, fm.height() + 3);
        summaryHeight_ = std::max(14, fm.height() + 2);
    }
    header_ = QRect(r.left(), r.top(), r.width(), header_h_);
    legend_ = QRect(r.left(), r.bottom() - legend_h_ + 1, r.width(), legend_h_);
    const int bodyTop = header_.bottom() + 1;
    const int axisHeight = fm.height() + 8;
    const int bodyHeight = std::max(0, legend_.top() - bodyTop);
    const int laneWidth = r.width() * 11 / 20;
    lanes_ = QRect(r.left(), bodyTop, laneWidth, std::max(0, bodyHeight - axisHeight));
    queues_ =
        QRect(lanes_.right() + 8, bodyTop, std::max(0, r.right() - lanes_.right() - 8), bodyHeight);
    // A lock's name gets what "libc.so.6/node11" needs, up to half the queue column.
    queueName_ = std::clamp(fm.horizontalAdvance(QStringLiteral("libc.so.6/node11")) + kChip + 8,
                            90, std::max(90, queues_.width() / 2));

    // Lanes: grouped by node, a small gap between groups; collapsed nodes take one summary
    // lane each, the expanded lanes share the rest, as tall as it allows.
    laneTop_.assign(run_.lanes.size(), -1);
    bands_.clear();
    const auto& groups = history_.groups();
    // In large type the gaps between nodes shrink to a pixel (each lane has its node's colour
    // bar): twelve summary lanes need that room to be written in the slide's type.
    const int groupGap = fontScale() > 1 ? 1 : kGroupGap;
    const int gaps = groupGap * std::max(0, static_cast<int>(groups.size()) - 1);
    const int avail = std::max(0, lanes_.height() - 4 - gaps);
    if (autoCollapse_) {
        // Until the user chooses: every lane when each gets 3 px, else every node but the
        // first as a named summary, else (large type, a short view) all of them named.
        collapsedNodes_.clear();
        if (static_cast<int>(run_.lanes.size()) * 3 > avail && groups.size() > 1) {
            const int rest = static_cast<int>(groups.size()) - 1;
            for (std::size_t g = groups.front().count * 3 + rest * summaryHeight_ <= avail ? 1 : 0;
                 g < groups.size(); ++g)
                collapsedNodes_.push_back(groups[g].node);
        }
    }
    int expandedLanes = 0, collapsed = 0;
    for (const LaneHistory::Group& g : groups) {
        if (isCollapsed(g.node))
            ++collapsed;
        else
            expandedLanes += g.count;
    }
    // Summaries as tall as the type when they leave the expanded lanes 3 px each, else
    // thinner (their labels then give way): the bands never spill over the axis. With
    // every node collapsed they share the height, up to twice the type.
    bandHeight_ = summaryHeight_;
    if (expandedLanes == 0 && collapsed > 0)
        bandHeight_ = std::clamp(avail / collapsed, 3, 2 * summaryHeight_);
    if (collapsed > 0 && collapsed * bandHeight_ + expandedLanes * 3 > avail)
        bandHeight_ = std::max(3, (avail - expandedLanes * 3) / collapsed);
    const double usable = std::max(0, avail - collapsed * bandHeight_);
    // Whole pixels per lane, so that one scaled blit per node lands every row on its lane;
    // below one pixel a lane (level of detail) several CPUs share a row.
    const double h = expandedLanes > 0 ? std::min(14.0, usable / expandedLanes) : 0;
    laneHeight_ = std::max(1, static_cast<int>(h));
    const double step = h >= 1 ? laneHeight_ : h;
    // The chip names its lock when the lane is tall enough to read it.
    QFont chipFont = font();
    chipFont.setPixelSize(std::max(1, laneHeight_ - 3));
    chipWidth_ = laneHeight_ >= 12
                     ? QFontMetrics(chipFont).horizontalAdvance(QStringLiteral("libc/n11")) + 6
                     : kChip;
    const int stripLeft = lanes_.left() + nodeLabel_;
    const int stripWidth = std::max(0, lanes_.width() - nodeLabel_ - chipWidth_ - 4);
    double y = lanes_.top() + 2;
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const LaneHistory::Group& g = groups[gi];
        Band b{g, static_cast<int>(gi), isCollapsed(g.node), QRect()};
        if (b.collapsed) {
            b.strip =
                QRect(stripLeft, static_cast<int>(y), stripWidth, std::max(1, bandHeight_ - 2));
            y += bandHeight_;
        } else {
            for (int i = g.first; i < g.first + g.count; ++i) {
                laneTop_[static_cast<std::size_t>(i)] = static_cast<int>(y);
                y += step;
            }
            b.strip = QRect(stripLeft, laneTop_[static_cast<std::size_t>(g.first)], stripWidth,
                            static_cast<int>(y) - laneTop_[static_cast<std::size_t>(g.first)]);
            b.strip.setHeight(std::max(b.strip.height(), laneHeight_));
        }
        y += groupGap;
        bands_.push_back(b);
    }
    const int stripsBottom = bands_.empty() ? lanes_.top() : bands_.back().strip.bottom();
    axis_ = QRect(stripLeft, std::min(lanes_.bottom(), stripsBottom) + 2, stripWidth, axisHeight);
    queueRows_.clear();
    update();
}

const ContentionView::Band* ContentionView::bandOf(int node) const {
    for (const Band& b : bands_)
        if (b.group.node == node) return &b;
    return nullptr;
}

QRect ContentionView::laneRect(int lane) const {
    if (lane < 0 || lane >= static_cast<int>(laneTop_.size())) return {};
    const int top = laneTop_[static_cast<std::size_t>(lane)];
    if (top < 0) return {};
    return QRect(lanes_.left() + nodeLabel_, top,
                 std::max(0, lanes_.width() - nodeLabel_ - chipWidth_ - 4), laneHeight_);
}

QRect ContentionView::chipRect(int lane) const {
    const QRect l = laneRect(lane);
    return l.isNull() ? l : QRect(l.right() + 3, l.top(), chipWidth_, l.height());
}

QRect ContentionView::summaryRect(int node) const {
    const Band* b = bandOf(node);
    return b && b->collapsed ? b->strip : QRect();
}

QRect ContentionView::nodeLabelRect(int node) const {
    const Band* b = bandOf(node);
    if (!b) return {};
    return QRect(lanes_.left(), b->strip.top(), nodeLabel_, std::max(b->strip.height(), 8));
}

QRect ContentionView::queueRect(int lock) const {
    for (const auto& [l, row] : queueRows_)
        if (l == lock) return row;
    return {};
}

int ContentionView::laneAt(QPoint p) const {
    for (int i = 0; i < static_cast<int>(laneTop_.size()); ++i) {
        const QRect r = laneRect(i);
        if (!r.isNull() && r.adjusted(0, 0, chipWidth_ + 4, 0).contains(p)) return i;
    }
    return -1;
}

int ContentionView::bandAt(QPoint p) const {
    for (std::size_t i = 0; i < bands_.size(); ++i) {
        const QRect label = nodeLabelRect(bands_[i].group.node);
        if (label.contains(p) || (bands_[i].collapsed && bands_[i].strip.contains(p)))
            return static_cast<int>(i);
    }
    return -1;
}

QString ContentionView::rateText() const {
    if (run_.warmingUp) return tr("warm-up");
    return tr("%L1 execs/s").arg(run_.execsPerSecond, 0, 'f', 0);
}

QString ContentionView::summaryText(int node) const {
    const Band* b = bandOf(node);
    if (!b) return {};
    std::vector<int> waits(run_.locks.size()), holds(run_.locks.size());
    int waiting = 0, holding = 0;
    for (int i = b->group.first; i < b->group.first + b->group.count; ++i) {
        const live::Lane& l = run_.lanes[static_cast<std::size_t>(i)];
        if (l.lock < 0 || static_cast<std::size_t>(l.lock) >= run_.locks.size()) continue;
        if (l.state == live::LaneState::Waiting) {
            ++waiting;
            ++waits[static_cast<std::size_t>(l.lock)];
        } else if (l.state == live::LaneState::Holding) {
            ++holding;
            ++holds[static_cast<std::size_t>(l.lock)];
        }
    }
    auto top = [&](const std::vector<int>& v) {
        return static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
    };
    if (waiting > 0) {
        const int lock = top(waits);
        return waits[static_cast<std::size_t>(lock)] == waiting
                   ? tr("%1 waiting for %2").arg(waiting).arg(lockName(run_, lock))
                   : tr("%1 waiting, %2 for %3")
                         .arg(waiting)
                         .arg(waits[static_cast<std::size_t>(lock)])
                         .arg(lockName(run_, lock));
    }
    if (holding > 0) return tr("%1 holding %2").arg(holding).arg(lockName(run_, top(holds)));
    return {};
}

std::vector<std::pair<int, QString>> ContentionView::axisTicks() const {
    std::vector<std::pair<int, QString>> ticks;
    if (history_.filled() == 0 || axis_.width() <= 0) return ticks;
    const double column = axis_.width() / static_cast<double>(kHistory);
    const sim::Time newest = history_.timeAt(kHistory - 1);
    for (int k = kAxisTicks; k >= 0; --k) {
        const int c = kHistory - 1 - k * (kHistory / kAxisTicks);
        const sim::Time t = history_.timeAt(std::max(0, c));
        if (t < 0) continue;
        const int x = axis_.left() + static_cast<int>((std::max(0, c) + 0.5) * column);
        ticks.push_back({x, k == 0 ? tr("now")
                                   : QStringLiteral("\u2212") +
                                         QString::fromStdString(trace::formatTime(newest - t))});
    }
    return ticks;
}

void ContentionView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintTo(p, rect());
}

void ContentionView::paintTo(QPainter& p, const QRect& rect) {
    p.fillRect(rect, NodePalette::background());
    p.setPen(Qt::black);
    QFont f = font();
    // Header: the policy, the simulated clock, the running execs/s (or the warm-up).
    f.setBold(true);
    p.setFont(f);
    const QString title = title_.isEmpty() ? QString::fromStdString(run_.policy) : title_;
    const int titleRight = header_.left() + 6 + QFontMetrics(f).horizontalAdvance(title);
    p.drawText(header_.adjusted(6, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, title);
    QFont big = f;
    big.setPointSizeF(f.pointSizeF() * 1.5);
    p.setFont(big);
    const QString rate = rateText();
    const int rateLeft = header_.right() - 8 - QFontMetrics(big).horizontalAdvance(rate);
    p.setPen(run_.warmingUp ? QColor(0x77, 0x77, 0x77) : QColor(Qt::black));
    p.drawText(header_.adjusted(0, 0, -8, 0), Qt::AlignRight | Qt::AlignVCenter, rate);
    f.setBold(false);
    p.setFont(f);
    p.setPen(QColor(0x55, 0x55, 0x55));
    const QFontMetrics fm(f);
    // The clock between the two, elided when the view is narrow.
    const QRect clock(titleRight + 16, header_.top(), std::max(0, rateLeft - titleRight - 26),
                      header_.height());
    const QString done = run_.warmingUp
                             ? tr(" · %L1 execs in the warm-up (not measured)").arg(run_.execs)
                             : tr(" · %L1 execs").arg(run_.execs);
    p.drawText(clock, Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("t = %L1 µs%2%3")
                                 .arg(static_cast<double>(now_) / 1000.0, 0, 'f', 1)
                                 .arg(done)
                                 .arg(run_.finished ? tr(" · finished") : QString()),
                             Qt::ElideRight, clock.width()));

    paintLanes(p);
    paintAxis(p, fm);
    paintQueues(p, f);
    paintLegend(p, fm);
}

void ContentionView::paintLanes(QPainter& p) {
    if (history_.lanes().isNull()) {
        p.setPen(QColor(0x77, 0x77, 0x77));
        p.drawText(lanes_, Qt::AlignCenter, tr("No run yet: press Start."));
        return;
    }
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    for (const Band& b : bands_) {
        p.fillRect(b.strip, QColor(0xee, 0xee, 0xec));
        // One scaled blit per group (nearest pixel): thin lanes stay cheap to paint.
        if (b.collapsed)
            p.drawImage(
                b.strip, history_.summary(),
                QRect(0, b.index * LaneHistory::kSummaryRows, kHistory, LaneHistory::kSummaryRows));
        else
            p.drawImage(b.strip, history_.lanes(),
                        QRect(0, b.group.first, kHistory, b.group.count));
        const QRect label = nodeLabelRect(b.group.node);
        p.fillRect(QRect(label.left() + 2, b.strip.top(), 4, b.strip.height()),
                   NodePalette::home(b.group.node));
        // The band's text in the type, or smaller to fit a thin band (not below 9 px); in
        // large type never under the slide's least where the band is as tall as that.
        QFont bandFont = font();
        int px = std::min(QFontInfo(font()).pixelSize(), std::max(label.height(), 1) - 2);
        if (fontScale() > 1 && label.height() >= kSlideMinPx) px = std::max(px, kSlideMinPx);
        if (px < 9) continue;
        bandFont.setPixelSize(px);
        p.setFont(bandFont);
        const QFontMetrics bm(bandFont);
        p.setPen(QColor(0x44, 0x44, 0x44));
        p.drawText(
            label.adjusted(8, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
            bm.elidedText((b.collapsed ? QStringLiteral("\u25b8 ") : QStringLiteral("\u25be ")) +
                              tr("node %1").arg(b.group.node),
                          Qt::ElideRight, label.width() - 10));
        if (b.collapsed) {
            // What the node's CPUs wait for now, over the oldest history (the left end).
            const QString text = summaryText(b.group.node);
            if (!text.isEmpty()) {
                const QString shown =
                    bm.elidedText(text, Qt::ElideMiddle, std::max(0, b.strip.width() - 8));
                const QRect box(b.strip.left() + 2, b.strip.top() + 1,
                                bm.horizontalAdvance(shown) + 8, b.strip.height() - 2);
                p.fillRect(box, QColor(255, 255, 255, 215));
                p.setPen(Qt::black);
                p.drawText(box, Qt::AlignCenter, shown);
            }
        }
        p.setFont(font());
    }
    QFont chipFont = font();
    chipFont.setPixelSize(std::max(1, laneHeight_ - 3));
    p.setFont(chipFont);
    for (int i = 0; i < static_cast<int>(run_.lanes.size()); ++i) {
        const live::Lane& l = run_.lanes[static_cast<std::size_t>(i)];
        const QRect chip = chipRect(i);
        if (chip.isNull() || l.state == live::LaneState::Working) continue;
        p.fillRect(chip, lockColor(l.lock));
        if (chipWidth_ > kChip) {
            p.setPen(Qt::white);
            p.drawText(chip, Qt::AlignCenter, shortLockName(lockName(run_, l.lock)));
        }
    }
    p.setFont(font());
}

void ContentionView::paintAxis(QPainter& p, const QFontMetrics& fm) {
    const auto ticks = axisTicks();
    if (ticks.empty()) return;
    p.setPen(QColor(0x66, 0x66, 0x66));
    p.drawLine(axis_.left(), axis_.top(), axis_.right(), axis_.top());
    int rightEdge = axis_.right() + chipWidth_ + 4;  // labels never overlap: right to left
    for (auto it = ticks.rbegin(); it != ticks.rend(); ++it) {
        const auto& [x, text] = *it;
        p.drawLine(x, axis_.top(), x, axis_.top() + 3);
        const int w = fm.horizontalAdvance(text);
        const int left = std::min(x - w / 2, rightEdge - w);
        if (left < axis_.left()) break;  // left of the strips: "sim. time"
        p.drawText(QRect(left, axis_.top() + 3, w, fm.height()), Qt::AlignCenter, text);
        rightEdge = left - fm.horizontalAdvance(QStringLiteral("  "));
    }
    // What the axis measures, left of the strips.
    const QString what = tr("sim. time");
    if (fm.horizontalAdvance(what) < nodeLabel_ - 4)
        p.drawText(QRect(lanes_.left() + 4, axis_.top() + 3, nodeLabel_ - 6, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, what);
}

void ContentionView::paintQueues(QPainter& p, const QFont& f) {
    queueRows_ = LockQueueRows::paint(p, queues_, run_, f, queueRow_, queueName_);
}

void ContentionView::paintLegend(QPainter& p, const QFontMetrics& fm) {
    // Legend: the three states; the locks are named by their rows, their chips and on hover.
    p.setFont(font());
    int x = legend_.left() + 6;
    const int sw = std::max(10, fm.height() * 6 / 10);
    auto swatch = [&](const QColor& c, const QString& text) {
        p.fillRect(QRect(x, legend_.center().y() - sw / 2, sw + 2, sw), c);
        x += sw + 6;
        p.setPen(Qt::black);
        p.drawText(QRect(x, legend_.top(), fm.horizontalAdvance(text) + 4, legend_.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, text);
        x += fm.horizontalAdvance(text) + 14;
    };
    swatch(workingColor(), tr("working"));
    swatch(waitingColor(), tr("waiting"));
    swatch(holdingColor(), tr("holding"));
    p.setPen(QColor(0x55, 0x55, 0x55));
    p.drawText(QRect(x, legend_.top(), legend_.right() - x, legend_.height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("lane end: its lock, as in the queue rows · click a node to "
                                "collapse or expand it"),
                             Qt::ElideRight, std::max(0, legend_.right() - x)));
}

QString ContentionView::tooltipAt(QPoint pos) const {
    const int i = laneAt(pos);
    if (i >= 0) {
        const live::Lane& l = run_.lanes[static_cast<std::size_t>(i)];
        QString text = tr("CPU %1 (node %2)").arg(l.cpu).arg(l.node);
        if (l.copies > 1) text += tr(", %1 copies").arg(l.copies);
        text += QStringLiteral(": ") + QString::fromLatin1(live::laneStateName(l.state));
        if (l.state != live::LaneState::Working) {
            text += (l.state == live::LaneState::Waiting ? tr(" for ") : QStringLiteral(" "));
            text += lockName(run_, l.lock) + (l.read ? tr(" (read)") : tr(" (write)"));
            if (l.state == live::LaneState::Waiting) {
                const auto& w = run_.locks[static_cast<std::size_t>(l.lock)].waiting;
                for (std::size_t k = 0; k < w.size(); ++k)
                    if (w[k].cpu == static_cast<int>(l.cpu)) {
                        text += tr(", %1 of %2 in line").arg(k + 1).arg(w.size());
                        break;
                    }
            }
        }
        return text;
    }
    if (const int b = bandAt(pos); b >= 0) {
        const Band& band = bands_[static_cast<std::size_t>(b)];
        const QString what = summaryText(band.group.node);
        return tr("node %1: %2 CPUs%3 · click to %4")
            .arg(band.group.node)
            .arg(band.group.count)
            .arg(what.isEmpty() ? QString() : QStringLiteral(", ") + what)
            .arg(band.collapsed ? tr("expand") : tr("collapse"));
    }
    for (const auto& [lock, row] : queueRows_)
        if (row.contains(pos)) {
            const live::LockQueue& q = run_.locks[static_cast<std::size_t>(lock)];
            return tr("%1: %2 holder(s), %3 waiting")
                .arg(QString::fromStdString(q.name))
                .arg(q.holders.size())
                .arg(q.waiting.size());
        }
    return {};
}

bool ContentionView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void ContentionView::mousePressEvent(QMouseEvent* e) {
    const QPoint pos = e->position().toPoint();
    if (const int b = bandAt(pos); b >= 0) {
        const Band& band = bands_[static_cast<std::size_t>(b)];
        setCollapsed(band.group.node, !band.collapsed);
        return;
    }
    const int i = laneAt(pos);
    if (i >= 0) emit laneClicked(run_.lanes[static_cast<std::size_t>(i)].cpu);
}

}  // namespace immap::views
