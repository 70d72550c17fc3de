#include "ValidationDialog.h"

#include <QFileDialog>
#include <QMetaObject>
#include <QTableView>
#include <QVBoxLayout>

#include "PageHost.h"
#include "io/AtomicFile.h"
#include "io/OutputTarget.h"
#include "limits/UserReason.h"
#include "sim/RunCache.h"
#include "views/ScorecardModel.h"
#include "views/ScorecardPanel.h"

namespace immap::gui {

ValidationDialog::ValidationDialog(PageHost& host, QWidget* parent)
    : QDialog(parent), host_(host), panel_(new views::ScorecardPanel(this)) {
    setWindowTitle(tr("Validation: the model against published measurements"));
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(4, 4, 4, 4);
    box->addWidget(panel_);
    // Fits a 1280x720 projector with the main window's title bar above it.
    resize(1200, 620);
    panel_->setSummary(tr("Not run yet: Run (Ctrl+R) runs %1 parameter sets and %2 seeds per "
                          "observation.")
                           .arg(config_.bands)
                           .arg(config_.seeds));
    connect(panel_, &views::ScorecardPanel::runRequested, this, [this] { start(); });
    connect(panel_, &views::ScorecardPanel::cancelRequested, this, &ValidationDialog::cancel);
    connect(panel_, &views::ScorecardPanel::saveRequested, this, &ValidationDialog::askSave);
}

ValidationDialog::~ValidationDialog() {
    cancel();
    wait();
}

bool ValidationDialog::start() {
    if (running_) return false;
    wait();
    running_ = true;
    cancel_ = false;
    runningWith_ = config_;
    panel_->setRunning(true);
    const auto total =
        static_cast<int>(sim::Scorecard::runsPerSet() * (config_.seeds + config_.bands));
    panel_->setProgress(0, total);
    panel_->setSummary(tr("Running %1 simulations on %2 threads…").arg(total).arg(config_.threads));
    // Rows fill in as their runs finish; a cancelled run puts the last complete table back.
    if (panel_->model()->ran()) before_ = panel_->model()->lines();
    panel_->model()->startRun();
    sim::ScorecardConfig withCache = config_;
    withCache.cache = sim::RunCache::process();
    worker_ = std::thread([this, config = withCache] {
        std::vector<sim::ScoreLine> lines;
        QString reason;
        try {
            lines = sim::Scorecard::run(
                config,
                [this](std::size_t done, std::size_t total) {
                    QMetaObject::invokeMethod(
                        this,
                        [this, done, total] {
                            panel_->setProgress(static_cast<int>(done), static_cast<int>(total));
                        },
                        Qt::QueuedConnection);
                },
                &cancel_,
                [this](const sim::ScoreUpdate& u) {
                    QMetaObject::invokeMethod(
                        this,
                        [this, u] {
                            if (!running_) return;
                            panel_->model()->setLine(u.index, u.line);
                            panel_->setSummary(
                                tr("Running: %1").arg(QString::fromStdString(u.text())));
                        },
                        Qt::QueuedConnection);
                });
        } catch (...) {
            reason = QString::fromStdString(
                limits::UserReason::of(std::current_exception(), "running the scorecard"));
        }
        QMetaObject::invokeMethod(
            this,
            [this, lines = std::move(lines), reason] {
                running_ = false;
                if (!reason.isEmpty()) {
                    restoreBefore();
                    panel_->setRunning(false);
                    panel_->setSummary(tr("Failed: %1").arg(reason));
                    host_.showError(tr("Validation failed"), reason);
                    emit failed(reason);
                    return;
                }
                if (lines.empty()) {  // cancelled: the last complete table stays
                    restoreBefore();
                    panel_->setRunning(false);
                    panel_->setSummary(tr("Cancelled."));
                    return;
                }
                done(lines);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void ValidationDialog::restoreBefore() {
    if (before_.empty())
        panel_->model()->showObservations();
    else
        panel_->model()->setLines(before_);
}

void ValidationDialog::done(const std::vector<sim::ScoreLine>& lines) {
    before_.clear();
    ranWith_ = runningWith_;  // the table's configuration, for its summary and saves
    panel_->model()->setLines(lines);
    panel_->setRunning(false);
    panel_->setSummary(tr("%1; %2 parameter sets, %3 seeds, seed %4.")
                           .arg(QString::fromStdString(sim::Scorecard::tally(lines).text()))
                           .arg(ranWith_.bands)
                           .arg(ranWith_.seeds)
                           .arg(ranWith_.seed));
    emit finished();
}

void ValidationDialog::cancel() {
    cancel_ = true;
}

void ValidationDialog::wait() {
    if (worker_.joinable()) worker_.join();
}

void ValidationDialog::askSave() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the scorecard"),
                                                      QStringLiteral("validation.md"),
                                                      tr("Markdown (*.md);;JSON (*.json)"));
    if (!path.isEmpty() && save(path)) host_.showStatus(tr("Saved %1").arg(path), 5000);
}

bool ValidationDialog::save(const QString& path) {
    const std::vector<sim::ScoreLine>& lines = panel_->model()->lines();
    std::string why;
    if (!panel_->model()->ran()) {
        why = path.toStdString() + ": the scorecard has not been run";
    } else if (why = io::OutputTarget::check(path.toStdString(), host_.windowInputs());
               why.empty()) {
        const std::string text = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)
                                     ? sim::Scorecard::toJson(lines, ranWith_)
                                     : sim::Scorecard::toMarkdown(lines);
        if (io::AtomicFile::save(path.toStdString(), text, why)) return true;
    }
    host_.showError(tr("Cannot save the scorecard"), QString::fromStdString(why));
    return false;
}

}  // namespace immap::gui
