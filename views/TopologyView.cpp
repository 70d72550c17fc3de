#include "TopologyView.h"
#include "FontScale.h"

#include <QHelpEvent>
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
    // Cold blue-grey to hot red, through yellow.
    v = std::clamp(v, 0.0, 1.0);
    if (v < 0.5)
        return QColor::fromRgbF(0.85 + 0.15 * v * 2, 0.88 + 0.07 * v * 2, 0.92 - 0.62 * v * 2);
    return QColor::fromRgbF(1.0, 0.95 - 0.8 * (v - 0.5) * 2, 0.30 - 0.2 * (v - 0.5) * 2);
}

QRectF TopologyView::puRect(unsigned osIndex) const {
    for (const auto& [os, r] : puRects_)
        if (os == osIndex) return r;
    return {};
}

QRectF TopologyView::matrixCell(int row, int column) const {
    if (!topo_ || topo_->nodeCount() == 0) return {};
    const double n = static_cast<double>(topo_->nodeCount());
    const double side = std::min(matrixArea_.width(), matrixArea_.height() - 18) / n;
    return QRectF(matrixArea_.left() + column * side, matrixArea_.top() + 18 + row * side, side,
                  side);
}

QPointF TopologyView::graphNode(int node) const {
    if (node < 0 || static_cast<std::size_t>(node) >= graph_.size()) return {};
    const QRectF a = graphArea_.adjusted(24, 36, -24, -24);
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
    const QRectF all = QRectF(rect()).adjusted(8, 8, -8, -8);
    const double side = std::min(all.width() * 0.34, all.height() / 2 - 4);
    machineArea_ = QRectF(all.left(), all.top() + 20, all.width() - side - 12, all.height() - 40);
    matrixArea_ = QRectF(all.right() - side, all.top(), side, side);
    graphArea_ = QRectF(all.right() - side, all.top() + side + 8, side, all.height() - side - 8);
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
        const QRectF inner = pr.adjusted(4, 18, -4, -4);
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
            const QRectF ci = nr.adjusted(3, 16, -3, -3);
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
    if (!topo_) {
        p.drawText(rect(), Qt::AlignCenter, tr("No topology loaded"));
        return;
    }
    QFont f = font();
    f.setPointSizeF(8 * fontScale());
    p.setFont(f);
    p.setPen(Qt::black);
    p.drawText(QRectF(machineArea_.left(), machineArea_.top() - 20, machineArea_.width(), 18),
               Qt::AlignLeft | Qt::AlignVCenter,
               tr("%1 — L# = hwloc logical index, P# = OS index (cpuN, nodeN)%2")
                   .arg(QString::fromStdString(topo_->spec()))
                   .arg(heatWhat_.isEmpty() ? QString() : tr("; PU heat: ") + heatWhat_));
    const auto& packages = topo_->packages();
    for (std::size_t i = 0; i < packageRects_.size(); ++i) {
        p.setPen(QPen(QColor(0x55, 0x55, 0x55), 1.5));
        p.setBrush(QColor(0xee, 0xee, 0xe8));
        p.drawRoundedRect(packageRects_[i], 4, 4);
        p.setPen(Qt::black);
        const QString label = i < packages.size()
                                  ? tr("Package L#%1 P#%2")
                                        .arg(packages[i].logicalIndex)
                                        .arg(packages[i].osIndex == topology::kUnknownIndex
                                                 ? QStringLiteral("?")
                                                 : QString::number(packages[i].osIndex))
                                  : tr("Machine");
        p.drawText(packageRects_[i].adjusted(6, 2, -6, 0), Qt::AlignTop | Qt::AlignLeft, label);
    }
    const auto& nodes = topo_->nodes();
    for (std::size_t i = 0; i < nodeRects_.size() && i < nodes.size(); ++i) {
        const QColor c = NodePalette::home(static_cast<int>(nodes[i].logicalIndex));
        p.setPen(QPen(c, 2));
        p.setBrush(QColor(c.red(), c.green(), c.blue(), 28));
        p.drawRoundedRect(nodeRects_[i], 3, 3);
        p.setPen(Qt::black);
        p.drawText(nodeRects_[i].adjusted(4, 1, -4, 0), Qt::AlignTop | Qt::AlignLeft,
                   tr("NUMA L#%1 P#%2 (%3 PUs)")
                       .arg(nodes[i].logicalIndex)
                       .arg(nodes[i].osIndex)
                       .arg(nodes[i].pus.size()));
    }
    p.setPen(QPen(QColor(0x88, 0x88, 0x88), 0.8));
    p.setBrush(QColor(0xf4, 0xf4, 0xf0));
    for (const QRectF& r : coreRects_)
        p.drawRect(r);
    for (const auto& [os, r] : puRects_) {
        const double h = os < heat_.size() ? heat_[os] : -1;
        p.setPen(Qt::NoPen);
        p.setBrush(h >= 0 ? heatColor(h) : QColor(0xd8, 0xe4, 0xf0));
        p.drawRect(r);
        if (r.width() > 34 && r.height() > 14) {
            const topology::Pu* pu = topo_->puByOsIndex(os);
            p.setPen(Qt::black);
            p.drawText(r, Qt::AlignCenter, tr("L#%1\nP#%2").arg(pu ? pu->logicalIndex : 0).arg(os));
        }
    }

    // The distance matrix.
    const std::size_t n = topo_->nodeCount();
    const auto& d = topo_->distances();
    unsigned lo = 255, hi = 10;
    for (const auto& row : d)
        for (unsigned v : row)
            lo = std::min(lo, v), hi = std::max(hi, v);
    p.setPen(Qt::black);
    p.drawText(
        QRectF(matrixArea_.left(), matrixArea_.top(), matrixArea_.width(), 16), Qt::AlignLeft,
        topo_->distancesAreDefault() ? tr("NUMA distances (SLIT; no table, the kernel's 10/20)")
                                     : tr("NUMA distances (SLIT units, 10 = local)"));
    for (std::size_t r = 0; r < n && r < d.size(); ++r) {
        for (std::size_t c = 0; c < n && c < d[r].size(); ++c) {
            const QRectF cell = matrixCell(static_cast<int>(r), static_cast<int>(c));
            const double t = hi > lo ? (d[r][c] - lo) / static_cast<double>(hi - lo) : 0;
            p.setPen(Qt::NoPen);
            p.setBrush(heatColor(t));
            p.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5));
            if (cell.width() > 16) {
                p.setPen(Qt::black);
                p.drawText(cell, Qt::AlignCenter, QString::number(d[r][c]));
            }
        }
    }

    // The node graph: edges shaded by distance, nodes in their colours.
    p.setPen(Qt::black);
    p.drawText(QRectF(graphArea_.left(), graphArea_.top(), graphArea_.width(), 16), Qt::AlignLeft,
               tr("nodes laid out by distance (Kamada-Kawai)"));
    for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = a + 1; b < n; ++b) {
            const unsigned w = a < d.size() && b < d[a].size() ? d[a][b] : 20;
            const double t = hi > lo ? (w - lo) / static_cast<double>(hi - lo) : 0;
            p.setPen(QPen(
                QColor::fromRgbF(0.3 + 0.6 * t, 0.3 + 0.6 * t, 0.3 + 0.6 * t, 0.8 - 0.5 * t), 1.2));
            p.drawLine(graphNode(static_cast<int>(a)), graphNode(static_cast<int>(b)));
        }
    }
    for (std::size_t a = 0; a < n; ++a) {
        const QPointF c = graphNode(static_cast<int>(a));
        p.setPen(QPen(Qt::black, 1));
        p.setBrush(NodePalette::home(static_cast<int>(a)));
        p.drawEllipse(c, 9, 9);
        p.setPen(Qt::white);
        p.drawText(QRectF(c.x() - 9, c.y() - 9, 18, 18), Qt::AlignCenter, QString::number(a));
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
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

}  // namespace immap::views
