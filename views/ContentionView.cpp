#include "ContentionView.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cstring>

#include "NodePalette.h"

namespace immap::views {

namespace {
constexpr int kChip = 10;
constexpr int kGroupGap = 3;

QRgb stateRgb(live::LaneState s) {
    switch (s) {
        case live::LaneState::Waiting:
            return ContentionView::waitingColor().rgb();
        case live::LaneState::Holding:
            return ContentionView::holdingColor().rgb();
        case live::LaneState::Working:
            break;
    }
    return ContentionView::workingColor().rgb();
}

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

void ContentionView::setTitle(const QString& title) {
    title_ = title;
    update(header_);
}

void ContentionView::clear() {
    run_ = {};
    now_ = 0;
    history_ = QImage();
    columns_ = 0;
    relayout();
    update();
}

void ContentionView::setSnapshot(const live::RunSnapshot& run, sim::Time now) {
    const bool reshape = run.lanes.size() != run_.lanes.size() ||
                         run.locks.size() != run_.locks.size() ||
                         (!run.lanes.empty() && (run.lanes.front().cpu != run_.lanes.front().cpu ||
                                                 run.lanes.back().cpu != run_.lanes.back().cpu));
    run_ = run;
    now_ = now;
    const int rows = static_cast<int>(run_.lanes.size());
    if (reshape || history_.height() != rows) {
        history_ =
            rows > 0 ? QImage(kHistory, rows, QImage::Format_ARGB32_Premultiplied) : QImage();
        if (!history_.isNull()) history_.fill(Qt::transparent);
        columns_ = 0;
        relayout();
    }
    // Shift every row one column left, then write the newest column at the right edge.
    for (int y = 0; y < rows; ++y) {
        auto* line = reinterpret_cast<QRgb*>(history_.scanLine(y));
        std::memmove(line, line + 1, sizeof(QRgb) * (kHistory - 1));
        line[kHistory - 1] = stateRgb(run_.lanes[static_cast<std::size_t>(y)].state);
    }
    columns_ = std::min(kHistory, columns_ + 1);
    update();
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
    {
        const QFontMetrics fm(font());
        QFont big = font();
        big.setPointSizeF(big.pointSizeF() * 1.5);
        header_h_ = std::max(34, QFontMetrics(big).height() + 8);
        legend_h_ = std::max(20, fm.height() + 4);
        nodeLabel_ = fm.horizontalAdvance(tr("node %1").arg(88)) + 14;
        queueRow_ = std::max(17, fm.height() + 3);
    }
    header_ = QRect(r.left(), r.top(), r.width(), header_h_);
    legend_ = QRect(r.left(), r.bottom() - legend_h_ + 1, r.width(), legend_h_);
    const int bodyTop = header_.bottom() + 1;
    const int bodyHeight = std::max(0, legend_.top() - bodyTop);
    const int laneWidth = r.width() * 11 / 20;
    lanes_ = QRect(r.left(), bodyTop, laneWidth, bodyHeight);
    queues_ =
        QRect(lanes_.right() + 8, bodyTop, std::max(0, r.right() - lanes_.right() - 8), bodyHeight);
    // A lock's name gets what "libc.so.6/node11" needs, up to half the queue column.
    queueName_ = std::clamp(
        QFontMetrics(font()).horizontalAdvance(QStringLiteral("libc.so.6/node11")) + kChip + 8, 90,
        std::max(90, queues_.width() / 2));

    // Lanes: grouped by node, a small gap between groups; as tall as the height allows.
    laneTop_.clear();
    groups_.clear();
    const int n = static_cast<int>(run_.lanes.size());
    int nodes = 0;
    for (int i = 0; i < n; ++i)
        if (i == 0 || run_.lanes[static_cast<std::size_t>(i)].node !=
                          run_.lanes[static_cast<std::size_t>(i - 1)].node)
            ++nodes;
    const double usable = std::max(0, lanes_.height() - 4 - kGroupGap * std::max(0, nodes - 1));
    // Whole pixels per lane, so that one scaled blit per node lands every row on its lane;
    // below one pixel a lane (level of detail) several CPUs share a row.
    const double h = n > 0 ? std::min(14.0, usable / n) : 0;
    laneHeight_ = std::max(1, static_cast<int>(h));
    const double step = h >= 1 ? laneHeight_ : h;
    int group = -1;
    for (int i = 0; i < n; ++i) {
        const auto& lane = run_.lanes[static_cast<std::size_t>(i)];
        if (i == 0 || lane.node != run_.lanes[static_cast<std::size_t>(i - 1)].node) {
            ++group;
            groups_.push_back({lane.node, QRect()});
        }
        const int y = lanes_.top() + 2 + static_cast<int>(i * step) + group * kGroupGap;
        laneTop_.push_back(y);
        QRect& band = groups_.back().second;
        const QRect strip(lanes_.left() + nodeLabel_, y, lanes_.width() - nodeLabel_ - kChip - 4,
                          laneHeight_);
        band = band.isNull() ? strip : band.united(strip);
    }
    queueRows_.clear();
    update();
}

QRect ContentionView::laneRect(int lane) const {
    if (lane < 0 || lane >= static_cast<int>(laneTop_.size())) return {};
    return QRect(lanes_.left() + nodeLabel_, laneTop_[static_cast<std::size_t>(lane)],
                 lanes_.width() - nodeLabel_ - kChip - 4, laneHeight_);
}

QRect ContentionView::chipRect(int lane) const {
    const QRect l = laneRect(lane);
    return l.isNull() ? l : QRect(l.right() + 3, l.top(), kChip, l.height());
}

QRect ContentionView::queueRect(int lock) const {
    for (const auto& [l, row] : queueRows_)
        if (l == lock) return row;
    return {};
}

int ContentionView::laneAt(QPoint p) const {
    for (int i = 0; i < static_cast<int>(laneTop_.size()); ++i) {
        const QRect r = laneRect(i).adjusted(-nodeLabel_, 0, kChip + 4, 0);
        if (r.contains(p)) return i;
    }
    return -1;
}

void ContentionView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintTo(p, rect());
}

void ContentionView::paintTo(QPainter& p, const QRect& rect) {
    p.fillRect(rect, NodePalette::background());
    p.setPen(Qt::black);
    QFont f = font();
    // Header: the policy, the simulated clock, the running execs/s.
    f.setBold(true);
    p.setFont(f);
    const QString title = title_.isEmpty() ? QString::fromStdString(run_.policy) : title_;
    const int titleRight = header_.left() + 6 + QFontMetrics(f).horizontalAdvance(title);
    p.drawText(header_.adjusted(6, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, title);
    QFont big = f;
    big.setPointSizeF(f.pointSizeF() * 1.5);
    p.setFont(big);
    const QString rate = tr("%L1 execs/s").arg(run_.execsPerSecond, 0, 'f', 0);
    const int rateLeft = header_.right() - 8 - QFontMetrics(big).horizontalAdvance(rate);
    p.drawText(header_.adjusted(0, 0, -8, 0), Qt::AlignRight | Qt::AlignVCenter, rate);
    f.setBold(false);
    p.setFont(f);
    p.setPen(QColor(0x55, 0x55, 0x55));
    const QFontMetrics fm(f);
    // The clock between the two, elided when the view is narrow.
    const QRect clock(titleRight + 16, header_.top(), std::max(0, rateLeft - titleRight - 26),
                      header_.height());
    p.drawText(clock, Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("t = %L1 µs · %L2 execs%3")
                                 .arg(static_cast<double>(now_) / 1000.0, 0, 'f', 1)
                                 .arg(run_.execs)
                                 .arg(run_.finished ? tr(" · finished") : QString()),
                             Qt::ElideRight, clock.width()));

    // Lanes: the history strips, one blit per node group; then the lock chips.
    if (!history_.isNull()) {
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        int first = 0;
        for (const auto& [node, band] : groups_) {
            int count = 0;
            while (first + count < static_cast<int>(run_.lanes.size()) &&
                   run_.lanes[static_cast<std::size_t>(first + count)].node == node)
                ++count;
            p.fillRect(band, QColor(0xee, 0xee, 0xec));
            // One scaled blit per group (nearest pixel): thin lanes stay cheap to paint.
            p.drawImage(band, history_, QRect(0, first, kHistory, count));
            p.setPen(QColor(0x44, 0x44, 0x44));
            p.fillRect(QRect(lanes_.left() + 2, band.top(), 4, band.height()),
                       NodePalette::home(node));
            if (band.height() >= fm.height() - 4)
                p.drawText(QRect(lanes_.left() + 8, band.top(), nodeLabel_ - 10, band.height()),
                           Qt::AlignLeft | Qt::AlignVCenter, tr("node %1").arg(node));
            first += count;
        }
        for (int i = 0; i < static_cast<int>(run_.lanes.size()); ++i) {
            const live::Lane& l = run_.lanes[static_cast<std::size_t>(i)];
            if (l.state != live::LaneState::Working) p.fillRect(chipRect(i), lockColor(l.lock));
        }
    } else {
        p.setPen(QColor(0x77, 0x77, 0x77));
        p.drawText(lanes_, Qt::AlignCenter, tr("No run yet: press Start."));
    }

    // Queues: each lock with a holder or a queue (all of them when they fit), holders first
    // (in the lock's colour), then the waiting CPUs in arrival order.
    queueRows_.clear();
    std::vector<int> shown;
    const int fit = std::max(0, queues_.height() / queueRow_ - 1);
    for (int i = 0; i < static_cast<int>(run_.locks.size()); ++i)
        shown.push_back(i);
    if (static_cast<int>(shown.size()) > fit) {
        std::erase_if(shown, [&](int i) {
            const auto& q = run_.locks[static_cast<std::size_t>(i)];
            return q.holders.empty() && q.waiting.empty();
        });
        if (static_cast<int>(shown.size()) > fit) {
            std::stable_sort(shown.begin(), shown.end(), [&](int a, int b) {
                return run_.locks[static_cast<std::size_t>(a)].waiting.size() >
                       run_.locks[static_cast<std::size_t>(b)].waiting.size();
            });
            shown.resize(static_cast<std::size_t>(fit));
            std::sort(shown.begin(), shown.end());
        }
    }
    p.setPen(QColor(0x33, 0x33, 0x33));
    p.drawText(QRect(queues_.left(), queues_.top(), queues_.width(), queueRow_),
               Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("%1/%2 locks · holder | waiting in arrival order")
                                 .arg(shown.size())
                                 .arg(run_.locks.size()),
                             Qt::ElideRight, queues_.width()));
    int y = queues_.top() + queueRow_;
    QFont small = f;
    small.setPointSizeF(std::max(6.0, f.pointSizeF() * 0.8));
    const QFontMetrics sm(small);
    for (int lock : shown) {
        const live::LockQueue& q = run_.locks[static_cast<std::size_t>(lock)];
        const QRect row(queues_.left(), y, queues_.width(), queueRow_ - 2);
        queueRows_.push_back({lock, row});
        p.fillRect(QRect(row.left(), row.top() + 2, kChip, row.height() - 4), lockColor(lock));
        p.setFont(f);
        p.setPen(Qt::black);
        p.drawText(
            QRect(row.left() + kChip + 4, row.top(), queueName_ - kChip - 6, row.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(QString::fromStdString(q.name), Qt::ElideMiddle, queueName_ - kChip - 6));
        const int boxesLeft = row.left() + queueName_;
        const int avail = std::max(0, row.right() - boxesLeft - 30);
        const int count = static_cast<int>(q.holders.size() + q.waiting.size());
        const int boxW = count > 0 ? std::clamp(avail / count, 3, 28) : 28;
        const int maxBoxes = boxW > 0 ? avail / boxW : 0;
        p.setFont(small);
        int k = 0;
        auto box = [&](const live::QueueEntry& e, const QColor& fill) {
            if (k >= maxBoxes) return;
            const QRect b(boxesLeft + k * boxW, row.top() + 1, boxW - 1, row.height() - 2);
            p.fillRect(b, fill);
            if (boxW >= sm.horizontalAdvance(QStringLiteral("000")) + 2) {
                p.setPen(Qt::white);
                p.drawText(b, Qt::AlignCenter,
                           e.cpu >= 0 ? QString::number(e.cpu) : QStringLiteral("w"));
            }
            ++k;
        };
        for (const auto& e : q.holders)
            box(e, lockColor(lock).darker(e.read ? 100 : 130));
        for (const auto& e : q.waiting)
            box(e, waitingColor());
        if (count > maxBoxes) {
            p.setPen(Qt::black);
            p.drawText(QRect(boxesLeft + k * boxW + 2, row.top(), 40, row.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, tr("+%1").arg(count - maxBoxes));
        }
        y += queueRow_;
        if (y + queueRow_ > queues_.bottom()) break;
    }

    // Legend: the three states; the locks are named by their rows above and on hover.
    p.setFont(f);
    int x = legend_.left() + 6;
    auto swatch = [&](const QColor& c, const QString& text) {
        p.fillRect(QRect(x, legend_.top() + 5, 12, 10), c);
        x += 16;
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
               tr("lane end: the lock's colour, as in its queue row (hover)"));
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
    const int i = laneAt(e->position().toPoint());
    if (i >= 0) emit laneClicked(run_.lanes[static_cast<std::size_t>(i)].cpu);
}

}  // namespace immap::views
