#include "BTreePainter.h"

#include <QPainterPath>
#include <algorithm>

#include "FontScale.h"
#include "NodePalette.h"
#include "TreeLayout.h"
#include "TreePainter.h"

namespace immap::views {

namespace {

using session::BTreeHighlight;
using session::BTreeMark;
using session::DrawBNode;

bool has(const std::vector<BTreeMark>& v, int node, int slot) {
    return std::find(v.begin(), v.end(), BTreeMark{node, slot}) != v.end();
}
bool has(const std::vector<int>& v, int node) {
    return std::find(v.begin(), v.end(), node) != v.end();
}

QColor leafFill() {
    return QColor(0xff, 0xff, 0xff);
}
QColor innerFill() {
    return QColor(0xe8, 0xee, 0xf6);
}
QColor maxLastInk() {
    return QColor(0x10, 0x4e, 0x8b);
}

// One node's box with its slots in `box` (its own place, or the magnified copy).
// labelPx: the values' type, 0 for none.
void paintBox(QPainter& p, const session::DrawBTree& tree, int i, const QRectF& box,
              const BTreeDecor& d, int capacity, double labelPx) {
    const bool labels = labelPx >= BTreeLayout::kMinLabelPx;
    if (labels) {
        QFont f = p.font();
        f.setPixelSize(static_cast<int>(labelPx));
        p.setFont(f);
    }
    const DrawBNode& n = tree.nodes[static_cast<std::size_t>(i)];
    const BTreeHighlight* m = d.mark;
    const double w = box.width() / capacity;
    const bool onPath = m && has(m->path, i);
    const bool visited = m && has(m->visited, i);
    if (w < 2.5) {
        // Too small for slots: a block, its fill saying how full the node is.
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0xd8, 0xdc, 0xe0));
        p.drawRect(box);
        p.setBrush(n.leaf ? QColor(0x7a, 0x8a, 0x9a) : maxLastInk());
        p.drawRect(QRectF(box.left(), box.top(), box.width() * n.count() / capacity, box.height()));
    } else {
        for (int s = 0; s < capacity; ++s) {
            const QRectF r(box.left() + s * w, box.top(), w, box.height());
            if (s >= n.count()) {
                p.setPen(Qt::NoPen);
                p.setBrush(QBrush(QColor(0xc8, 0xc8, 0xc8), Qt::BDiagPattern));
                p.drawRect(r);
                continue;
            }
            QColor fill = n.leaf ? leafFill() : innerFill();
            if (m && has(m->matches, i, s)) fill = NodePalette::match().lighter(150);
            if (m && has(m->flash, i, s)) fill = NodePalette::flash();
            if (m && m->focus.node == i && m->focus.slot == s)
                fill = NodePalette::focus().lighter(170);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            p.drawRect(r);
            if (n.leaf) {
                // The VMA's home node, as the rbtree's ring says it.
                const double stripe = std::max(1.5, box.height() * 0.12);
                p.setBrush(NodePalette::home(n.home[static_cast<std::size_t>(s)]));
                p.drawRect(QRectF(r.left(), r.bottom() - stripe, r.width(), stripe));
            }
            if (m && has(m->pruned, i, s)) {
                p.setPen(QPen(QColor(0x90, 0x90, 0x90), 1.5));
                p.drawLine(r.topLeft(), r.bottomRight());
                p.drawLine(r.topRight(), r.bottomLeft());
            }
            if (labels) {
                const double h = r.height() / 2;
                const QRectF top(r.left(), r.top() + 1, r.width(), h - 1);
                const QRectF bottom(r.left(), r.top() + h, r.width(), h - 2);
                p.setPen(QColor(0x30, 0x30, 0x30));
                const QString key = !n.leaf && s == 0
                                        ? QStringLiteral("-")
                                        : BTreePainter::hex(n.key[static_cast<std::size_t>(s)]);
                p.drawText(top, Qt::AlignCenter, key);
                p.setPen(n.leaf ? QColor(0x50, 0x50, 0x50) : maxLastInk());
                p.drawText(bottom, Qt::AlignCenter,
                           BTreePainter::hex(n.last[static_cast<std::size_t>(s)]));
            }
            if (n.leaf && d.selectedId >= 0 && n.id[static_cast<std::size_t>(s)] == d.selectedId) {
                p.setPen(QPen(QColor(0x10, 0x4e, 0x8b), 2.5, Qt::DotLine));
                p.setBrush(Qt::NoBrush);
                p.drawRect(r.adjusted(1, 1, -1, -1));
            }
        }
        if (w >= 5) {
            p.setPen(QPen(QColor(0xb0, 0xb4, 0xb8), 0.8));
            for (int s = 1; s < capacity; ++s)
                p.drawLine(QPointF(box.left() + s * w, box.top()),
                           QPointF(box.left() + s * w, box.bottom()));
        }
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0x30, 0x30, 0x30), 1));
    p.drawRect(box);
    auto ring = [&](const QColor& c, double width, double grow) {
        p.setPen(QPen(c, width));
        p.drawRect(box.adjusted(-grow, -grow, grow, grow));
    };
    if (visited) ring(NodePalette::match(), 2.5, 2);
    if (onPath) ring(NodePalette::path(), 3, 3);
    if (m && m->focus.node == i) ring(NodePalette::focus(), 3, 5);
    if (m && has(m->touched, i)) {
        p.setPen(QPen(NodePalette::focus(), 2, Qt::DashLine));
        p.drawRect(box.adjusted(-5, -5, 5, 5));
    }
    if (d.hoverNode == i) ring(QColor(0, 0, 0, 90), 1.5, 2);
}

}  // namespace

QString BTreePainter::hex(btree::Index v) {
    return QStringLiteral("0x") + QString::number(v, 16);
}

void BTreePainter::paintLegend(QPainter& p, const QRect& rect, int homeNodes, bool marks,
                               bool query) {
    p.save();
    QFont f = p.font();
    f.setPixelSize(scaledPx(11));
    p.setFont(f);
    const QFontMetrics fm(f);
    p.fillRect(QRect(rect.left(), rect.bottom() - 39, rect.width(), 40), NodePalette::background());
    p.setRenderHint(QPainter::Antialiasing, true);
    const int y = rect.bottom() - 14;
    const int left = rect.left() + TreePainter::kLegendMargin;
    int x = left;
    auto words = [&](const QString& t) {
        p.setPen(QColor(0x33, 0x33, 0x33));
        p.drawText(QPoint(x, y + fm.ascent() / 2 - 1), t);
        x += fm.horizontalAdvance(t) + 10;
    };
    auto swatch = [&](const QColor& c, bool filled) {
        p.setPen(filled ? QPen(QColor(0x30, 0x30, 0x30), 0.8) : QPen(c, 3));
        p.setBrush(filled ? QBrush(c) : Qt::NoBrush);
        p.drawRect(QRectF(x, y - 5, 14, 10));
        x += 19;
    };
    // Above: what the boxes are.
    const int y2 = y - 18;
    p.setPen(QColor(0x33, 0x33, 0x33));
    p.drawText(QPoint(left, y2 + fm.ascent() / 2 - 1),
               fm.elidedText(QObject::tr("B-tree node = box of %1 slots · leaf slot: start over "
                                         "last · inner slot: lower bound over max last under it "
                                         "(blue) · stripe = home NUMA node")
                                 .arg(btree::kFanout),
                             Qt::ElideRight, rect.width() - 2 * TreePainter::kLegendMargin));
    swatch(leafFill(), true);
    words(QObject::tr("leaf"));
    swatch(innerFill(), true);
    words(QObject::tr("inner"));
    words(QObject::tr("home node:"));
    for (int n = 0; n < homeNodes && x < rect.right() - 40; ++n) {
        p.setPen(Qt::NoPen);
        p.setBrush(NodePalette::home(n));
        p.drawRect(QRectF(x, y - 2, 12, 5));
        x += 15;
        words(QString::number(n));
        x -= 4;
    }
    if (marks) {
        x += 8;
        if (query) {
            swatch(NodePalette::match(), false);
            words(QObject::tr("visited"));
            swatch(NodePalette::match().lighter(150), true);
            words(QObject::tr("maps the pages"));
            swatch(QColor(0x90, 0x90, 0x90), false);
            words(QObject::tr("X = pruned on max last"));
        } else {
            swatch(NodePalette::path(), false);
            words(QObject::tr("path"));
            swatch(NodePalette::focus(), false);
            words(QObject::tr("this step"));
            swatch(NodePalette::flash(), true);
            words(QObject::tr("max last written"));
        }
    }
    p.restore();
}

QRectF BTreePainter::insetFor(const BTreeLayout& l, int i, const QRect& clip) {
    if (i < 0 || l.labelled(i)) return {};
    const double slot =
        std::min(BTreeLayout::maxSlotPx() * 1.2, (clip.width() - 16.0) / std::max(1, l.capacity));
    const double w = slot * l.capacity;
    const double h = BTreeLayout::insetBandPx() - 20;
    const double x =
        std::clamp(l.box(i).center().x() - w / 2, clip.left() + 8.0, clip.right() - 8.0 - w);
    return {x, clip.bottom() - h - 8, w, h};
}

void BTreePainter::paint(QPainter& p, const session::DrawBTree& tree, const BTreeLayout& l,
                         const BTreeDecor& d, const QRect& clip) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QFont f = p.font();
    f.setPixelSize(scaledPx(TreeLayout::kLabelPx));
    p.setFont(f);
    const int n = static_cast<int>(tree.nodes.size());
    const QRectF view(clip);
    // Edges first, under the boxes: from each slot's foot to its child's top.
    for (int i = 0; i < n; ++i) {
        const DrawBNode& node = tree.nodes[static_cast<std::size_t>(i)];
        if (node.leaf) continue;
        for (int s = 0; s < node.count(); ++s) {
            const int c = node.child[static_cast<std::size_t>(s)];
            if (c < 0) continue;
            const QRectF from = l.slotRect(i, s), to = l.box(c);
            const QPointF a(from.center().x(), from.bottom()), b(to.center().x(), to.top());
            if (!view.intersects(QRectF(a, b).normalized().adjusted(-2, -2, 2, 2))) continue;
            const bool path = d.mark && has(d.mark->path, c);
            const bool pruned = d.mark && has(d.mark->pruned, i, s);
            p.setPen(path     ? QPen(NodePalette::path(), 3)
                     : pruned ? QPen(QColor(0xb0, 0xb0, 0xb0), 1, Qt::DashLine)
                              : QPen(NodePalette::edge(), 1));
            p.drawLine(a, b);
        }
    }
    for (int i = 0; i < n; ++i) {
        const QRectF b = l.box(i);
        if (!view.intersects(b.adjusted(-6, -6, 6, 6))) continue;
        paintBox(p, tree, i, b, d, l.capacity,
                 l.labelled(i) ? BTreeLayout::labelPx(l.slotPx(i), b.height()) : 0);
    }
    // The step's node, magnified where it cannot be read in place.
    const int focus = d.mark ? d.mark->focus.node : -1;
    if (focus >= 0 && focus < n) {
        const QRectF inset = insetFor(l, focus, clip);
        if (!inset.isEmpty()) {
            const QRectF at = l.box(focus);
            p.setPen(QPen(NodePalette::focus(), 1.5, Qt::DashLine));
            p.drawLine(QPointF(at.center().x(), at.bottom() + 5),
                       QPointF(inset.center().x(), inset.top() - 5));
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(255, 255, 255, 235));
            p.drawRoundedRect(inset.adjusted(-7, -7, 7, 7), 4, 4);
            paintBox(p, tree, focus, inset, d, l.capacity,
                     BTreeLayout::labelPx(inset.width() / l.capacity, inset.height()));
        }
    }
    p.restore();
}

}  // namespace immap::views
