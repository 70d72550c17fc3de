#include "LockQueueRows.h"

#include <QFontInfo>
#include <QObject>
#include <algorithm>

#include "ContentionView.h"
#include "FontScale.h"

namespace immap::views {

namespace {
constexpr int kChip = 10;
}  // namespace

std::vector<std::pair<int, QRect>> LockQueueRows::paint(QPainter& p, const QRect& area,
                                                        const live::RunSnapshot& run,
                                                        const QFont& f, int rowHeight,
                                                        int nameWidth) {
    const QFontMetrics fm(f);
    std::vector<std::pair<int, QRect>> rows;
    std::vector<int> shown;
    const int fit = std::max(0, area.height() / rowHeight - 1);
    for (int i = 0; i < static_cast<int>(run.locks.size()); ++i)
        shown.push_back(i);
    if (static_cast<int>(shown.size()) > fit) {
        std::erase_if(shown, [&](int i) {
            const auto& q = run.locks[static_cast<std::size_t>(i)];
            return q.holders.empty() && q.waiting.empty();
        });
        if (static_cast<int>(shown.size()) > fit) {
            std::stable_sort(shown.begin(), shown.end(), [&](int a, int b) {
                return run.locks[static_cast<std::size_t>(a)].waiting.size() >
                       run.locks[static_cast<std::size_t>(b)].waiting.size();
            });
            shown.resize(static_cast<std::size_t>(fit));
            std::sort(shown.begin(), shown.end());
        }
    }
    p.setPen(QColor(0x33, 0x33, 0x33));
    p.drawText(QRect(area.left(), area.top(), area.width(), rowHeight),
               Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(QObject::tr("%1/%2 locks · holder | waiting in arrival order")
                                 .arg(shown.size())
                                 .arg(run.locks.size()),
                             Qt::ElideRight, area.width()));
    int y = area.top() + rowHeight;
    QFont small = f;
    small.setPointSizeF(std::max(6.0, f.pointSizeF() * 0.8));
    if (fontScale() > 1)  // a slide's least
        small.setPixelSize(std::max(QFontInfo(small).pixelSize(), kSlideMinPx));
    const QFontMetrics sm(small);
    for (int lock : shown) {
        const live::LockQueue& q = run.locks[static_cast<std::size_t>(lock)];
        const QRect row(area.left(), y, area.width(), rowHeight - 2);
        rows.push_back({lock, row});
        p.fillRect(QRect(row.left(), row.top() + 2, kChip, row.height() - 4),
                   ContentionView::lockColor(lock));
        p.setFont(f);
        p.setPen(Qt::black);
        p.drawText(
            QRect(row.left() + kChip + 4, row.top(), nameWidth - kChip - 6, row.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(QString::fromStdString(q.name), Qt::ElideMiddle, nameWidth - kChip - 6));
        const int boxesLeft = row.left() + nameWidth;
        // Room kept at the end for "+N", the waiters beyond the boxes (up to 4 digits).
        const int more = sm.horizontalAdvance(QStringLiteral("+0000")) + 4;
        const int avail = std::max(0, row.right() - boxesLeft - more);
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
            box(e, ContentionView::lockColor(lock).darker(e.read ? 100 : 130));
        for (const auto& e : q.waiting)
            box(e, ContentionView::waitingColor());
        if (count > maxBoxes) {
            p.setPen(Qt::black);
            p.drawText(QRect(boxesLeft + k * boxW + 2, row.top(), more, row.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, QObject::tr("+%1").arg(count - maxBoxes));
        }
        y += rowHeight;
        if (y + rowHeight > area.bottom()) break;
    }
    return rows;
}

}  // namespace immap::views
