#include "TreePainter.h"

#include "FontScale.h"

#include <QHash>
#include <QImage>
#include <QLinearGradient>
#include <algorithm>
#include <cmath>
#include <limits>

#include "NodePalette.h"

namespace immap::views {

namespace {

using session::DrawNode;
using session::DrawTree;

QString hex(std::uint64_t v) {
    return QStringLiteral("0x") + QString::number(v, 16);
}

// Dense levels: each pixel column of each level becomes a short vertical bar whose colour is
// the red share of the nodes that fall on it. Written straight into an image, then blitted once.
class DotRaster {
public:
    DotRaster(const QRect& clip, int rows) : clip_(clip), rows_(rows) {
        const std::size_t cells = static_cast<std::size_t>(clip.width()) * rows;
        red_.assign(cells, 0);
        all_.assign(cells, 0);
    }
    // False for a node outside the clip (not drawn, so not counted as drawn).
    bool add(double x, int row, bool red) {
        const int px = static_cast<int>(x) - clip_.left();
        if (px < 0 || px >= clip_.width() || row < 0 || row >= rows_) return false;
        const std::size_t c = static_cast<std::size_t>(row) * clip_.width() + px;
        ++all_[c];
        if (red) ++red_[c];
        x0_ = std::min(x0_, px);
        x1_ = std::max(x1_, px);
        r0_ = std::min(r0_, row);
        r1_ = std::max(r1_, row);
        return true;
    }
    void paint(QPainter& p, const TreeLayout& l) const {
        if (x1_ < x0_) return;
        const QColor r = NodePalette::red(), b = NodePalette::black();
        auto bandOf = [&](int row) {
            const double band = std::clamp(l.rowHeight(row) * 0.45, 2.0, 9.0);
            const double cy = (l.rowTop[static_cast<std::size_t>(row)] +
                               l.rowTop[static_cast<std::size_t>(row) + 1]) *
                                  0.5 * l.sy +
                              l.oy - clip_.top();
            return std::pair{
                std::max(0, static_cast<int>(std::lround(cy - band / 2))),
                std::min(clip_.height(), static_cast<int>(std::lround(cy + band / 2)))};
        };
        // Only the box the dots cover is allocated and blended.
        const int top = bandOf(r0_).first, bottom = bandOf(r1_).second;
        if (bottom <= top) return;
        QImage img(x1_ - x0_ + 1, bottom - top, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::transparent);
        for (int row = r0_; row <= r1_; ++row) {
            const auto [y0, y1] = bandOf(row);
            if (y0 >= y1) continue;
            const std::size_t base = static_cast<std::size_t>(row) * clip_.width();
            for (int x = x0_; x <= x1_; ++x) {
                const std::uint32_t n = all_[base + x];
                if (!n) continue;
                const double f = static_cast<double>(red_[base + x]) / n;
                const QRgb c = qRgb(static_cast<int>(b.red() + f * (r.red() - b.red())),
                                    static_cast<int>(b.green() + f * (r.green() - b.green())),
                                    static_cast<int>(b.blue() + f * (r.blue() - b.blue())));
                for (int y = y0; y < y1; ++y)
                    reinterpret_cast<QRgb*>(img.scanLine(y - top))[x - x0_] = c;
            }
        }
        p.drawImage(QPoint(clip_.left() + x0_, clip_.top() + top), img);
    }

private:
    QRect clip_;
    int rows_;
    std::vector<std::uint32_t> red_, all_;
    int x0_ = std::numeric_limits<int>::max(), x1_ = -1;  // the box of touched cells
    int r0_ = std::numeric_limits<int>::max(), r1_ = -1;
};

enum class Place { Below, Beside, Above };  // beside: left or right, as the layout chose

// `beside`: the box a label beside the disc takes (TreeLayout::besideBox), which the layout
// has checked covers no other node.
void drawLabel(QPainter& p, const QPointF& c, double r, const DrawNode& n, bool flash, Place place,
               const QRectF& beside = {}) {
    const QString a = TreePainter::intervalText(n);
    const QString b = TreePainter::subtreeText(n);
    const QFontMetrics fm = p.fontMetrics();
    const int w = std::max(fm.horizontalAdvance(a), fm.horizontalAdvance(b)) + 6;
    const int h = fm.height();
    // Beside: the layout's box starts at the disc on the right, or ends at it on the left.
    const bool onLeft = place == Place::Beside && beside.right() < c.x();
    const QRectF box =
        place == Place::Beside
            ? QRectF(onLeft ? beside.right() - w : beside.left(), beside.top(), w, 2 * h + 2)
        : place == Place::Below ? QRectF(c.x() - w / 2.0, c.y() + r + 3, w, 2 * h + 2)
                                : QRectF(c.x() - w / 2.0, c.y() - r - 5 - 2 * h, w, 2 * h + 2);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(255, 255, 255, 225));
    p.drawRoundedRect(box, 3, 3);
    p.setPen(QColor(0x30, 0x30, 0x30));
    p.drawText(QRectF(box.left(), box.top() + 1, w, h), Qt::AlignCenter, a);
    const QRectF second(box.left(), box.top() + 1 + h, w, h);
    if (flash) {
        p.setPen(Qt::NoPen);
        p.setBrush(NodePalette::flash());
        p.drawRoundedRect(second, 2, 2);
        p.setPen(Qt::black);
    } else {
        p.setPen(QColor(0x60, 0x60, 0x60));
    }
    p.drawText(second, Qt::AlignCenter, b);
}

void halo(QPainter& p, const QPointF& c, double r, const QColor& color, double width,
          Qt::PenStyle style = Qt::SolidLine) {
    QPen pen(color, width);
    pen.setStyle(style);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    p.drawEllipse(c, r, r);
}

void drawDisc(QPainter& p, const QPointF& c, double r, const DrawNode& n, std::uint16_t f,
              double flashPhase = 1) {
    if (f & kFlagFlash) {
        // A burst that shrinks onto a steady glow: the write is the moment to notice.
        QColor glow = NodePalette::flash();
        glow.setAlphaF(0.75 + 0.25 * (1 - flashPhase));
        const double grow = 7 + 9 * (1 - flashPhase);
        p.setPen(Qt::NoPen);
        p.setBrush(glow);
        p.drawEllipse(c, r + grow, r + grow);
    }
    if (f & kFlagMatch) {
        p.setPen(Qt::NoPen);
        p.setBrush(NodePalette::match());
        p.drawEllipse(c, r + 6, r + 6);
    } else if (f & kFlagVisited) {
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x80, 0xb0, 0xe0));
        p.drawEllipse(c, r + 5, r + 5);
    }
    if (f & kFlagPruned) halo(p, c, r + 5, QColor(0x90, 0x90, 0x90), 2, Qt::DashLine);
    if (f & kFlagPath) halo(p, c, r + 4, NodePalette::path(), 3);
    if (f & kFlagFocus) halo(p, c, r + 5, NodePalette::focus(), 3.5);
    if (f & kFlagRecolor) halo(p, c, r + 2.5, NodePalette::recolor(), 2.5);
    if (f & kFlagSelected) halo(p, c, r + 4, QColor(0x10, 0x4e, 0x8b), 2.5, Qt::DotLine);
    if (f & kFlagHover) halo(p, c, r + 3, QColor(0, 0, 0, 90), 1.5);
    // The ring is a disc of the home colour under the fill: two fills cost far less than a
    // stroked outline, and the centre keeps the pure fill colour.
    const double ring = std::max(1.2, r * 0.28);
    p.setPen(Qt::NoPen);
    p.setBrush(NodePalette::home(n.homeNode));
    p.drawEllipse(c, r, r);
    p.setBrush(n.red ? NodePalette::red() : NodePalette::black());
    p.drawEllipse(c, r - ring, r - ring);
}

// A plain disc (no decoration) as a cached image: blitting is several times cheaper than
// rasterising two ellipse paths, and a fitted tree draws hundreds of them per frame. Sprites
// are odd-sized with the disc centred on the middle pixel, so that pixel is the node's centre.
// Bounded: radii in quarter pixels up to kMaxRadius x 2 fills x 16 home colours (under 8 MB).
const QImage& discSprite(double r, bool red, int home) {
    static QHash<quint64, QImage> cache;
    const int quarter = static_cast<int>(std::lround(r * 4));
    const quint64 key = (static_cast<quint64>(quarter) << 8) | (static_cast<quint64>(red) << 7) |
                        static_cast<quint64>(home & 0x7f);
    auto it = cache.find(key);
    if (it != cache.end()) return *it;
    const double rr = quarter / 4.0;
    const int size = 2 * static_cast<int>(std::ceil(rr)) + 3;
    QImage img(size, size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing, true);
    DrawNode n;
    n.red = red;
    n.homeNode = home;
    drawDisc(p, QPointF(size / 2 + 0.5, size / 2 + 0.5), rr, n, 0);
    p.end();
    return *cache.insert(key, img);
}

}  // namespace

QString TreePainter::intervalText(const DrawNode& n) {
    return QStringLiteral("[%1, %2]").arg(hex(n.start), hex(n.last));
}

QString TreePainter::subtreeText(const DrawNode& n) {
    return QStringLiteral("max %1").arg(hex(n.subtreeLast));
}

TreeAggregate TreePainter::paint(QPainter& p, const DrawTree& tree, const TreeLayout& l,
                                 const TreeDecor& decor, const QRect& clip) {
    TreeAggregate agg;
    if (tree.nodes.empty()) return agg;
    const auto [lo, hi] = l.visibleRanks(clip.left() - 40, clip.right() + 40);
    auto flagsOf = [&](int i) -> std::uint16_t {
        return decor.flags ? (*decor.flags)[static_cast<std::size_t>(i)] : 0;
    };
    auto pos = [&](int i) {
        return decor.positions ? (*decor.positions)[static_cast<std::size_t>(i)] : l.center(i);
    };

    // One pass: dense nodes into the raster, the rest collected for discs and edges.
    DotRaster raster(clip, l.rows);
    std::vector<int> discs;
    for (int i = lo; i <= hi; ++i) {
        const std::uint16_t f = flagsOf(i);
        // While nodes move, dots stay put: only discs are readable enough to be worth moving.
        if (l.detail(i) == TreeLayout::Detail::Dot && !(f & ~kFlagHover)) {
            const int depth = l.depth[static_cast<std::size_t>(i)];
            if (!raster.add(l.center(i).x(), depth, tree.nodes[static_cast<std::size_t>(i)].red))
                continue;
            ++agg.nodes;
            agg.minDepth = agg.minDepth < 0 ? depth : std::min(agg.minDepth, depth);
            agg.maxDepth = std::max(agg.maxDepth, depth);
        } else {
            discs.push_back(i);
        }
    }
    // Nodes off screen whose edges cross it are rare enough to skip: an edge is drawn from a
    // disc to its parent, and parents of visible discs are (nearly always) discs too.
    std::vector<QLineF> edges;
    edges.reserve(discs.size());
    for (int i : discs) {
        const int parent = tree.nodes[static_cast<std::size_t>(i)].parent;
        if (parent >= 0) edges.emplace_back(pos(parent), pos(i));
    }
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QPen edgePen(NodePalette::edge(), 1.2);
    edgePen.setCosmetic(true);  // hairline-fast at any zoom
    p.setPen(edgePen);
    p.drawLines(edges.data(), static_cast<int>(edges.size()));
    raster.paint(p, l);
    for (int i : discs) {
        const DrawNode& n = tree.nodes[static_cast<std::size_t>(i)];
        const std::uint16_t f = flagsOf(i);
        const double r = std::max(l.radiusFor(i), (f & ~kFlagHover) ? 5.0 : 1.5);
        if (f == 0) {
            const QImage& sprite = discSprite(r, n.red, n.homeNode % 16);
            const QPointF c = pos(i);
            p.drawImage(
                QPoint(qRound(c.x()) - sprite.width() / 2, qRound(c.y()) - sprite.height() / 2),
                sprite);
        } else {
            drawDisc(p, pos(i), r, n, f, decor.flashPhase);
        }
    }
    QFont font = p.font();
    font.setPixelSize(scaledPx(TreeLayout::kLabelPx));
    p.setFont(font);
    const std::vector<int> side = l.sideLabelled(discs);
    for (int i : discs) {
        const std::uint16_t f = flagsOf(i);
        const TreeLayout::Detail d = l.detail(i);
        const bool labelled =
            d == TreeLayout::Detail::Label || std::binary_search(side.begin(), side.end(), i);
        if (!labelled && !(f & (kFlagFocus | kFlagFlash))) continue;
        const double r = std::max(l.radiusFor(i), 5.0);
        drawLabel(p, pos(i), r, tree.nodes[static_cast<std::size_t>(i)], f & kFlagFlash,
                  d == TreeLayout::Detail::Label ? Place::Below : Place::Beside,
                  l.besideBox(i).translated(pos(i) - l.center(i)));
    }
    if (decor.pending) {
        // The new node waits beside the node it is compared with, dashed: not in the tree yet.
        const double r = std::max(l.radius(), 7.0);
        // Up and to the left, its label above it: the compared node's label is on its right.
        QPointF c = decor.pendingNear >= 0 ? pos(decor.pendingNear) + QPointF(-r * 3.2, -r * 3.2)
                                           : QPointF(clip.center().x(), clip.top() + 60);
        drawDisc(p, c, r, *decor.pending, 0);
        halo(p, c, r + 3, NodePalette::focus(), 2, Qt::DashLine);
        drawLabel(p, c, r, *decor.pending, false, Place::Above);
    }
    p.restore();
    return agg;
}

void TreePainter::paintLegend(QPainter& p, const QRect& rect, int homeNodes, const QString& bars,
                              bool walking, bool stepping) {
    p.save();
    QFont f = p.font();
    f.setPixelSize(scaledPx(11));
    p.setFont(f);
    const QFontMetrics fm(f);
    // Built right to left along the bottom edge, so it never covers the title.
    struct Item {
        QColor fill, ring;
        QString text;
    };
    std::vector<Item> items{{NodePalette::red(), NodePalette::red(), QObject::tr("red")},
                            {NodePalette::black(), NodePalette::black(), QObject::tr("black")}};
    const int y = rect.bottom() - 14;
    int x = rect.left() + kLegendMargin;
    // Its own band: a tree zoomed and panned under it never paints over the words.
    p.fillRect(QRect(rect.left(), rect.bottom() - 39, rect.width(), 40), NodePalette::background());
    p.setRenderHint(QPainter::Antialiasing, true);
    if (!bars.isEmpty()) {
        // Above the colours: a swatch of the bars as drawn (black to red by red share).
        const int y2 = y - 18;
        const int x2 = rect.left() + kLegendMargin;
        QLinearGradient g(x2, 0, x2 + 14, 0);
        g.setColorAt(0, NodePalette::black());
        g.setColorAt(1, NodePalette::red());
        p.fillRect(QRect(x2, y2 - 3, 14, 6), g);
        p.setPen(QColor(0x33, 0x33, 0x33));
        p.drawText(QPoint(x2 + 20, y2 + fm.ascent() / 2 - 1),
                   fm.elidedText(bars, Qt::ElideRight, rect.width() - 2 * kLegendMargin - 20));
    }
    for (const Item& it : items) {
        p.setPen(Qt::NoPen);
        p.setBrush(it.fill);
        p.drawEllipse(QPointF(x + 6, y), 6, 6);
        p.setPen(QColor(0x33, 0x33, 0x33));
        p.drawText(QPoint(x + 16, y + fm.ascent() / 2 - 1), it.text);
        x += 24 + fm.horizontalAdvance(it.text);
    }
    x += 8;
    const QString ring = QObject::tr("ring = home NUMA node:");
    p.drawText(QPoint(x, y + fm.ascent() / 2 - 1), ring);
    x += fm.horizontalAdvance(ring) + 8;
    for (int n = 0; n < homeNodes; ++n) {
        if (x > rect.right() - 40) break;
        p.setPen(QPen(NodePalette::home(n), 3));
        p.setBrush(Qt::white);
        p.drawEllipse(QPointF(x + 6, y), 5.5, 5.5);
        p.setPen(QColor(0x33, 0x33, 0x33));
        const QString label = QString::number(n);
        p.drawText(QPoint(x + 15, y + fm.ascent() / 2 - 1), label);
        x += 22 + fm.horizontalAdvance(label);
    }
    if (walking || stepping) {
        x += 10;
        struct Mark {
            QColor color;
            QString text;
            bool filled;
        };
        const std::vector<Mark> marks =
            walking ? std::vector<Mark>{{QColor(0x80, 0xb0, 0xe0), QObject::tr("visited"), true},
                                        {NodePalette::match(), QObject::tr("maps the pages"), true},
                                        {QColor(0x90, 0x90, 0x90), QObject::tr("pruned subtree"),
                                         false}}
                    : std::vector<Mark>{
                          {NodePalette::path(), QObject::tr("descent path"), false},
                          {NodePalette::focus(), QObject::tr("this step"), false},
                          {NodePalette::recolor(), QObject::tr("recoloured"), false},
                          {NodePalette::flash(), QObject::tr("subtree_last written"), true}};
        for (const Mark& m : marks) {
            p.setPen(m.filled ? Qt::NoPen : QPen(m.color, 3));
            p.setBrush(m.filled ? QBrush(m.color) : Qt::NoBrush);
            p.drawEllipse(QPointF(x + 6, y), 5, 5);
            p.setPen(QColor(0x33, 0x33, 0x33));
            p.drawText(QPoint(x + 15, y + fm.ascent() / 2 - 1), m.text);
            x += 24 + fm.horizontalAdvance(m.text);
        }
    }
    p.restore();
}

}  // namespace immap::views
