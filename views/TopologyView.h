#pragma once
// The machine, lstopo-like: packages holding NUMA nodes holding L3 groups, cores and PUs, each
// labelled with hwloc's logical index (L#) and the OS index (P#) where there is room (and on
// hover); beside it the NUMA distance matrix as a colour grid and the nodes as a graph laid out
// by distance (Kamada-Kawai). PUs can carry a heat value (lock wait during a run).

#include <QWidget>
#include <memory>
#include <vector>

#include "topology/Topology.h"

namespace immap::views {

class TopologyView : public QWidget {
    Q_OBJECT
public:
    explicit TopologyView(QWidget* parent = nullptr);

    void setTopology(const topology::Topology& topo);
    // One value in [0, 1] per PU, by OS index (missing PUs are cold); `what` says what it is.
    void setHeat(const std::vector<std::pair<unsigned, double>>& perPu, const QString& what);
    void clearHeat();

    // Where a PU (OS index) is drawn, for tests and hover; empty if not shown.
    QRectF puRect(unsigned osIndex) const;
    QRectF matrixCell(int row, int column) const;
    QPointF graphNode(int node) const;
    QColor heatColor(double v) const;

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    bool event(QEvent* e) override;

private:
    void relayout();

    std::unique_ptr<topology::Topology> topo_;
    std::vector<std::pair<double, double>> graph_;
    std::vector<double> heat_;  // by OS index
    QString heatWhat_;
    // Geometry, recomputed on resize.
    QRectF machineArea_, matrixArea_, graphArea_;
    std::vector<QRectF> packageRects_, nodeRects_, coreRects_;
    std::vector<std::pair<unsigned, QRectF>> puRects_;
};

}  // namespace immap::views
