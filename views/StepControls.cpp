#include "StepControls.h"

#include <QHBoxLayout>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace immap::views {

const QList<double>& StepControls::speeds() {
    // Up to 64x for rmap walks of thousands of nodes (a walk's step is 120 ms at 1x).
    static const QList<double> kSpeeds{0.25, 0.5, 1, 2, 4, 16, 64};
    return kSpeeds;
}

QToolButton* StepControls::button(QStyle::StandardPixmap icon, const QString& tip) {
    auto* b = new QToolButton(this);
    b->setIcon(style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    b->setMinimumWidth(34);
    return b;
}

StepControls::StepControls(QWidget* parent) : QWidget(parent) {
    start_ = button(QStyle::SP_MediaSkipBackward, tr("To the start (Home)"));
    back_ = button(QStyle::SP_MediaSeekBackward, tr("Step back (Left)"));
    play_ = button(QStyle::SP_MediaPlay, tr("Play / pause (Space)"));
    forward_ = button(QStyle::SP_MediaSeekForward, tr("Step forward (Right)"));
    end_ = button(QStyle::SP_MediaSkipForward, tr("To the end (End)"));
    speed_ = new QComboBox(this);
    for (double s : speeds())
        speed_->addItem(QStringLiteral("%1x").arg(s));
    speed_->setCurrentIndex(2);
    speed_->setToolTip(tr("Speed (- slower, + faster)"));
    stride_ = new QComboBox(this);
    stride_->addItems({tr("by node"), tr("by prune or find"), tr("by tree")});
    stride_->setToolTip(
        tr("How far a step of the rmap walk goes: one node; to the next subtree skipped by "
           "subtree_last or VMA found; one whole tree (G cycles)"));
    stride_->hide();
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setMinimumWidth(160);
    position_ = new QLabel(this);
    position_->setMinimumWidth(90);
    caption_ = new QLabel(this);
    caption_->setWordWrap(true);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    caption_->setStyleSheet(QStringLiteral("font-size: 13px; color: #202020;"));
    caption_->setMinimumHeight(34);

    auto* insert = new QPushButton(tr("Insert VMA…"), this);
    insert->setToolTip(tr("Insert a VMA and watch it (Ins)"));
    auto* remove = new QPushButton(tr("Remove selected"), this);
    remove->setToolTip(tr("Remove the selected VMA and watch it (Del)"));
    auto* exec = new QPushButton(tr("exec"), this);
    exec->setToolTip(tr("A new process maps the five-VMA libc layout"));
    auto* exit = new QPushButton(tr("exit"), this);
    exit->setToolTip(tr("The selected VMA's process unmaps every VMA it has of this file"));

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w :
         {static_cast<QWidget*>(start_), static_cast<QWidget*>(back_), static_cast<QWidget*>(play_),
          static_cast<QWidget*>(forward_), static_cast<QWidget*>(end_)})
        row->addWidget(w);
    row->addWidget(speed_);
    row->addWidget(stride_);
    row->addWidget(slider_, 1);
    row->addWidget(position_);
    row->addSpacing(12);
    row->addWidget(insert);
    row->addWidget(remove);
    row->addWidget(exec);
    row->addWidget(exit);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(6, 4, 6, 4);
    box->addLayout(row);
    box->addWidget(caption_);

    connect(start_, &QToolButton::clicked, this, &StepControls::toStart);
    connect(back_, &QToolButton::clicked, this, &StepControls::stepBack);
    connect(play_, &QToolButton::clicked, this, &StepControls::playToggled);
    connect(forward_, &QToolButton::clicked, this, &StepControls::stepForward);
    connect(end_, &QToolButton::clicked, this, &StepControls::toEnd);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (!quiet_) emit seek(v);
    });
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this](int i) { emit speedChanged(speeds()[i]); });
    connect(stride_, &QComboBox::currentIndexChanged, this, &StepControls::strideChanged);
    connect(insert, &QPushButton::clicked, this, &StepControls::insertRequested);
    connect(remove, &QPushButton::clicked, this, &StepControls::removeSelectedRequested);
    connect(exec, &QPushButton::clicked, this, &StepControls::execRequested);
    connect(exit, &QPushButton::clicked, this, &StepControls::exitRequested);
    setPosition(0, 0);
}

void StepControls::setSpeedIndex(int i) {
    speed_->setCurrentIndex(std::clamp(i, 0, static_cast<int>(speeds().size()) - 1));
}

void StepControls::setStrideShown(bool shown) {
    stride_->setVisible(shown);
}

void StepControls::setPosition(int position, int count) {
    quiet_ = true;
    slider_->setRange(0, count);
    slider_->setValue(position);
    quiet_ = false;
    const bool any = count > 0;
    if (any != steps_) {
        steps_ = any;
        showCaption();
    }
    for (QWidget* w : {static_cast<QWidget*>(start_), static_cast<QWidget*>(back_),
                       static_cast<QWidget*>(play_), static_cast<QWidget*>(forward_),
                       static_cast<QWidget*>(end_), static_cast<QWidget*>(slider_)})
        w->setEnabled(any);
    position_->setText(any ? tr("step %1 / %2").arg(position).arg(count) : tr("no steps"));
}

void StepControls::setPlaying(bool playing) {
    play_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    playing_ = playing;
    showCaption();
}

void StepControls::setCaption(const QString& text) {
    text_ = text;
    showCaption();
}

void StepControls::showCaption() {
    if (!steps_) {
        caption_->setText(text_);
        return;
    }
    const QString hint = playing_ ? tr("Space pauses") : tr("Space plays");
    caption_->setText(text_.isEmpty() ? hint : text_ + QStringLiteral("  ·  ") + hint);
}

}  // namespace immap::views
