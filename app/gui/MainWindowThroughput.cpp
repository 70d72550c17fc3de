// MainWindow's throughput tab: the sweep controls and the throughput plot, wired to a
// SweepController that runs core/sim's Sweep in the background.
#include <QDockWidget>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>

#include "MainWindow.h"

#include "ErrorText.h"
#include "io/InputError.h"
#include "measure/MeasuredCurve.h"

namespace immap::gui {

void MainWindow::buildThroughputTab() {
    throughputPage_ = new QWidget(tabs_);
    sweepControls_ = new views::SweepControls(throughputPage_);
    throughput_ = new views::ThroughputView(throughputPage_);
    auto* box = new QVBoxLayout(throughputPage_);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(sweepControls_);
    box->addWidget(throughput_, 1);
    tabs_->addTab(throughputPage_, tr("Throughput"));
    topology_ = new views::TopologyView(tabs_);
    tabs_->addTab(topology_, tr("Topology"));
    sweeps_ = new SweepController(this);

    // The cost model's parameters, used by every sweep and recording; kept in the settings.
    params_ = new views::ParamsPanel(this);
    auto* dock = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName(QStringLiteral("paramsDock"));
    dock->setWidget(params_);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    tabifyDockWidget(filesDock_, dock);
    vmaDock_->raise();
    if (persist_) {
        QSettings settings;
        sim::CostParams p;
        std::string ignored;
        for (const auto& info : sim::CostParams::table()) {
            const QVariant v = settings.value(QStringLiteral("params/") + QLatin1String(info.name));
            if (v.isValid()) p.set(info.name, v.toDouble(), ignored);
        }
        session_.settings().params = p;
        params_->setParams(p);
    }
    connect(params_, &views::ParamsPanel::paramsChanged, this, [this](const sim::CostParams& p) {
        session_.settings().params = p;
        if (!persist_) return;
        QSettings settings;
        for (const auto& info : sim::CostParams::table())
            settings.setValue(QStringLiteral("params/") + QLatin1String(info.name),
                              p.*(info.field));
    });

    connect(sweepControls_, &views::SweepControls::runRequested, this, [this] { startSweep(); });
    connect(sweepControls_, &views::SweepControls::gridEdited, this, [this] { takeSweepGrid(); });
    connect(sweepControls_, &views::SweepControls::cancelRequested, sweeps_,
            &SweepController::cancel);
    connect(sweeps_, &SweepController::progress, sweepControls_,
            &views::SweepControls::setProgress);
    connect(sweeps_, &SweepController::finished, this,
            [this](const std::vector<sim::SimResult>& runs) {
                session_.setSweepResults(runs);
                const auto& topo = *session_.host().topology;
                throughput_->setRuns(runs, QString::fromStdString(topo.spec()),
                                     static_cast<int>(topo.pus().size()));
                sweepControls_->setRunning(false);
                sweepControls_->setMessage(tr("%1 runs").arg(runs.size()));
                showSweepHeat(runs);
                statusBar()->showMessage(tr("Sweep done: %1 runs.").arg(runs.size()), 5000);
            });
    connect(sweeps_, &SweepController::cancelled, this, [this] {
        sweepControls_->setRunning(false);
        sweepControls_->setMessage(tr("cancelled"));
    });
    connect(sweeps_, &SweepController::failed, this, [this](const QString& reason) {
        sweepControls_->setRunning(false);
        sweepControls_->setMessage(tr("failed"));
        showError(tr("Sweep failed"), reason);
    });
}

// The topology view's heat: each CPU's share of time waiting for i_mmap locks in the biggest
// run of the first policy swept.
void MainWindow::showSweepHeat(const std::vector<sim::SimResult>& runs) {
    const sim::SimResult* big = nullptr;
    for (const sim::SimResult& r : runs)
        if (r.policy == runs.front().policy && (!big || r.copies > big->copies)) big = &r;
    if (!big) return;
    std::vector<std::pair<unsigned, double>> heat;
    for (const sim::CpuResult& c : big->cpus)
        heat.push_back({c.cpu, c.waitShare()});
    topology_->setHeat(
        heat,
        tr("lock wait, %1 at %2 copies").arg(QString::fromStdString(big->policy)).arg(big->copies));
}

bool MainWindow::openMeasurements(const QString& path) {
    try {
        const measure::MeasuredCurve curve = measure::MeasuredCurve::fromFile(path.toStdString());
        std::vector<views::ThroughputView::Measured> points;
        for (const measure::MeasuredPoint& p : curve.points)
            points.push_back({p.copies, p.execsPerSecond, p.stddev});
        throughput_->setMeasured(points, tr("measured on %1 (%2 runs each, load %3)")
                                             .arg(QString::fromStdString(curve.host))
                                             .arg(curve.repeat)
                                             .arg(curve.loadAverage, 0, 'f', 1));
    } catch (const io::InputError& e) {
        showError(tr("Cannot open the measurements"), ErrorText::of(e));
        return false;
    } catch (const std::exception& e) {
        showError(tr("Cannot open the measurements"), QString::fromUtf8(e.what()));
        return false;
    }
    setView(QStringLiteral("throughput"));
    return true;
}

QString MainWindow::takeSweepGrid() {
    session::SimSettings& s = session_.settings();
    std::vector<mapping::Policy> policies;
    std::vector<unsigned> copies;
    std::string why;
    if (!sim::Sweep::parsePolicies(sweepControls_->policies().toStdString(), policies, why) ||
        !sim::Sweep::parseCopies(sweepControls_->copies().toStdString(), copies, why)) {
        sweepControls_->setMessage(QString::fromStdString(why));
        return QString::fromStdString(why);
    }
    s.policies = std::move(policies);
    // The machine's own default counts stay "the default", so they follow the next topology.
    const bool defaults =
        session_.loaded() && copies == sim::Sweep::defaultCopies(static_cast<unsigned>(
                                           session_.host().topology->pus().size()));
    s.copies = defaults ? std::vector<unsigned>{} : std::move(copies);
    s.durationMs = sweepControls_->durationMs();
    return {};
}

void MainWindow::showSettings() {
    const session::SimSettings& s = session_.settings();
    params_->setParams(s.params);
    sweepControls_->setPolicies(QString::fromStdString(s.policiesText()));
    if (session_.loaded()) {
        QStringList copies;
        for (unsigned n : s.copiesOn(*session_.host().topology))
            copies << QString::number(n);
        sweepControls_->setCopies(copies.join(QLatin1Char(',')));
    }
    sweepControls_->setDurationMs(static_cast<int>(s.durationMs));
    contentionPage_->showChoice();
}

bool MainWindow::startSweep() {
    if (!session_.loaded() || sweeps_->running()) return false;
    if (const QString why = takeSweepGrid(); !why.isEmpty()) {
        showError(tr("Cannot run the sweep"), why);
        return false;
    }
    const session::SimSettings& s = session_.settings();
    const auto& topo = *session_.host().topology;
    sweepControls_->setRunning(true);
    sweepControls_->setProgress(0, static_cast<int>(s.policies.size() * s.copiesOn(topo).size()));
    sweepControls_->setMessage(tr("running on %1").arg(QString::fromStdString(topo.spec())));
    return sweeps_->start(topo, s);
}

}  // namespace immap::gui
