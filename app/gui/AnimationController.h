#pragma once
// Drives a session::Playback (a recorded update or an rmap walk) in time: play/pause on a timer at
// a speed preset, single steps, seeks. Says when the shown state changed; MainWindow redraws the
// views from the player.

#include <QObject>
#include <QTimer>
#include <memory>

#include "session/Playback.h"

namespace immap::gui {

class AnimationController : public QObject {
    Q_OBJECT
public:
    explicit AnimationController(QObject* parent = nullptr);

    // Replaces the current player (which is dropped: its trees are already final).
    void start(std::unique_ptr<session::Playback> player, bool autoplay);
    void drop();
    session::Playback* player() const { return player_.get(); }
    bool playing() const { return timer_.isActive(); }
    double speed() const { return speed_; }
    // Milliseconds per step at the current speed.
    int interval() const;

public slots:
    void togglePlay();
    void pause();
    void forward();
    void back();
    void toStart();
    void toEnd();
    void seek(int position);
    void setSpeed(double speed);

signals:
    // motion: the change is one step forward or back, worth animating.
    void changed(bool motion);
    void playingChanged(bool playing);

private:
    void tick();

    std::unique_ptr<session::Playback> player_;
    QTimer timer_;
    double speed_ = 1;
};

}  // namespace immap::gui
