#pragma once
// The machine, lstopo-like: packages holding NUMA nodes holding L3 groups, cores and PUs, each
// labelled with hwloc's logical index (L#) and the OS index (P#) where there is room (and on
// hover); beside it the NUMA distance matrix as a colour grid and the nodes as a graph laid out
// by distance (Kamada-Kawai). PUs can carry a heat value (lock wait during a run), with a
// colour scale naming what it shows and, after a sweep, one chip per policy to switch it.
// The distance grid and the heat use distinct palettes (blues for distance, cream to red for
// heat), and all text is sized by the workshop font scale (FontScale.h).

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
    // The policies the heat can show (chips in its legend) and which one it shows now.
    void setHeatChoices(const QStringList& policies, int current);
    QRectF heatChip(int i) const;
    QRectF heatScale() const { return scaleRect_; }
    QString heatText() const { return heatWhat_; }
    bool hasHeat() const { return !heat_.empty(); }
    // The heat's mean over the PUs that have one (0 without heat): marked and written on the
    // legend's scale.
    double heatMean() const;
    // What the legend says while there is no heat (a sweep under way); empty: the default.
    void setHeatPending(const QString& text);
    QString heatLegendText() const;

    // Where a PU (OS index) is drawn, for tests and hover; empty if not shown.
    QRectF puRect(unsigned osIndex) const;
    QRectF matrixCell(int row, int column) const;
    QPointF graphNode(int node) const;
    QColor heatColor(double v) const;
    static QColor distanceColor(double t);  // t in [0, 1]: local to farthest
    // The distance grid's digits' pixel size (0 when they do not fit and are left out).
    int matrixDigitPx() const { return digitPx_; }

signals:
    void heatChoiceRequested(int index);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    bool event(QEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    void relayout();
    // The smallest and largest SLIT distance in the table ({10, 10} when it is empty).
    std::pair<unsigned, unsigned> distanceRange() const;
    void paintMatrix(QPainter& p);
    void paintHeatLegend(QPainter& p);

    std::unique_ptr<topology::Topology> topo_;
    std::vector<std::pair<double, double>> graph_;
    std::vector<double> heat_;  // by OS index
    QString heatPending_;
    QString heatWhat_;
    QStringList heatChoices_;
    int heatCurrent_ = -1;
    // Geometry, recomputed on resize.
    QRectF machineArea_, matrixArea_, graphArea_, legendArea_, scaleRect_;
    std::vector<QRectF> chipRects_;
    int linePx_ = 16;  // a text line's height at the current font scale
    int digitPx_ = 0;
    std::vector<QRectF> packageRects_, nodeRects_, coreRects_;
    std::vector<std::pair<unsigned, QRectF>> puRects_;
};

}  // namespace immap::views
