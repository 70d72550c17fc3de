#pragma once
// The throughput tab's controls: which policies and copy counts to sweep, how long to
// simulate each, the whole-file walker rate and whether each policy is also swept without
// walkers (side by side), how many parameter sets draw each point's band, Run and Cancel, and
// a progress bar. It only shows state and emits intent; app/ runs the sweep.

#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
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
    void setWalkersPerSecond(double perSecond);
    void setSideBySide(bool on);
    void setBands(int sets);  // parameter sets per point (SimSettings::bands)
    QString policies() const;
    QString copies() const;
    int durationMs() const;
    double walkersPerSecond() const;
    bool sideBySide() const;
    int bands() const;
    QSpinBox* bandsField() const { return bands_; }
    QDoubleSpinBox* walkersField() const { return walkers_; }
    QCheckBox* sideBySideBox() const { return sideBySide_; }

    void setRunning(bool running);
    void setProgress(int done, int total);
    void setMessage(const QString& text);
    QString message() const;
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QProgressBar* progress() const { return progress_; }

signals:
    void runRequested();
    void cancelRequested();
    // The user changed the grid, the duration or the walkers (a field left, a spin box
    // stepped, the box ticked); the app takes the values into its session.
    void gridEdited();

private:
    QLineEdit* policies_;
    QLineEdit* copies_;
    QSpinBox* duration_;
    QDoubleSpinBox* walkers_;
    QCheckBox* sideBySide_;
    QSpinBox* bands_;
    double walkersGiven_ = 0;  // the last rate set, exact
    double walkersShown_ = 0;  // as the field showed it
    QPushButton* run_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* message_;
};

}  // namespace immap::views
