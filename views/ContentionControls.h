#pragma once
// The contention tab's controls: the two policies to run side by side (default single against
// split-locks), the copies, the slow-down (1x real time to 1,000,000x slower, a log scale),
// Start, Play/Pause, Step and Cancel, and a status line. It only shows state and emits intent;
// app/ runs the simulation.

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace immap::views {

class ContentionControls : public QWidget {
    Q_OBJECT
public:
    explicit ContentionControls(QWidget* parent = nullptr);

    QString policyA() const;
    QString policyB() const;
    void setPolicies(const QString& a, const QString& b);
    int copies() const;
    void setCopies(int copies, int max);
    // The slow-down factor: 10^(slider / 4), so 1x to 1,000,000x in quarter decades.
    double slowdown() const;
    void setSlowdown(double factor);

    void setRunning(bool running);
    void setPaused(bool paused);
    void setStatus(const QString& text);

    QPushButton* startButton() const { return start_; }
    QPushButton* playButton() const { return play_; }
    QPushButton* stepButton() const { return step_; }
    QPushButton* cancelButton() const { return cancel_; }
    QSlider* slowdownSlider() const { return slow_; }

signals:
    void startRequested();
    void playToggled();
    void stepRequested();
    void cancelRequested();
    void slowdownChanged(double factor);
    // The user chose another policy or copy count; the app takes them into its session.
    void choiceEdited();

private:
    QComboBox* policyA_;
    QComboBox* policyB_;
    QSpinBox* copies_;
    QSlider* slow_;
    QLabel* slowLabel_;
    QPushButton* start_;
    QPushButton* play_;
    QPushButton* step_;
    QPushButton* cancel_;
    QLabel* status_;
};

}  // namespace immap::views
