#pragma once
// The throughput view: execs/s against copies for each policy (top), the speedup over single
// at the same copy count and walker rate (bottom), the proposal's claimed gains marked at 384
// copies when the machine has 384 PUs, values on hover, zoom and pan, export PNG, PDF and CSV.
// A banded sweep's 10-90% band over the drawn parameter sets (sim::Band) is shaded around each
// curve of the lowest walker rate, in both panes; the seeds' range is an error bar.
// A sweep with whole-file walkers has a curve per (policy, walker rate): the policy's colour
// throughout, solid without walkers and dashed with them, so that each policy is seen with and
// without walkers side by side. It renders a sweep's results and nothing else: running sweeps
// is the caller's business.

#include <QString>
#include <QWidget>
#include <utility>
#include <vector>

#include "sim/SimResult.h"
#include "sim/SingleRuns.h"
#include "topology/Topology.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPItemText;
class QCPLegend;
class QCPMarginGroup;

namespace immap::views {

class PlotLabelPlacer;

class ThroughputView : public QWidget {
    Q_OBJECT

public:
    explicit ThroughputView(QWidget* parent = nullptr);

    // Shows the runs (any order; grouped by policy and walker rate). `machine` names the
    // topology in the title; `pus` decides whether the proposal's 384-CPU claims are marked.
    void setRuns(const std::vector<sim::SimResult>& runs, const QString& machine, int pus);
    // The title's name for a machine: a topology file by its name (not the presenter's path),
    // with its shape.
    static QString machineName(const topology::Topology& topo);
    const std::vector<sim::SimResult>& runs() const { return runs_; }

    // Measured execs/s on the real machine (immap bench execl), drawn over the simulated curves
    // as points with error bars of one standard deviation; empty clears them.
    struct Measured {
        unsigned copies;
        double execsPerSecond;
        double stddev;
    };
    // note: when the points come from another machine than the plotted one, what each is;
    // drawn over the plot's top-left corner whenever the points are.
    void setMeasured(const std::vector<Measured>& points, const QString& label,
                     const QString& note = {});
    QCPGraph* measuredGraph() const { return measured_; }
    // The points whose run had no steady state (SimResult::overload), crossed in both panes;
    // nullptr when every point had one.
    QCPGraph* overloadGraph() const { return overloaded_; }
    QCPItemText* measuredNoteItem() const { return measuredNoteItem_; }

    QCustomPlot* plot() const { return plot_; }
    // The execs/s graph of a policy ("single", ...) at a walker rate (by default without
    // walkers), nullptr if absent; the speedup graph likewise (over single at that rate).
    QCPGraph* throughputGraph(const QString& policy, double walkersPerSecond = 0) const;
    QCPGraph* speedupGraph(const QString& policy, double walkersPerSecond = 0) const;
    // A curve's shaded 10-90% band: the p10 graph and the p90 graph filled down to it; both
    // nullptr when the runs have no bands or the curve is not shaded.
    std::pair<QCPGraph*, QCPGraph*> throughputBand(const QString& policy,
                                                   double walkersPerSecond = 0) const;
    std::pair<QCPGraph*, QCPGraph*> speedupBand(const QString& policy,
                                                double walkersPerSecond = 0) const;
    // A curve's name in the legend: "split-locks", or "split-locks, 100 walks/s".
    static QString curveName(const QString& policy, double walkersPerSecond);
    bool claimsShown() const { return claimsShown_; }

    // Points a slide quotes: each is ringed on its walker-free curve (the lowest rate swept),
    // or with `walkers` on its curve at the highest rate, with its figure written beside it:
    // execs/s above (and on a walker curve the walks' mean latency), the speedup below. Kept
    // across setRuns(); empty clears them.
    struct Mark {
        QString policy;
        unsigned copies = 0;
        bool walkers = false;
    };
    void setMarks(const std::vector<Mark>& marks);
    // The figures written, in mark order, both panes ("25,583 execs/s", "3.03x").
    QStringList markTexts() const;

    // Compact, for a slide: no line saying what the shading is (the caller says it), the
    // legend inside the throughput pane, the copies axis named once and short axis titles, so
    // that both panes keep their height at 1280x720 in large type.
    void setCompact(bool on);
    bool compact() const { return compact_; }
    QCPAxisRect* throughputRect() const { return topRect_; }
    QCPAxisRect* speedupRect() const { return speedRect_; }

    // A message over the plot (no sweep yet, the sweep's progress); empty hides it. Kept
    // across setRuns().
    void setOverlay(const QString& text);
    QString overlay() const { return overlay_; }
    QCPItemText* overlayItem() const { return overlayItem_; }

protected:
    void changeEvent(QEvent* e) override;

public:
    // Atomic saves; false with the reason in `error`.
    bool exportPng(const QString& path, int width, int height, QString& error);
    bool exportPdf(const QString& path, int width, int height, QString& error);
    bool exportCsv(const QString& path, QString& error);

    // The colour each policy gets everywhere in the app.
    static QColor policyColor(const QString& policy);

private:
    void showValueAt(const QPoint& pos);

    QCustomPlot* plot_;
    QCPAxisRect* speedRect_ = nullptr;
    QCPMarginGroup* margins_ = nullptr;
    std::vector<sim::SimResult> runs_;
    sim::SingleRuns<sim::SimResult> singles_;  // single's runs in runs_, for every ratio
    std::vector<Measured> measuredPoints_;
    QString measuredLabel_;
    QString measuredNote_;
    std::vector<Mark> marks_;
    std::vector<QCPItemText*> markItems_;
    PlotLabelPlacer* placer_;  // the figures' and claims' cards, out of the curves' way
    void drawMarks();
    QCPItemText* measuredNoteItem_ = nullptr;
    QCPGraph* measured_ = nullptr;
    QCPAxisRect* topRect_ = nullptr;
    QString overlay_;
    QCPItemText* overlayItem_ = nullptr;
    QString machine_;
    int pus_ = 0;
    void drawMeasured(QCPLegend* legend);
    QCPGraph* overloaded_ = nullptr;
    void drawOverloaded(QCPLegend* legend);
    // One per (policy, walker rate), in the order drawn; `runs` sorted by copies, for the hover.
    struct Curve {
        QString policy;
        double walkersPerSecond = 0;
        QCPGraph* throughput = nullptr;
        QCPGraph* speedup = nullptr;
        std::vector<const sim::SimResult*> runs;
        QCPGraph* bandLow = nullptr;  // the shaded bands (null: none)
        QCPGraph* bandHigh = nullptr;
        QCPGraph* speedLow = nullptr;
        QCPGraph* speedHigh = nullptr;
    };
    const Curve* curveOf(const QCPGraph* g) const;
    const Curve* curveFor(const QString& policy, double walkersPerSecond) const;
    // Shades a curve's bands (its runs carry bandRates); widens the ranges to hold them.
    void drawBands(Curve& curve, const QColor& colour, double& maxY, double& maxS);
    std::vector<Curve> curves_;
    bool severalRates_ = false;  // the runs have more than one walker rate
    bool claimsShown_ = false;
    bool compact_ = false;
};

}  // namespace immap::views
