#pragma once
// Help > Validation: the scorecard (immap validate) in a window beside the main one. It shows
// the observations at once and runs them off the GUI thread with progress and Cancel, each row
// filled in as soon as its runs have finished; Save
// writes the table as Markdown or JSON, atomically. Wiring only: core/sim runs the scorecard,
// views/ScorecardPanel shows it.

#include <QDialog>
#include <atomic>
#include <thread>
#include <vector>

#include "sim/Scorecard.h"

namespace immap::views {
class ScorecardPanel;
}

namespace immap::gui {

class PageHost;

class ValidationDialog : public QDialog {
    Q_OBJECT
public:
    ValidationDialog(PageHost& host, QWidget* parent = nullptr);
    ~ValidationDialog() override;

    // The configuration Run uses (the window's parameters and thread count).
    void setConfig(const sim::ScorecardConfig& config) { config_ = config; }
    const sim::ScorecardConfig& config() const { return config_; }
    // Starts a run; false if one is running.
    bool start();
    void cancel();
    bool running() const { return running_; }
    void wait();  // until the run (if any) is over; for tests
    // The last run's table: .json as immap validate --json writes it, anything else Markdown.
    // False with the reason shown (PageHost::showError).
    bool save(const QString& path);

    views::ScorecardPanel* panel() const { return panel_; }

signals:
    void finished();
    void failed(const QString& reason);

private:
    void done(const std::vector<sim::ScoreLine>& lines);
    void askSave();
    // The table before a run that did not finish: the last complete one, or none.
    void restoreBefore();

    PageHost& host_;
    views::ScorecardPanel* panel_;
    sim::ScorecardConfig config_;
    sim::ScorecardConfig ranWith_;        // the shown table's
    sim::ScorecardConfig runningWith_;    // the run in progress'
    std::vector<sim::ScoreLine> before_;  // the last complete table while a run fills rows in
    std::thread worker_;
    std::atomic<bool> cancel_{false};
    bool running_ = false;
};

}  // namespace immap::gui
