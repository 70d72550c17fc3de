// MainWindow's throughput and topology tabs (ThroughputPage, TopologyView) and the Parameters
// dock, whose cost model every sweep, recording and live run uses (through the session).
#include <QDockWidget>
#include <QSettings>

#include "MainWindow.h"

namespace immap::gui {

void MainWindow::buildThroughputTab() {
    topology_ = new views::TopologyView(tabs_);
    throughputPage_ = new ThroughputPage(session_, *this, topology_, tabs_);
    tabs_->addTab(throughputPage_, tr("Throughput"));
    tabs_->addTab(topology_, tr("Topology"));

    // The cost model's parameters; kept in the settings.
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
}

void MainWindow::showSettings() {
    params_->setParams(session_.settings().params);
    throughputPage_->showGrid();
    contentionPage_->showChoice();
}

bool MainWindow::openMeasurements(const QString& path) {
    if (!throughputPage_->openMeasurements(path)) return false;
    setView(QStringLiteral("throughput"));
    return true;
}

}  // namespace immap::gui
