#pragma once
// The scorecard on screen: what it is, the table (ScorecardModel), the selected observation's
// shape, assumptions and source, Run / Cancel / Save and a progress bar. It shows state and
// emits intent; app/ runs the scorecard and saves it.

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;

namespace immap::views {

class ScorecardModel;

class ScorecardPanel : public QWidget {
    Q_OBJECT
public:
    explicit ScorecardPanel(QWidget* parent = nullptr);

    ScorecardModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* saveButton() const { return save_; }
    QProgressBar* progress() const { return progress_; }
    QLabel* summary() const { return summary_; }
    QLabel* detail() const { return detail_; }

    void setRunning(bool running);
    void setProgress(int done, int total);
    // The line over the table: how the scorecard was run and its count of hits.
    void setSummary(const QString& text);

signals:
    void runRequested();
    void cancelRequested();
    void saveRequested();

private:
    void showDetail();

    ScorecardModel* model_;
    QTableView* table_;
    QLabel* summary_;
    QLabel* detail_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* save_;
    QProgressBar* progress_;
};

}  // namespace immap::views
