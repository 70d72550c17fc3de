#include "ThroughputView.h"
#include "FontScale.h"

#include <qcustomplot.h>
#include <QTemporaryDir>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

#include "io/AtomicFile.h"
#include "io/OutputTarget.h"
#include "sim/Sweep.h"

namespace immap::views {

namespace {

// The proposal's claims at 384 copies on its 12-node, 384-CPU machine (docs/kernel.md, "6. The
// proposal"): vendor claims, shown for comparison only.
struct Claim {
    const char* policy;
    double speedup;
    const char* label;
};
constexpr Claim kClaims[] = {
    {"split-trees", 1.77, "v1 claim: +77%"},
    {"split-locks", 5.0, "v2 claim: over +400%"},
};

// QCustomPlot writes by path: it renders into a private temporary directory, and the bytes are
// then saved as every file is (io::AtomicFile).
template <class Write>
bool saveAtomically(const QString& path, QString& error, Write&& write) {
    if (const std::string why = io::OutputTarget::check(path.toStdString(), {}); !why.empty()) {
        error = QString::fromStdString(why);
        return false;
    }
    QTemporaryDir tmp;
    const QString file = tmp.filePath("plot");
    if (!write(file)) {
        error = path + ": the plot could not be rendered";
        return false;
    }
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly)) {
        error = path + ": " + in.errorString();
        return false;
    }
    std::string why;
    if (!io::AtomicFile::save(path.toStdString(), in.readAll().toStdString(), why)) {
        error = QString::fromStdString(why);
        return false;
    }
    return true;
}

}  // namespace

QColor ThroughputView::policyColor(const QString& policy) {
    if (policy == "single") return QColor(0x44, 0x44, 0x44);
    if (policy == "split-trees") return QColor(0x1f, 0x77, 0xb4);
    if (policy == "split-locks") return QColor(0xd6, 0x27, 0x28);
    if (policy.startsWith("sharded")) return QColor(0x2c, 0xa0, 0x2c);
    return QColor(0x94, 0x67, 0xbd);
}

ThroughputView::ThroughputView(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setAutoAddPlottableToLegend(false);  // the legend is built by hand, one entry per policy
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this,
            [this](QMouseEvent* e) { showValueAt(e->pos()); });
    setRuns({}, QString(), 0);
}

QCPGraph* ThroughputView::throughputGraph(const QString& policy) const {
    for (const auto& [p, g] : throughput_)
        if (p == policy) return g;
    return nullptr;
}

QCPGraph* ThroughputView::speedupGraph(const QString& policy) const {
    for (const auto& [p, g] : speedup_)
        if (p == policy) return g;
    return nullptr;
}

void ThroughputView::setMeasured(const std::vector<Measured>& points, const QString& label) {
    measuredPoints_ = points;
    measuredLabel_ = label;
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

void ThroughputView::setRuns(const std::vector<sim::SimResult>& runs, const QString& machine,
                             int pus) {
    if (&runs != &runs_) runs_ = runs;
    machine_ = machine;
    pus_ = pus;
    throughput_.clear();
    speedup_.clear();
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->plotLayout()->clear();

    auto* title =
        new QCPTextElement(plot_,
                           machine.isEmpty() ? tr("Simulated exec throughput")
                                             : tr("Simulated exec throughput on %1").arg(machine),
                           QFont(font().family(), scaledPx(11), QFont::Bold));
    plot_->plotLayout()->addElement(0, 0, title);
    auto* top = new QCPAxisRect(plot_);
    topRect_ = top;
    speedRect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(1, 0, top);
    plot_->plotLayout()->addElement(2, 0, speedRect_);
    plot_->plotLayout()->setRowStretchFactor(1, 3);
    plot_->plotLayout()->setRowStretchFactor(2, 2);
    auto logTicker = QSharedPointer<QCPAxisTickerLog>::create();
    logTicker->setLogBase(2);
    for (QCPAxisRect* r : {top, speedRect_}) {
        r->axis(QCPAxis::atBottom)->setScaleType(QCPAxis::stLogarithmic);
        r->axis(QCPAxis::atBottom)->setTicker(logTicker);
        r->axis(QCPAxis::atBottom)->setLabel(tr("copies (execl -c N)"));
        r->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    }
    top->axis(QCPAxis::atLeft)->setLabel(tr("execs/s"));
    speedRect_->axis(QCPAxis::atLeft)->setLabel(tr("speedup over single"));
    auto* legend = new QCPLegend;
    top->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
    legend->setLayer("legend");
    legend->setFont(QFont(font().family(), scaledPx(9)));

    std::map<std::string, std::vector<const sim::SimResult*>> byPolicy;
    std::vector<std::string> order;
    bool anySingle = false;
    for (const sim::SimResult& r : runs_) {
        if (!byPolicy.count(r.policy)) order.push_back(r.policy);
        byPolicy[r.policy].push_back(&r);
        anySingle = anySingle || r.policy == "single";
    }
    double maxX = 1, maxY = 1, maxS = 1;
    for (const std::string& name : order) {
        auto& list = byPolicy[name];
        std::sort(list.begin(), list.end(), [](auto* a, auto* b) { return a->copies < b->copies; });
        const QString policy = QString::fromStdString(name);
        const QColor c = policyColor(policy);
        QCPGraph* g = plot_->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
        QCPGraph* s =
            plot_->addGraph(speedRect_->axis(QCPAxis::atBottom), speedRect_->axis(QCPAxis::atLeft));
        for (QCPGraph* x : {g, s}) {
            x->setName(policy);
            x->setPen(QPen(c, 2));
            x->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c, Qt::white, 6));
        }
        legend->addItem(new QCPPlottableLegendItem(legend, g));
        // The seeds' range around each point's mean, when the sweep ran several.
        QCPErrorBars* spread = nullptr;
        for (const sim::SimResult* r : list)
            if (r->seedRates.size() > 1 && !spread) {
                spread = new QCPErrorBars(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
                spread->setDataPlottable(g);
                spread->setPen(QPen(c, 1.2));
                spread->removeFromLegend();
            }
        for (const sim::SimResult* r : list) {
            g->addData(r->copies, r->execsPerSecond);
            if (spread) {
                const auto [lo, hi] = std::minmax_element(r->seedRates.begin(), r->seedRates.end());
                spread->addData(r->seedRates.empty() ? 0 : r->execsPerSecond - *lo,
                                r->seedRates.empty() ? 0 : *hi - r->execsPerSecond);
            }
            maxX = std::max(maxX, static_cast<double>(r->copies));
            maxY = std::max(maxY, r->execsPerSecond);
            const double speedup = sim::Sweep::speedupOverSingle(runs_, *r);
            if (speedup > 0) {
                s->addData(r->copies, speedup);
                maxS = std::max(maxS, speedup);
            }
        }
        throughput_.push_back({policy, g});
        speedup_.push_back({policy, s});
    }
    drawMeasured(legend);
    for (const Measured& m : measuredPoints_) {
        maxX = std::max(maxX, static_cast<double>(m.copies));
        maxY = std::max(maxY, m.execsPerSecond + m.stddev);
    }
    top->axis(QCPAxis::atBottom)->setRange(0.8, maxX * 1.25);
    speedRect_->axis(QCPAxis::atBottom)->setRange(0.8, maxX * 1.25);
    // Throughputs spanning orders of magnitude (a collapsed single tree beside uncontended
    // split locks) read better on a log scale; the title says which.
    double minY = maxY;
    for (const auto& [p, g] : throughput_)
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            minY = std::min(minY, it->value);
    if (minY > 0 && maxY / minY > 50) {
        top->axis(QCPAxis::atLeft)->setScaleType(QCPAxis::stLogarithmic);
        top->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        top->axis(QCPAxis::atLeft)->setRange(minY / 1.5, maxY * 1.5);
        top->axis(QCPAxis::atLeft)->setLabel(tr("execs/s (log scale)"));
    } else {
        top->axis(QCPAxis::atLeft)->setRange(0, maxY * 1.1);
    }

    // The proposal's claims, where they apply: the 384-CPU machine at 384 copies.
    claimsShown_ = pus == 384 && anySingle;
    if (claimsShown_) {
        for (const Claim& claim : kClaims) {
            maxS = std::max(maxS, claim.speedup);
            auto* mark = new QCPItemTracer(plot_);
            mark->setClipAxisRect(speedRect_);
            mark->position->setAxes(speedRect_->axis(QCPAxis::atBottom),
                                    speedRect_->axis(QCPAxis::atLeft));
            mark->position->setCoords(384, claim.speedup);
            mark->setStyle(QCPItemTracer::tsSquare);
            mark->setSize(9);
            mark->setPen(QPen(policyColor(claim.policy), 2));
            mark->setBrush(Qt::NoBrush);
            auto* text = new QCPItemText(plot_);
            text->setClipAxisRect(speedRect_);
            text->position->setAxes(speedRect_->axis(QCPAxis::atBottom),
                                    speedRect_->axis(QCPAxis::atLeft));
            text->position->setCoords(384, claim.speedup);
            text->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
            text->setPadding(QMargins(0, 0, 12, 0));
            text->setText(QString::fromUtf8(claim.label) + tr(" (vendor claim)"));
            text->setColor(policyColor(claim.policy));
            text->setFont(QFont(font().family(), scaledPx(8)));
        }
    }
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
    plot_->replot();
}

void ThroughputView::showValueAt(const QPoint& pos) {
    // The nearest data point of any graph, within 12 pixels.
    double best = 12 * 12;
    QString text;
    for (int i = 0; i < plot_->graphCount(); ++i) {
        QCPGraph* g = plot_->graph(i);
        const bool speed = g->valueAxis()->axisRect() == speedRect_;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            const QPointF p = g->coordsToPixels(it->key, it->value);
            const double d =
                (p.x() - pos.x()) * (p.x() - pos.x()) + (p.y() - pos.y()) * (p.y() - pos.y());
            if (d < best) {
                best = d;
                text = speed ? tr("%1, %2 copies: %3x single")
                                   .arg(g->name())
                                   .arg(it->key)
                                   .arg(it->value, 0, 'f', 2)
                             : tr("%1, %2 copies: %3 execs/s")
                                   .arg(g->name())
                                   .arg(it->key)
                                   .arg(QLocale().toString(it->value, 'f', 0));
            }
        }
    }
    if (text.isEmpty()) {
        QToolTip::hideText();
    } else {
        QToolTip::showText(plot_->mapToGlobal(pos), text, plot_);
    }
}

bool ThroughputView::exportPng(const QString& path, int width, int height, QString& error) {
    return saveAtomically(path, error,
                          [&](const QString& f) { return plot_->savePng(f, width, height); });
}

bool ThroughputView::exportPdf(const QString& path, int width, int height, QString& error) {
    return saveAtomically(path, error,
                          [&](const QString& f) { return plot_->savePdf(f, width, height); });
}

bool ThroughputView::exportCsv(const QString& path, QString& error) {
    if (const std::string why = io::OutputTarget::check(path.toStdString(), {}); !why.empty()) {
        error = QString::fromStdString(why);
        return false;
    }
    std::string why;
    if (!io::AtomicFile::save(path.toStdString(), sim::Sweep::toCsv(runs_), why)) {
        error = QString::fromStdString(why);
        return false;
    }
    return true;
}

}  // namespace immap::views
