#include "TopologyView.h"

#include <QLocale>

#include "FontScale.h"
#include "ThroughputView.h"

#include <QHelpEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "topology/DistanceGraph.h"
#include "views/NodePalette.h"

namespace immap::views {

TopologyView::TopologyView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(400, 300);
}

void TopologyView::setTopology(const topology::Topology& topo) {
    topo_ = std::make_unique<topology::Topology>(topo);
    graph_ = topology::DistanceGraph(*topo_).layout();
    heat_.clear();
    heatWhat_.clear();
    heatChoices_.clear();
    heatCurrent_ = -1;
    relayout();
    update();
}

void TopologyView::setHeat(const std::vector<std::pair<unsigned, double>>& perPu,
                           const QString& what) {
    heat_.clear();
    for (const auto& [pu, v] : perPu) {
        if (pu >= heat_.size()) heat_.resize(pu + 1, -1);
        heat_[pu] = std::clamp(v, 0.0, 1.0);
    }
    heatWhat_ = what;
    update();
}

void TopologyView::clearHeat() {
    heat_.clear();
    heatWhat_.clear();
    update();
}

QColor TopologyView::heatColor(double v) const {
    // Pale yellow through amber to red: a palette of its own, never the distance grid's blues.
    v = std::clamp(v, 0.0, 1.0);
    if (v < 0.5) {
        const double t = v * 2;
        return QColor::fromRgbF(1.0 - 0.02 * t, 0.96 - 0.18 * t, 0.80 - 0.54 * t);
    }
    const double t = (v - 0.5) * 2;
    return QColor::fromRgbF(0.98 - 0.20 * t, 0.78 - 0.63 * t, 0.26 - 0.12 * t);
}

QColor TopologyView::distanceColor(double t) {
    // Light to dark blue: near is light, far is dark.
    t = std::clamp(t, 0.0, 1.0);
    return QColor::fromRgbF(0.92 - 0.72 * t, 0.95 - 0.58 * t, 0.98 - 0.36 * t);
}

void TopologyView::setHeatChoices(const QStringList& policies, int current) {
    heatChoices_ = policies;
    heatCurrent_ = current;
    relayout();
    update();
}

QRectF TopologyView::heatChip(int i) const {
    return i >= 0 && static_cast<std::size_t>(i) < chipRects_.size()
               ? chipRects_[static_cast<std::size_t>(i)]
               : QRectF();
}

void TopologyView::mousePressEvent(QMouseEvent* e) {
    for (std::size_t i = 0; i < chipRects_.size(); ++i)
        if (chipRects_[i].contains(e->position())) {
            emit heatChoiceRequested(static_cast<int>(i));
            return;
        }
    QWidget::mousePressEvent(e);
}

QRectF TopologyView::puRect(unsigned osIndex) const {
    for (const auto& [os, r] : puRects_)
        if (os == osIndex) return r;
    return {};
}

QRectF TopologyView::matrixCell(int row, int column) const {
    if (!topo_ || topo_->nodeCount() == 0) return {};
    // Under the title a row of column labels; left of the cells a column of row labels.
    const double n = static_cast<double>(topo_->nodeCount());
    const double label = linePx_ * 1.3;
    const double side =
        std::min(matrixArea_.width() - label, matrixArea_.height() - linePx_ - label) / n;
    return QRectF(matrixArea_.left() + label + column * side,
                  matrixArea_.top() + linePx_ + label + row * side, side, side);
}

QPointF TopologyView::graphNode(int node) const {
    if (node < 0 || static_cast<std::size_t>(node) >= graph_.size()) return {};
    const QRectF a = graphArea_.adjusted(14, linePx_ + 14, -14, -14);
    const double side = std::min(a.width(), a.height());
    const QPointF c = a.center();
    return {c.x() + graph_[static_cast<std::size_t>(node)].first * side,
            c.y() + graph_[static_cast<std::size_t>(node)].second * side};
}

void TopologyView::resizeEvent(QResizeEvent*) {
    relayout();
}

void TopologyView::relayout() {
    packageRects_.clear();
    nodeRects_.clear();
    coreRects_.clear();
    puRects_.clear();
    chipRects_.clear();
    const QFont text = pxFont(font(), 12);
    const QFontMetricsF fm(text);
    linePx_ = static_cast<int>(std::ceil(fm.height())) + 2;
    const QRectF all = QRectF(rect()).adjusted(8, 8, -8, -8);
    // Larger type needs a larger grid for its digits: the grid takes more of the height then.
    const double side = std::min(all.width() * (fontScale() > 1 ? 0.4 : 0.34),
                                 all.height() * (fontScale() > 1 ? 0.7 : 0.5) - 4);
    // Three rows: the scale, what the heat is (a whole row, since it names policy and copies),
    // the chips.
    const double legendH = 3.0 * linePx_ + 8;
    machineArea_ = QRectF(all.left(), all.top() + linePx_, all.width() - side - 12,
                          all.height() - linePx_ - legendH);
    legendArea_ = QRectF(all.left(), machineArea_.bottom() + 4, machineArea_.width(), legendH - 4);
    matrixArea_ = QRectF(all.right() - side, all.top(), side, side);
    graphArea_ = QRectF(all.right() - side, all.top() + side + 8, side, all.height() - side - 8);
    // The legend: the heat's scale bar, then one chip per policy the heat can show.
    scaleRect_ =
        QRectF(legendArea_.left() + fm.horizontalAdvance(QStringLiteral("0%")) + 8,
               legendArea_.top() + 2, std::min(240.0, legendArea_.width() * 0.3), linePx_ - 6);
    double x = legendArea_.left() + fm.horizontalAdvance(tr("PU heat shows: ")) + 4;
    for (const QString& c : heatChoices_) {
        const double w = fm.horizontalAdvance(c) + 16;
        chipRects_.push_back(QRectF(x, legendArea_.top() + 2 * linePx_ + 4, w, linePx_));
        x += w + 6;
    }
    if (topo_ && topo_->nodeCount() > 0) {
        // The grid's digits: as large as the cells allow, up to the view's text size.
        const double cell = matrixCell(0, 0).width();
        const QString widest = QString::number(distanceRange().second);
        int px = pxFont(font(), 11).pixelSize();
        for (; px >= 7; --px) {
            QFont f = font();
            f.setPixelSize(px);
            const QFontMetricsF m(f);
            if (m.horizontalAdvance(widest) + 3 <= cell && m.height() <= cell) break;
        }
        digitPx_ = px >= 7 ? px : 0;
    }
    if (!topo_) return;

    // Packages side by side (stacked when there are many), nodes inside them in a grid, cores
    // in rows, PUs inside cores.
    const auto& packages = topo_->packages();
    const std::size_t np = std::max<std::size_t>(1, packages.size());
    const double pw = machineArea_.width() / static_cast<double>(np);
    for (std::size_t p = 0; p < np; ++p) {
        const QRectF pr(machineArea_.left() + p * pw + 2, machineArea_.top(), pw - 4,
                        machineArea_.height());
        packageRects_.push_back(pr);
        std::vector<const topology::NumaNode*> nodes;
        for (const auto& n : topo_->nodes())
            if (packages.empty() || n.package == static_cast<int>(p)) nodes.push_back(&n);
        if (nodes.empty()) continue;
        const int cols = static_cast<int>(
            std::ceil(std::sqrt(static_cast<double>(nodes.size()) * pr.width() / pr.height())));
        const int rows = static_cast<int>((nodes.size() + static_cast<std::size_t>(cols) - 1) /
                                          static_cast<std::size_t>(cols));
        const QRectF inner = pr.adjusted(4, linePx_, -4, -4);
        const double nw = inner.width() / cols, nh = inner.height() / rows;
        for (std::size_t k = 0; k < nodes.size(); ++k) {
            const QRectF nr(
                inner.left() + static_cast<double>(k % static_cast<std::size_t>(cols)) * nw + 2,
                inner.top() + static_cast<double>(k / static_cast<std::size_t>(cols)) * nh + 2,
                nw - 4, nh - 4);
            nodeRects_.push_back(nr);
            // The node's cores, from its PUs.
            std::vector<int> cores;
            for (unsigned os : nodes[k]->pus) {
                const topology::Pu* pu = topo_->puByOsIndex(os);
                const int core = pu ? pu->core : -1;
                if (std::find(cores.begin(), cores.end(), core) == cores.end())
                    cores.push_back(core);
            }
            const QRectF ci = nr.adjusted(3, linePx_, -3, -3);
            const int ccols = std::max(
                1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(cores.size()) *
                                                        ci.width() / std::max(1.0, ci.height())))));
            const int crows =
                static_cast<int>((cores.size() + static_cast<std::size_t>(ccols) - 1) /
                                 static_cast<std::size_t>(ccols));
            const double cw = ci.width() / ccols, ch = ci.height() / std::max(1, crows);
            for (std::size_t c = 0; c < cores.size(); ++c) {
                const QRectF cr(
                    ci.left() + static_cast<double>(c % static_cast<std::size_t>(ccols)) * cw + 1,
                    ci.top() + static_cast<double>(c / static_cast<std::size_t>(ccols)) * ch + 1,
                    cw - 2, ch - 2);
                coreRects_.push_back(cr);
                std::vector<unsigned> pus;
                if (cores[c] >= 0)
                    pus = topo_->cores()[static_cast<std::size_t>(cores[c])].pus;
                else
                    pus = nodes[k]->pus;
                const double w =
                    cr.width() / static_cast<double>(std::max<std::size_t>(1, pus.size()));
                for (std::size_t u = 0; u < pus.size(); ++u)
                    puRects_.push_back({pus[u], QRectF(cr.left() + static_cast<double>(u) * w + 1,
                                                       cr.top() + 1, w - 2, cr.height() - 2)});
            }
        }
    }
}

void TopologyView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), QColor(0xfa, 0xfa, 0xf8));
    const QFont text = pxFont(font(), 12);
    p.setFont(text);
    if (!topo_) {
        p.drawText(rect(), Qt::AlignCenter, tr("No topology loaded"));
        return;
    }
    const QFontMetricsF fm(text);
    // Text that does not fit its box is elided, never cut mid-glyph by the box's edge.
    auto label = [&](const QRectF& box, const QString& s, int flags) {
        p.drawText(box, flags, fm.elidedText(s, Qt::ElideRight, box.width()));
    };
    p.setPen(Qt::black);
    {
        // The machine by its file's name, not the presenter's path; the key to L# and P# as
        // long as the width allows (workshop type at 1280x720 takes the short one).
        const QRectF box(machineArea_.left(), machineArea_.top() - linePx_, machineArea_.width(),
                         linePx_);
        const QString name = ThroughputView::machineName(*topo_);
        QString title = tr("%1 — L# = hwloc logical index, P# = OS index (cpuN, nodeN)").arg(name);
        if (fm.horizontalAdvance(title) > box.width())
            title = tr("%1 — L# hwloc logical, P# OS index").arg(name);
        if (fm.horizontalAdvance(title) > box.width())
            title = tr("%1 — L# logical, P# OS").arg(name);
        label(box, title, Qt::AlignLeft | Qt::AlignVCenter);
    }
    const auto& packages = topo_->packages();
    for (std::size_t i = 0; i < packageRects_.size(); ++i) {
        p.setPen(QPen(QColor(0x55, 0x55, 0x55), 1.5));
        p.setBrush(QColor(0xee, 0xee, 0xe8));
        p.drawRoundedRect(packageRects_[i], 4, 4);
        p.setPen(Qt::black);
        const QString name = i < packages.size()
                                 ? tr("Package L#%1 P#%2")
                                       .arg(packages[i].logicalIndex)
                                       .arg(packages[i].osIndex == topology::kUnknownIndex
                                                ? QStringLiteral("?")
                                                : QString::number(packages[i].osIndex))
                                 : tr("Machine");
        label(packageRects_[i].adjusted(6, 1, -6, 0), name, Qt::AlignTop | Qt::AlignLeft);
    }
    const auto& nodes = topo_->nodes();
    for (std::size_t i = 0; i < nodeRects_.size() && i < nodes.size(); ++i) {
        const QColor c = NodePalette::home(static_cast<int>(nodes[i].logicalIndex));
        p.setPen(QPen(c, 2));
        p.setBrush(QColor(c.red(), c.green(), c.blue(), 28));
        p.drawRoundedRect(nodeRects_[i], 3, 3);
        p.setPen(Qt::black);
        const QRectF box = nodeRects_[i].adjusted(4, 1, -4, 0);
        // The full name when it fits, else the short one: the node's number matters most.
        const QString full = tr("NUMA L#%1 P#%2 (%3 PUs)")
                                 .arg(nodes[i].logicalIndex)
                                 .arg(nodes[i].osIndex)
                                 .arg(nodes[i].pus.size());
        const QString brief =
            tr("node %1 · %2 PUs").arg(nodes[i].logicalIndex).arg(nodes[i].pus.size());
        QString chosen = tr("node %1").arg(nodes[i].logicalIndex);
        for (const QString& l : {full, brief})
            if (fm.horizontalAdvance(l) <= box.width()) {
                chosen = l;
                break;
            }
        label(box, chosen, Qt::AlignTop | Qt::AlignLeft);
    }
    p.setPen(QPen(QColor(0x88, 0x88, 0x88), 0.8));
    p.setBrush(QColor(0xf4, 0xf4, 0xf0));
    for (const QRectF& r : coreRects_)
        p.drawRect(r);
    for (const auto& [os, r] : puRects_) {
        const double h = os < heat_.size() ? heat_[os] : -1;
        p.setPen(Qt::NoPen);
        p.setBrush(h >= 0 ? heatColor(h) : QColor(0xe6, 0xe6, 0xe0));
        p.drawRect(r);
        const topology::Pu* pu = topo_->puByOsIndex(os);
        const QString l = tr("L#%1\nP#%2").arg(pu ? pu->logicalIndex : 0).arg(os);
        if (r.width() > fm.horizontalAdvance(QStringLiteral("L#000")) &&
            r.height() > 2 * fm.height()) {
            p.setPen(Qt::black);
            p.drawText(r, Qt::AlignCenter, l);
        }
    }
    paintMatrix(p);
    paintHeatLegend(p);

    // The node graph: edges shaded by distance, nodes in their colours.
    const std::size_t n = topo_->nodeCount();
    const auto& d = topo_->distances();
    const auto [lo, hi] = distanceRange();
    p.setFont(text);
    p.setPen(Qt::black);
    label(QRectF(graphArea_.left(), graphArea_.top(), graphArea_.width(), linePx_),
          fontScale() == 1.0 ? tr("nodes laid out by distance (Kamada-Kawai)")
                             : tr("nodes placed by distance"),
          Qt::AlignLeft);
    for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = a + 1; b < n; ++b) {
            const unsigned w = a < d.size() && b < d[a].size() ? d[a][b] : 20;
            const double t = hi > lo ? (w - lo) / static_cast<double>(hi - lo) : 0;
            p.setPen(QPen(
                QColor::fromRgbF(0.3 + 0.6 * t, 0.3 + 0.6 * t, 0.3 + 0.6 * t, 0.8 - 0.5 * t), 1.2));
            p.drawLine(graphNode(static_cast<int>(a)), graphNode(static_cast<int>(b)));
        }
    }
    // Discs as large as the type, but never so large that neighbours cover each other.
    double closest = 1e9;
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = a + 1; b < n; ++b) {
            const QPointF dv = graphNode(static_cast<int>(a)) - graphNode(static_cast<int>(b));
            closest = std::min(closest, std::hypot(dv.x(), dv.y()));
        }
    const double radius = std::clamp(fm.height() * 0.6, 5.0, std::max(5.0, closest / 2.1));
    QFont disc = font();
    disc.setPixelSize(std::max(7, static_cast<int>(radius * 1.1)));
    p.setFont(disc);
    // On a slide, digits too small to read from the back are left out: the discs carry the
    // nodes' colours, as the boxes on the left do.
    const bool digits = fontScale() == 1.0 || disc.pixelSize() >= kSlideMinPx;
    for (std::size_t a = 0; a < n; ++a) {
        const QPointF c = graphNode(static_cast<int>(a));
        p.setPen(QPen(Qt::black, 1));
        p.setBrush(NodePalette::home(static_cast<int>(a)));
        p.drawEllipse(c, radius, radius);
        if (!digits) continue;
        p.setPen(Qt::white);
        p.drawText(QRectF(c.x() - radius, c.y() - radius, 2 * radius, 2 * radius), Qt::AlignCenter,
                   QString::number(a));
    }
}

std::pair<unsigned, unsigned> TopologyView::distanceRange() const {
    unsigned lo = 255, hi = 10;
    if (topo_)
        for (const auto& row : topo_->distances())
            for (unsigned v : row)
                lo = std::min(lo, v), hi = std::max(hi, v);
    return {std::min(lo, hi), hi};
}

void TopologyView::paintMatrix(QPainter& p) {
    const std::size_t n = topo_->nodeCount();
    const auto& d = topo_->distances();
    const auto [lo, hi] = distanceRange();
    const QFont text = pxFont(font(), 12);
    const QFontMetricsF fm(text);
    p.setFont(text);
    p.setPen(Qt::black);
    const QString title = topo_->distancesAreDefault()
                              ? tr("NUMA distances (SLIT; no table, the kernel's 10/20)")
                              : tr("NUMA distances (SLIT units, 10 = local)");
    p.drawText(QRectF(matrixArea_.left(), matrixArea_.top(), matrixArea_.width(), linePx_),
               Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(title, Qt::ElideRight, matrixArea_.width()));
    if (n == 0) return;
    // Row and column labels: the nodes' numbers, as small as the cells need.
    QFont small = font();
    small.setPixelSize(std::max(digitPx_, 8));
    p.setFont(small);
    p.setPen(QColor(0x40, 0x40, 0x40));
    for (std::size_t i = 0; i < n; ++i) {
        const QRectF col = matrixCell(0, static_cast<int>(i));
        const QRectF row = matrixCell(static_cast<int>(i), 0);
        p.drawText(QRectF(col.left(), col.top() - linePx_ * 1.3, col.width(), linePx_ * 1.3),
                   Qt::AlignHCenter | Qt::AlignBottom, QString::number(i));
        p.drawText(QRectF(matrixArea_.left(), row.top(), row.left() - matrixArea_.left() - 3,
                          row.height()),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(i));
    }
    for (std::size_t r = 0; r < n && r < d.size(); ++r) {
        for (std::size_t c = 0; c < n && c < d[r].size(); ++c) {
            const QRectF cell = matrixCell(static_cast<int>(r), static_cast<int>(c));
            const double t = hi > lo ? (d[r][c] - lo) / static_cast<double>(hi - lo) : 0;
            p.setPen(Qt::NoPen);
            p.setBrush(distanceColor(t));
            // A white gap between cells keeps neighbouring numbers apart.
            p.drawRect(cell.adjusted(0.75, 0.75, -0.75, -0.75));
            if (digitPx_ > 0) {
                p.setPen(t > 0.55 ? Qt::white : Qt::black);
                p.drawText(cell, Qt::AlignCenter, QString::number(d[r][c]));
            }
        }
    }
}

void TopologyView::setHeatPending(const QString& text) {
    heatPending_ = text;
    update();
}

double TopologyView::heatMean() const {
    double sum = 0;
    int n = 0;
    for (const double h : heat_)
        if (h >= 0) {
            sum += h;
            ++n;
        }
    return n > 0 ? sum / n : 0;
}

QString TopologyView::heatLegendText() const {
    if (!heat_.empty()) return heatWhat_;
    return heatPending_.isEmpty() ? tr("PU heat: none yet (a sweep in the Throughput tab colours "
                                       "each PU by its lock wait)")
                                  : heatPending_;
}

void TopologyView::paintHeatLegend(QPainter& p) {
    const QFont text = pxFont(font(), 12);
    const QFontMetricsF fm(text);
    p.setFont(text);
    p.setPen(Qt::black);
    const QRectF row(legendArea_.left(), legendArea_.top(), legendArea_.width(), linePx_);
    if (heat_.empty()) {
        p.drawText(row, Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(heatLegendText(), Qt::ElideRight, row.width()));
        return;
    }
    // The scale: 0% to 100% of the run's time a copy on this PU spent waiting for a lock.
    p.drawText(QRectF(row.left(), row.top(), scaleRect_.left() - row.left() - 4, row.height()),
               Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0%"));
    QLinearGradient g(scaleRect_.topLeft(), scaleRect_.topRight());
    for (int i = 0; i <= 10; ++i)
        g.setColorAt(i / 10.0, heatColor(i / 10.0));
    p.setPen(QPen(QColor(0x88, 0x88, 0x88), 0.8));
    p.setBrush(g);
    p.drawRect(scaleRect_);
    // The mean over the PUs shown, marked on the scale and written: a colour alone does not
    // say "92%" to the back row.
    const double mean = heatMean();
    const double mx = scaleRect_.left() + mean * scaleRect_.width();
    p.setPen(QPen(Qt::black, 2));
    p.drawLine(QPointF(mx, scaleRect_.top() - 2), QPointF(mx, scaleRect_.bottom() + 2));
    p.setPen(Qt::black);
    const double after = scaleRect_.right() + 6;
    p.drawText(QRectF(after, row.top(), row.right() - after, row.height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("100%    mean over the CPUs (the black line): %1%")
                                 .arg(QLocale().toString(mean * 100, 'f', 0)),
                             Qt::ElideRight, row.right() - after));
    const QRectF what(row.left(), row.bottom() + 2, row.width(), linePx_);
    p.drawText(what, Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("PU heat: %1").arg(heatWhat_), Qt::ElideRight, what.width()));
    if (heatChoices_.isEmpty()) return;
    const QRectF second(row.left(), what.bottom() + 2, row.width(), linePx_);
    p.drawText(second, Qt::AlignLeft | Qt::AlignVCenter, tr("PU heat shows: "));
    for (std::size_t i = 0; i < chipRects_.size(); ++i) {
        const bool on = static_cast<int>(i) == heatCurrent_;
        p.setPen(QPen(on ? QColor(0x20, 0x20, 0x20) : QColor(0x99, 0x99, 0x99), on ? 1.6 : 0.8));
        p.setBrush(on ? QColor(0xff, 0xe8, 0xb0) : QColor(0xf2, 0xf2, 0xee));
        p.drawRoundedRect(chipRects_[i], 4, 4);
        p.setPen(Qt::black);
        p.drawText(chipRects_[i], Qt::AlignCenter, heatChoices_[static_cast<int>(i)]);
    }
}

bool TopologyView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && topo_) {
        const auto* help = static_cast<QHelpEvent*>(e);
        for (const auto& [os, r] : puRects_) {
            if (!r.contains(help->pos())) continue;
            const topology::Pu* pu = topo_->puByOsIndex(os);
            QString text = tr("PU L#%1 P#%2, core L#%3, NUMA node L#%4")
                               .arg(pu ? pu->logicalIndex : 0)
                               .arg(os)
                               .arg(pu ? pu->core : -1)
                               .arg(pu ? pu->node : -1);
            if (os < heat_.size() && heat_[os] >= 0)
                text += tr("\n%1: %2%").arg(heatWhat_).arg(heat_[os] * 100, 0, 'f', 1);
            QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
        const std::size_t n = topo_->nodeCount();
        for (std::size_t r = 0; r < n; ++r)
            for (std::size_t c = 0; c < n; ++c)
                if (matrixCell(static_cast<int>(r), static_cast<int>(c)).contains(help->pos()) &&
                    r < topo_->distances().size() && c < topo_->distances()[r].size()) {
                    QToolTip::showText(help->globalPos(),
                                       tr("node %1 to node %2: distance %3")
                                           .arg(r)
                                           .arg(c)
                                           .arg(topo_->distances()[r][c]),
                                       this);
                    return true;
                }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

}  // namespace immap::views
