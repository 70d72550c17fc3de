#include "AnimationController.h"

namespace immap::gui {

AnimationController::AnimationController(QObject* parent) : QObject(parent) {
    connect(&timer_, &QTimer::timeout, this, &AnimationController::tick);
}

int AnimationController::interval() const {
    return static_cast<int>((player_ ? player_->stepMillis() : 700) / speed_);
}

void AnimationController::start(std::unique_ptr<session::Playback> player, bool autoplay) {
    pause();
    player_ = std::move(player);
    emit changed(false);
    if (autoplay && player_ && player_->count() > 0) togglePlay();
}

void AnimationController::drop() {
    pause();
    player_.reset();
    emit changed(false);
}

void AnimationController::togglePlay() {
    if (!player_) return;
    if (timer_.isActive()) {
        pause();
        return;
    }
    if (player_->atEnd()) {
        player_->seek(0);
        emit changed(false);
    }
    timer_.start(interval());
    emit playingChanged(true);
}

void AnimationController::pause() {
    if (!timer_.isActive()) return;
    timer_.stop();
    emit playingChanged(false);
}

void AnimationController::tick() {
    if (!player_ || !player_->forward()) {
        pause();
        return;
    }
    emit changed(true);
    if (player_->atEnd()) pause();
}

void AnimationController::forward() {
    pause();
    if (player_ && player_->forward()) emit changed(true);
}

void AnimationController::back() {
    pause();
    if (player_ && player_->backward()) emit changed(true);
}

void AnimationController::toStart() {
    seek(0);
}

void AnimationController::toEnd() {
    if (player_) seek(static_cast<int>(player_->count()));
}

void AnimationController::seek(int position) {
    pause();
    if (!player_) return;
    player_->seek(static_cast<std::size_t>(std::max(0, position)));
    emit changed(false);
}

void AnimationController::setSpeed(double speed) {
    speed_ = speed;
    if (timer_.isActive()) timer_.setInterval(interval());
}

}  // namespace immap::gui
