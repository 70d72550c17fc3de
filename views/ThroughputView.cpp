#include "ThroughputView.h"

#include "FontScale.h"
#include "PlotCard.h"
#include "PlotFile.h"
#include "PlotLabelPlacer.h"
#include "VendorClaims.h"

#include <QFileInfo>
#include <QLocale>

#include <qcustomplot.h>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>

#include "sim/Band.h"
#include "sim/SingleRuns.h"
#include "sim/Sweep.h"
#include "sim/SweepRow.h"

namespace immap::views {

namespace {

// A walker rate as labels show it: whole numbers grouped ("10,000"), others as they are.
QString walkRate(double perSecond) {
    const QLocale loc;
    return perSecond == std::floor(perSecond) && perSecond < 1e15
               ? loc.toString(static_cast<qlonglong>(perSecond))
               : loc.toString(perSecond, 'g', 6);
}

// The pen of a curve by its walker rate's rank among the sweep's rates above 0: without
// walkers solid, then dashed, dotted, ... (the colour is the policy's).
Qt::PenStyle walkerDash(std::size_t rank) {
    static constexpr Qt::PenStyle kStyles[] = {Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                               Qt::DashDotDotLine};
    return kStyles[rank % std::size(kStyles)];
}

}  // namespace

QColor ThroughputView::policyColor(const QString& policy) {
    if (policy == "single") return QColor(0x44, 0x44, 0x44);
    if (policy == "split-trees") return QColor(0x1f, 0x77, 0xb4);
    if (policy == "split-locks") return QColor(0xd6, 0x27, 0x28);
    if (policy.startsWith("sharded")) return QColor(0x2c, 0xa0, 0x2c);
    if (policy == "no-rmap") return QColor(0xff, 0x7f, 0x0e);
    // The B-tree index: brown alone, pink with split-locks.
    if (policy == "btree+split-locks") return QColor(0xe3, 0x77, 0xc2);
    if (policy.startsWith("btree")) return QColor(0x8c, 0x56, 0x4b);
    return QColor(0x94, 0x67, 0xbd);
}

ThroughputView::ThroughputView(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)), placer_(new PlotLabelPlacer(plot_)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // The legend is built by hand, one entry per policy and walker rate.
    plot_->setAutoAddPlottableToLegend(false);
    // Made once: the panes made by each setRuns() join it and leave it when deleted.
    margins_ = new QCPMarginGroup(plot_);
    plot_->setMouseTracking(true);
    plot_->addLayer(QStringLiteral("bands"), plot_->layer(QStringLiteral("main")),
                    QCustomPlot::limBelow);
    connect(plot_, &QCustomPlot::mouseMove, this,
            [this](QMouseEvent* e) { showValueAt(e->pos()); });
    setRuns({}, QString(), 0);
}

const ThroughputView::Curve* ThroughputView::curveFor(const QString& policy,
                                                      double walkersPerSecond) const {
    for (const Curve& c : curves_)
        if (c.policy == policy && c.walkersPerSecond == walkersPerSecond) return &c;
    return nullptr;
}

QCPGraph* ThroughputView::throughputGraph(const QString& policy, double walkersPerSecond) const {
    const Curve* c = curveFor(policy, walkersPerSecond);
    return c ? c->throughput : nullptr;
}

QCPGraph* ThroughputView::speedupGraph(const QString& policy, double walkersPerSecond) const {
    const Curve* c = curveFor(policy, walkersPerSecond);
    return c ? c->speedup : nullptr;
}

std::pair<QCPGraph*, QCPGraph*> ThroughputView::throughputBand(const QString& policy,
                                                               double walkersPerSecond) const {
    const Curve* c = curveFor(policy, walkersPerSecond);
    return c ? std::pair{c->bandLow, c->bandHigh} : std::pair<QCPGraph*, QCPGraph*>{};
}

std::pair<QCPGraph*, QCPGraph*> ThroughputView::speedupBand(const QString& policy,
                                                            double walkersPerSecond) const {
    const Curve* c = curveFor(policy, walkersPerSecond);
    return c ? std::pair{c->speedLow, c->speedHigh} : std::pair<QCPGraph*, QCPGraph*>{};
}

void ThroughputView::drawBands(Curve& curve, const QColor& colour, double& maxY, double& maxS) {
    auto pair = [&](QCPAxisRect* rect, QCPGraph*& low, QCPGraph*& high) {
        low = plot_->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        high = plot_->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        for (QCPGraph* g : {low, high}) {
            g->setLayer(QStringLiteral("bands"));  // under every curve
            g->setPen(Qt::NoPen);
            g->setName(tr("%1, 10-90% band").arg(curve.throughput->name()));
        }
        QColor fill = colour;
        fill.setAlpha(48);
        high->setBrush(fill);
        high->setChannelFillGraph(low);
    };
    bool any = false;
    for (const sim::SimResult* r : curve.runs)
        any = any || !r->bandRates.empty();
    if (!any) return;
    pair(topRect_, curve.bandLow, curve.bandHigh);
    pair(speedRect_, curve.speedLow, curve.speedHigh);
    for (const sim::SimResult* r : curve.runs) {
        if (const sim::Band b = sim::Band::of(r->bandRates); b.valid) {
            curve.bandLow->addData(r->copies, b.p10);
            curve.bandHigh->addData(r->copies, b.p90);
            maxY = std::max(maxY, b.p90);
        }
        if (const sim::Band b = singles_.band(*r); b.valid) {
            curve.speedLow->addData(r->copies, b.p10);
            curve.speedHigh->addData(r->copies, b.p90);
            maxS = std::max(maxS, b.p90);
        }
    }
}

const ThroughputView::Curve* ThroughputView::curveOf(const QCPGraph* g) const {
    for (const Curve& c : curves_)
        if (c.throughput == g || c.speedup == g) return &c;
    return nullptr;
}

QString ThroughputView::curveName(const QString& policy, double walkersPerSecond) {
    if (walkersPerSecond == 0) return policy;
    return tr("%1, %2 walks/s").arg(policy, walkRate(walkersPerSecond));
}

void ThroughputView::setMeasured(const std::vector<Measured>& points, const QString& label,
                                 const QString& note) {
    measuredPoints_ = points;
    measuredLabel_ = label;
    measuredNote_ = note;
    setRuns(runs_, machine_, pus_);
}

void ThroughputView::drawMeasured(QCPLegend* legend) {
    measured_ = nullptr;
    if (measuredPoints_.empty()) return;
    measured_ = plot_->addGraph(topRect_->axis(QCPAxis::atBottom), topRect_->axis(QCPAxis::atLeft));
    measured_->setName(measuredLabel_.isEmpty() ? tr("measured") : measuredLabel_);
    measured_->setLineStyle(QCPGraph::lsNone);
    measured_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.5),
                                               QBrush(QColor(0xff, 0xcc, 0x00)), 10));
    auto* bars =
        new QCPErrorBars(topRect_->axis(QCPAxis::atBottom), topRect_->axis(QCPAxis::atLeft));
    bars->setDataPlottable(measured_);
    bars->setPen(QPen(Qt::black, 1.2));
    QVector<double> errors;
    for (const Measured& m : measuredPoints_) {
        measured_->addData(m.copies, m.execsPerSecond);
        errors << m.stddev;
    }
    bars->setData(errors);
    legend->addItem(new QCPPlottableLegendItem(legend, measured_));
}

// A run without a steady state measured a queue that only grows: its figure depends on the
// window, so the point is crossed out where it is drawn, not only named in the summary.
void ThroughputView::drawOverloaded(QCPLegend* legend) {
    overloaded_ = nullptr;
    QCPGraph* speed = nullptr;  // the same points in the speedup pane
    for (const Curve& c : curves_)
        for (const sim::SimResult* r : c.runs) {
            if (r->overload.empty()) continue;
            if (!overloaded_) {
                overloaded_ = plot_->addGraph(topRect_->axis(QCPAxis::atBottom),
                                              topRect_->axis(QCPAxis::atLeft));
                speed = plot_->addGraph(speedRect_->axis(QCPAxis::atBottom),
                                        speedRect_->axis(QCPAxis::atLeft));
                overloaded_->setName(tr("no steady state"));
                legend->addItem(new QCPPlottableLegendItem(legend, overloaded_));
                for (QCPGraph* g : {overloaded_, speed}) {
                    g->setLineStyle(QCPGraph::lsNone);
                    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross,
                                                       QPen(QColor(0xd0, 0x10, 0x10), 2.5),
                                                       Qt::NoBrush, 14));
                }
            }
            overloaded_->addData(r->copies, r->execsPerSecond);
            if (const double s = singles_.speedup(*r); s > 0) speed->addData(r->copies, s);
        }
}

void ThroughputView::setRuns(const std::vector<sim::SimResult>& runs, const QString& machine,
                             int pus) {
    if (&runs != &runs_) runs_ = runs;
    singles_ = sim::SingleRuns(runs_);
    machine_ = machine;
    pus_ = pus;
    curves_.clear();
    placer_->clear();
    plot_->clearPlottables();
    plot_->clearItems();
    overlayItem_ = nullptr;  // deleted with the items; made again below
    markItems_.clear();
    measuredNoteItem_ = nullptr;
    plot_->plotLayout()->clear();

    auto* title =
        new QCPTextElement(plot_,
                           machine.isEmpty() ? tr("Simulated exec throughput")
                                             : tr("Simulated exec throughput on %1").arg(machine),
                           pxFont(font(), 15, true));
    plot_->plotLayout()->addElement(0, 0, title);
    const bool banded = std::any_of(runs_.begin(), runs_.end(),
                                    [](const sim::SimResult& r) { return !r.bandRates.empty(); });
    int row = 1;
    if (banded && !compact_) {
        // What the shading is, once, where it is read before the curves (a slide's summary
        // says it instead).
        std::size_t sets = 0;
        for (const sim::SimResult& r : runs_)
            sets = std::max(sets, r.bandRates.size());
        auto* note = new QCPTextElement(
            plot_,
            tr("Shaded: the 10-90% band over %1 parameter sets drawn across their plausible "
               "ranges; bars: the seeds' range")
                .arg(sets),
            pxFont(font(), 12));
        plot_->plotLayout()->addElement(row++, 0, note);
    }
    // The legend has a row of its own under the title, not an inset over the plot: with a
    // curve per policy and walker rate it would cover curves. Each policy's curves are one
    // column (rates down), centred between two empty stretching cells. Compact (a slide), it
    // is an inset in the throughput pane's top-left corner, which the curves leave empty:
    // they start low at one copy and rise to the right.
    auto* legend = new QCPLegend;
    if (!compact_) {
        auto* legendRow = new QCPLayoutGrid;
        plot_->plotLayout()->addElement(row++, 0, legendRow);
        legendRow->addElement(0, 0, new QCPLayoutElement(plot_));
        legendRow->addElement(0, 1, legend);
        legendRow->addElement(0, 2, new QCPLayoutElement(plot_));
        legendRow->setColumnStretchFactors({1, 0.001, 1});
        legendRow->setMargins(QMargins(0, 0, 0, 0));
    }
    auto* top = new QCPAxisRect(plot_);
    topRect_ = top;
    if (compact_) {
        top->insetLayout()->addElement(legend, Qt::AlignLeft | Qt::AlignTop);
        legend->setBrush(QColor(255, 255, 255, 225));
    }
    legend->setLayer("legend");  // once placed: a layer needs the plot, which placing gives
    legend->setFont(pxFont(font(), 12));
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    speedRect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(row, 0, top);
    plot_->plotLayout()->addElement(row + 1, 0, speedRect_);
    // One left and right margin for both panes, so that a copy count is at the same x in both.
    top->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    speedRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    for (int r = 0; r < row; ++r)
        plot_->plotLayout()->setRowStretchFactor(r, 0.001);
    plot_->plotLayout()->setRowStretchFactor(row, 3);
    // QCustomPlot gives a new axis the plot's font of the moment: set each one's, so that the
    // digits follow workshop mode's scale like the rest.
    for (QCPAxisRect* r : {top, speedRect_})
        for (QCPAxis* a : r->axes()) {
            a->setTickLabelFont(pxFont(font(), 12));
            a->setLabelFont(pxFont(font(), 13));
        }
    plot_->plotLayout()->setRowStretchFactor(row + 1, 2);
    auto logTicker = QSharedPointer<QCPAxisTickerLog>::create();
    logTicker->setLogBase(2);
    for (QCPAxisRect* r : {top, speedRect_}) {
        r->axis(QCPAxis::atBottom)->setScaleType(QCPAxis::stLogarithmic);
        r->axis(QCPAxis::atBottom)->setTicker(logTicker);
        r->axis(QCPAxis::atBottom)->setLabel(tr("copies (execl -c N)"));
        r->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }
    // Compact: the panes share their copies axis, so it is named once, under the lower one,
    // and the left titles are short enough for the lower pane's height.
    if (compact_) {
        top->axis(QCPAxis::atBottom)->setLabel(QString());
        top->axis(QCPAxis::atBottom)->setTickLabels(false);
        // The lower pane's data area is then about as tall as the upper one's.
        plot_->plotLayout()->setRowStretchFactor(row + 1, 3);
    }
    top->axis(QCPAxis::atLeft)->setLabel(tr("execs/s"));
    speedRect_->axis(QCPAxis::atLeft)
        ->setLabel(compact_ ? tr("x single") : tr("speedup over single"));

    // Curves: policies in the order they first appear, each with its walker rates ascending.
    std::vector<std::string> order;
    std::map<std::string, std::map<double, std::vector<const sim::SimResult*>>> byPolicy;
    std::set<double> rates;
    bool anySingle = false;
    for (const sim::SimResult& r : runs_) {
        if (!byPolicy.count(r.policy)) order.push_back(r.policy);
        byPolicy[r.policy][r.walkersPerSecond].push_back(&r);
        rates.insert(r.walkersPerSecond);
        anySingle = anySingle || r.policy == "single";
    }
    severalRates_ = rates.size() > 1;
    std::size_t rowsPerPolicy = 1;
    for (const auto& [name, byRate] : byPolicy)
        rowsPerPolicy = std::max(rowsPerPolicy, byRate.size());
    // Compact: one row, each policy once (its walker-free curve) and each walker rate once as a
    // grey line of its dash, so that the inset stays as low as one line of type.
    if (compact_) {
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        legend->setWrap(0);
    } else {
        legend->setWrap(static_cast<int>(rowsPerPolicy));
    }
    double maxX = 1, maxY = 1, maxS = 1;
    for (const std::string& name : order) {
        const QString policy = QString::fromStdString(name);
        const QColor c = policyColor(policy);
        for (auto& [rate, list] : byPolicy[name]) {
            std::sort(list.begin(), list.end(),
                      [](auto* a, auto* b) { return a->copies < b->copies; });
            // Solid without walkers; dashed (then dotted, ...) by the rate's rank above 0.
            const auto rank = static_cast<std::size_t>(std::count_if(
                rates.begin(), rates.end(), [&](double x) { return x > 0 && x < rate; }));
            const Qt::PenStyle style = rate > 0 ? walkerDash(rank) : Qt::SolidLine;
            QCPGraph* g = plot_->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
            QCPGraph* s = plot_->addGraph(speedRect_->axis(QCPAxis::atBottom),
                                          speedRect_->axis(QCPAxis::atLeft));
            for (QCPGraph* x : {g, s}) {
                x->setName(curveName(policy, rate));
                x->setPen(QPen(c, 2, style));
                // Hollow points without walkers, filled with them: told apart where the lines
                // are too short to show their dashes.
                x->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c,
                                                   rate > 0 ? QBrush(c) : QBrush(Qt::white), 6));
            }
            if (!compact_ || rate == *rates.begin())
                legend->addItem(new QCPPlottableLegendItem(legend, g));
            // The seeds' range around each point's mean, when the sweep ran several.
            QCPErrorBars* spread = nullptr;
            for (const sim::SimResult* r : list)
                if (r->seedRates.size() > 1 && !spread) {
                    spread =
                        new QCPErrorBars(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
                    spread->setDataPlottable(g);
                    spread->setPen(QPen(c, 1.2));
                    spread->removeFromLegend();
                }
            for (const sim::SimResult* r : list) {
                g->addData(r->copies, r->execsPerSecond);
                if (spread) {
                    const auto [lo, hi] =
                        std::minmax_element(r->seedRates.begin(), r->seedRates.end());
                    spread->addData(r->seedRates.empty() ? 0 : r->execsPerSecond - *lo,
                                    r->seedRates.empty() ? 0 : *hi - r->execsPerSecond);
                }
                maxX = std::max(maxX, static_cast<double>(r->copies));
                maxY = std::max(maxY, r->execsPerSecond);
                // Over single at the same copy count and the same walker rate.
                const double speedup = singles_.speedup(*r);
                if (speedup > 0) {
                    s->addData(r->copies, speedup);
                    maxS = std::max(maxS, speedup);
                }
            }
            curves_.push_back({policy, rate, g, s, list});
            // Shaded around the lowest rate's curves only: a walker curve's band would lie on
            // the same area (the hover still gives it).
            if (rate == *rates.begin()) drawBands(curves_.back(), c, maxY, maxS);
        }
    }
    drawMeasured(legend);
    drawOverloaded(legend);
    if (compact_)
        for (double rate : rates) {
            if (rate == *rates.begin()) continue;
            const auto rank = static_cast<std::size_t>(std::count_if(
                rates.begin(), rates.end(), [&](double x) { return x > 0 && x < rate; }));
            // A pen in the legend, no data.
            QCPGraph* key =
                plot_->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
            key->setPen(QPen(QColor(0x55, 0x55, 0x55), 2, walkerDash(rank)));
            key->setName(tr("%1 walks/s").arg(walkRate(rate)));
            legend->addItem(new QCPPlottableLegendItem(legend, key));
        }
    drawMarks();
    legend->setVisible(legend->itemCount() > 0);  // no empty box before the first sweep
    for (const Measured& m : measuredPoints_) {
        maxX = std::max(maxX, static_cast<double>(m.copies));
        maxY = std::max(maxY, m.execsPerSecond + m.stddev);
    }
    top->axis(QCPAxis::atBottom)->setRange(0.8, maxX * 1.25);
    speedRect_->axis(QCPAxis::atBottom)->setRange(0.8, maxX * 1.25);
    // Throughputs spanning orders of magnitude (a collapsed single tree beside uncontended
    // split locks) read better on a log scale; the title says which.
    double minY = maxY;
    for (const Curve& curve : curves_)
        for (QCPGraph* g : {curve.throughput, curve.bandLow})
            if (g)
                for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                    minY = std::min(minY, it->value);
    if (minY > 0 && maxY / minY > 50) {
        top->axis(QCPAxis::atLeft)->setScaleType(QCPAxis::stLogarithmic);
        top->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        // Compact: headroom for the legend's row over the top-left corner, and for a quoted
        // figure above the highest curve's last point (its card would hide the curve level with
        // it).
        top->axis(QCPAxis::atLeft)->setRange(minY / 1.5, maxY * (compact_ ? 8 : 1.5));
        top->axis(QCPAxis::atLeft)
            ->setLabel(compact_ ? tr("execs/s (log)") : tr("execs/s (log scale)"));
    } else {
        top->axis(QCPAxis::atLeft)->setRange(0, maxY * (compact_ ? 1.3 : 1.1));
    }

    // The proposal's claims, where they apply: the 384-CPU machine at 384 copies.
    claimsShown_ = pus == 384 && anySingle;
    if (claimsShown_)
        maxS = std::max(maxS, VendorClaims::draw(plot_, speedRect_, pxFont(font(), 11), placer_));
    speedRect_->axis(QCPAxis::atLeft)
        ->setScaleType(maxS > 20 ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (maxS > 20) {
        auto t = QSharedPointer<QCPAxisTickerLog>::create();
        speedRect_->axis(QCPAxis::atLeft)->setTicker(t);
        speedRect_->axis(QCPAxis::atLeft)->setRange(0.5, maxS * 2);
    } else {
        speedRect_->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>::create());
        speedRect_->axis(QCPAxis::atLeft)->setRange(0, maxS * 1.15);
    }
    // The overlay: over the curves, in the middle of the throughput pane, on a white card.
    overlayItem_ =
        PlotCard::note(plot_, top, {0.5, 0.5}, Qt::AlignCenter, overlay_, pxFont(font(), 16),
                       Qt::black, QColor(255, 255, 255, 235), QColor(0x99, 0x99, 0x99));
    overlayItem_->setPadding(QMargins(16, 10, 16, 10));
    overlayItem_->setVisible(!overlay_.isEmpty());
    // Points from another machine: said over the plot, where nobody can miss it.
    if (!measuredPoints_.empty() && !measuredNote_.isEmpty())
        measuredNoteItem_ =
            PlotCard::note(plot_, top, {0.01, 0.03}, Qt::AlignLeft | Qt::AlignTop, measuredNote_,
                           pxFont(font(), 13), QColor(0x8a, 0x1c, 0x1c),
                           QColor(0xff, 0xf4, 0xd6, 240), QColor(0xc0, 0x8a, 0x2c));
    plot_->replot();
}

QString ThroughputView::machineName(const topology::Topology& topo) {
    // A title's length: a file by its name, a synthetic description by its kind (the status
    // bar and the topology's hover give the whole spec).
    const std::string spec = topo.spec();
    const QString name = spec.rfind("xml:", 0) == 0
                             ? QFileInfo(QString::fromStdString(spec.substr(4))).fileName()
                         : spec.rfind("synthetic:", 0) == 0 ? tr("a synthetic machine")
                         : spec == "host"                   ? tr("this host")
                                                            : QString::fromStdString(spec);
    return tr("%1 (%2 NUMA nodes, %3 CPUs)").arg(name).arg(topo.nodeCount()).arg(topo.pus().size());
}

void ThroughputView::setCompact(bool on) {
    if (compact_ == on) return;
    compact_ = on;
    setRuns(runs_, machine_, pus_);
}

void ThroughputView::setMarks(const std::vector<Mark>& marks) {
    marks_ = marks;
    setRuns(runs_, machine_, pus_);
}

QStringList ThroughputView::markTexts() const {
    QStringList texts;
    for (const QCPItemText* t : markItems_)
        texts << t->text();
    return texts;
}

void ThroughputView::drawMarks() {
    for (const Mark& m : marks_) {
        // The walker-free curve (the lowest rate), or the one with the most walkers.
        const Curve* curve = nullptr;
        for (const Curve& c : curves_)
            if (c.policy == m.policy &&
                (!curve || (m.walkers ? c.walkersPerSecond > curve->walkersPerSecond
                                      : c.walkersPerSecond < curve->walkersPerSecond)))
                curve = &c;
        if (!curve || (m.walkers && curve->walkersPerSecond <= 0)) continue;
        // The cards give the point's 10-90% band over the parameter sets when the sweep drew
        // them, and on a walker curve the walks' mean latency there.
        const QLocale loc;
        unsigned largest = 0;
        for (const sim::SimResult& r : runs_)
            largest = std::max(largest, r.copies);
        QString execsExtra, ratioExtra;
        for (const sim::SimResult* r : curve->runs) {
            if (r->copies != m.copies) continue;
            if (const sim::Band b = sim::Band::of(r->bandRates); b.valid)
                execsExtra = QStringLiteral(" [%1-%2]")
                                 .arg(loc.toString(b.p10, 'f', 0), loc.toString(b.p90, 'f', 0));
            // (At the largest copy count the summary under the plot gives the ratio's band.)
            if (const sim::Band b = singles_.band(*r); b.valid && m.copies != largest)
                ratioExtra = QStringLiteral(" [%1-%2]")
                                 .arg(loc.toString(b.p10, 'f', 2), loc.toString(b.p90, 'f', 2));
            if (curve->walkersPerSecond > 0 && r->walks > 0)
                execsExtra +=
                    tr(", walk %1 µs").arg(loc.toString(r->walkerLatencyMeanNs / 1e3, 'f', 1));
        }
        // The figure as plotted (the seeds' mean), execs/s above its ring, the ratio below.
        auto mark = [&](QCPGraph* g, const QString& unit, int decimals, bool above) {
            if (!g) return;
            const auto it = g->data()->findBegin(m.copies, false);
            if (it == g->data()->constEnd() || it->key != m.copies) return;
            QCPItemText* card = PlotCard::figure(
                plot_, g, m.copies, QLocale().toString(it->value, 'f', decimals) + unit,
                pxFont(font(), 13, true), above, placer_);
            markItems_.push_back(card);
        };
        mark(curve->throughput, tr(" execs/s") + execsExtra, 0, true);
        if (m.policy != QLatin1String("single"))  // single over itself is 1 by definition
            mark(curve->speedup, QStringLiteral("x") + ratioExtra, 2, false);
    }
}

void ThroughputView::setOverlay(const QString& text) {
    overlay_ = text;
    if (overlayItem_) {
        overlayItem_->setText(text);
        overlayItem_->setVisible(!text.isEmpty());
        plot_->replot();
    }
}

void ThroughputView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    // Workshop mode changed the type: rebuild with the new sizes.
    if (e->type() == QEvent::FontChange) setRuns(runs_, machine_, pus_);
}

void ThroughputView::showValueAt(const QPoint& pos) {
    // The nearest data point of any graph, within 12 pixels.
    double best = 12 * 12;
    QString text;
    const QLocale loc;
    for (int i = 0; i < plot_->graphCount(); ++i) {
        QCPGraph* g = plot_->graph(i);
        if (g->layer() == plot_->layer(QStringLiteral("bands"))) continue;
        const bool speed = g->valueAxis()->axisRect() == speedRect_;
        const Curve* curve = curveOf(g);
        auto runAt = [&](double copies) -> const sim::SimResult* {
            if (curve)
                for (const sim::SimResult* r : curve->runs)
                    if (r->copies == copies) return r;
            return nullptr;
        };
        // Which curve, with its walker rate: "split-locks, 100 walks/s", and "split-locks, no
        // walkers" beside it.
        const QString name = curve && curve->walkersPerSecond == 0 && severalRates_
                                 ? tr("%1, no walkers").arg(g->name())
                                 : g->name();
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            const QPointF p = g->coordsToPixels(it->key, it->value);
            const double d =
                (p.x() - pos.x()) * (p.x() - pos.x()) + (p.y() - pos.y()) * (p.y() - pos.y());
            if (d >= best) continue;
            best = d;
            if (speed) {
                text = tr("%1, %2 copies: %3x single")
                           .arg(name)
                           .arg(it->key)
                           .arg(it->value, 0, 'f', 2);
                if (curve && curve->walkersPerSecond > 0)
                    text += tr(" at %1 walks/s").arg(walkRate(curve->walkersPerSecond));
                if (const sim::SimResult* r = runAt(it->key))
                    if (const sim::Band b = singles_.band(*r); b.valid)
                        text +=
                            tr(", band 10-90% %1-%2x").arg(b.p10, 0, 'f', 2).arg(b.p90, 0, 'f', 2);
                continue;
            }
            text = tr("%1, %2 copies: %3 execs/s")
                       .arg(name)
                       .arg(it->key)
                       .arg(loc.toString(it->value, 'f', 0));
            if (const sim::SimResult* r = runAt(it->key))
                if (const sim::Band b = sim::Band::of(r->bandRates); b.valid)
                    text += tr(", band 10-90% %1-%2")
                                .arg(loc.toString(b.p10, 'f', 0), loc.toString(b.p90, 'f', 0));
            // The walk latency of the point, where walks completed.
            if (curve && curve->walkersPerSecond > 0)
                for (const sim::SimResult* r : curve->runs)
                    if (r->copies == it->key && r->walks > 0)
                        text += tr(", walk %1 µs")
                                    .arg(loc.toString(r->walkerLatencyMeanNs / 1e3, 'f', 1));
        }
    }
    if (text.isEmpty()) {
        QToolTip::hideText();
    } else {
        QToolTip::showText(plot_->mapToGlobal(pos), text, plot_);
    }
}

bool ThroughputView::exportPng(const QString& path, int width, int height, QString& error) {
    return PlotFile::savePng(plot_, path, width, height, error);
}

bool ThroughputView::exportPdf(const QString& path, int width, int height, QString& error) {
    return PlotFile::savePdf(plot_, path, width, height, error);
}

bool ThroughputView::exportCsv(const QString& path, QString& error) {
    return PlotFile::saveText(path, sim::Sweep::toCsv(runs_), error);
}

}  // namespace immap::views
