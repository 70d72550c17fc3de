#pragma once
// The throughput tab's controls: which policies and copy counts to sweep, how long to
// simulate each, Run and Cancel, and a progress bar. It only shows state and emits intent;
// app/ runs the sweep.

#include <QWidget>

class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QLabel;

namespace immap::views {

class SweepControls : public QWidget {
    Q_OBJECT
public:
    explicit SweepControls(QWidget* parent = nullptr);

    void setPolicies(const QString& list);
    void setCopies(const QString& list);
    void setDurationMs(int ms);
    QString policies() const;
    QString copies() const;
    int durationMs() const;

    void setRunning(bool running);
    void setProgress(int done, int total);
    void setMessage(const QString& text);
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QProgressBar* progress() const { return progress_; }

signals:
    void runRequested();
    void cancelRequested();
    // The user changed the grid or the duration (a field left, or the spin box stepped); the
    // app takes the values into its session.
    void gridEdited();

private:
    QLineEdit* policies_;
    QLineEdit* copies_;
    QSpinBox* duration_;
    QPushButton* run_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* message_;
};

}  // namespace immap::views
