#pragma once
// The animation's transport bar: start, back, play/pause, forward, end, speed, a step slider,
// the caption naming the kernel step, and the buttons that start an update (insert, remove,
// exec, exit). It only shows state and emits intent; app/ drives the player.

#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QWidget>

namespace immap::views {

class StepControls : public QWidget {
    Q_OBJECT
public:
    explicit StepControls(QWidget* parent = nullptr);

    static const QList<double>& speeds();  // 0.25x .. 64x
    void setSpeedIndex(int i);
    int speedIndex() const { return speed_->currentIndex(); }
    double speed() const { return speeds()[speed_->currentIndex()]; }
    // count 0 disables the transport.
    void setPosition(int position, int count);
    void setPlaying(bool playing);
    void setCaption(const QString& text);
    // The step's caption and, when there are steps, what Space does now ("Space pauses" while
    // playing, "Space plays" while paused).
    QString caption() const { return caption_->text(); }
    QSlider* slider() const { return slider_; }
    // The walk's stride chooser (0 by node, 1 to the next prune or find, 2 by tree), shown
    // only while the player is an rmap walk.
    void setStrideShown(bool shown);
    int strideIndex() const { return stride_->currentIndex(); }
    void setStrideIndex(int i) { stride_->setCurrentIndex(i); }
    QComboBox* strideBox() const { return stride_; }

signals:
    void playToggled();
    void stepBack();
    void stepForward();
    void toStart();
    void toEnd();
    void seek(int position);
    void speedChanged(double speed);
    void strideChanged(int stride);
    void insertRequested();
    void removeSelectedRequested();
    void execRequested();
    void exitRequested();

private:
    QToolButton* button(QStyle::StandardPixmap icon, const QString& tip);
    void showCaption();

    QToolButton *start_, *back_, *play_, *forward_, *end_;
    QComboBox* speed_;
    QComboBox* stride_;
    QSlider* slider_;
    QLabel* position_;
    QLabel* caption_;

    QString text_;
    bool playing_ = false;
    bool steps_ = false;
    bool quiet_ = false;
};

}  // namespace immap::views
