#include "ReplayControls.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>

namespace immap::views {

ReplayControls::ReplayControls(QWidget* parent) : QWidget(parent) {
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(6, 4, 6, 4);
    auto* row = new QHBoxLayout;
    files_ = new QComboBox(this);
    trees_ = new QComboBox(this);
    auto button = [this](QStyle::StandardPixmap icon, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        return b;
    };
    back_ = button(QStyle::SP_MediaSeekBackward, tr("Previous event"));
    play_ = button(QStyle::SP_MediaPlay, tr("Play / pause"));
    forward_ = button(QStyle::SP_MediaSeekForward, tr("Next event"));
    speed_ = new QComboBox(this);
    speed_->setObjectName(QStringLiteral("speed"));
    speed_->addItems(
        {tr("1 event / frame"), tr("0.25% / s"), tr("1% / s"), tr("4% / s"), tr("16% / s")});
    speed_->setCurrentIndex(kDefaultSpeed);
    speed_->setToolTip(tr("Play speed: one event per frame, or a share of the trace per second"));
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setToolTip(tr("Scrub through the trace: every position is an event"));
    position_ = new QLabel(this);
    row->addWidget(new QLabel(tr("File"), this));
    row->addWidget(files_, 1);
    row->addWidget(new QLabel(tr("Tree"), this));
    row->addWidget(trees_);
    row->addWidget(back_);
    row->addWidget(play_);
    row->addWidget(forward_);
    row->addWidget(speed_);
    row->addWidget(slider_, 4);
    row->addWidget(position_);
    box->addLayout(row);
    auto* row2 = new QHBoxLayout;
    event_ = new QLabel(this);
    event_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    marks_ = new QListWidget(this);
    marks_->setMaximumHeight(70);
    marks_->setToolTip(tr("Bookmarks: click one to go there"));
    addMark_ = new QPushButton(tr("Bookmark…"), this);
    addMark_->setShortcut(QKeySequence(tr("Ctrl+B")));
    removeMark_ = new QPushButton(tr("Remove"), this);
    auto* markButtons = new QVBoxLayout;
    markButtons->addWidget(addMark_);
    markButtons->addWidget(removeMark_);
    row2->addWidget(event_, 2);
    row2->addWidget(marks_, 2);
    row2->addLayout(markButtons);
    box->addLayout(row2);

    connect(files_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        if (!quiet_) emit fileChosen(i);
    });
    connect(trees_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        if (!quiet_) emit treeChosen(i);
    });
    connect(back_, &QToolButton::clicked, this, &ReplayControls::stepBack);
    connect(play_, &QToolButton::clicked, this, &ReplayControls::playToggled);
    connect(forward_, &QToolButton::clicked, this, &ReplayControls::stepForward);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (!quiet_) emit seek(v);
    });
    connect(addMark_, &QPushButton::clicked, this, &ReplayControls::bookmarkRequested);
    connect(removeMark_, &QPushButton::clicked, this, [this] {
        if (marks_->currentRow() >= 0) emit bookmarkRemoveRequested(marks_->currentRow());
    });
    // A click goes there (a slide's bookmark in one click); Enter on a selected one too.
    connect(marks_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { emit bookmarkChosen(marks_->row(item)); });
    connect(marks_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit bookmarkChosen(marks_->row(item)); });
    setPosition(0, 0);
}

std::uint64_t ReplayControls::stepPerFrame(int index, std::uint64_t events) {
    static constexpr double kPercentPerSecond[] = {0, 0.25, 1, 4, 16};
    if (index <= 0 || index >= static_cast<int>(std::size(kPercentPerSecond))) return 1;
    const double perFrame = kPercentPerSecond[index] / 100.0 * kFrameMs / 1000.0;
    return std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(static_cast<double>(events) * perFrame));
}

void ReplayControls::setChoices(const QStringList& files, const QStringList& trees) {
    quiet_ = true;
    files_->clear();
    files_->addItems(files);
    trees_->clear();
    trees_->addItems(trees);
    quiet_ = false;
}

void ReplayControls::setPosition(qint64 position, qint64 count) {
    quiet_ = true;
    slider_->setRange(0, static_cast<int>(std::min<qint64>(count, INT32_MAX)));
    slider_->setValue(static_cast<int>(std::min<qint64>(position, INT32_MAX)));
    quiet_ = false;
    position_->setText(tr("%L1 / %L2 events").arg(position).arg(count));
    for (QWidget* w : std::initializer_list<QWidget*>{back_, play_, forward_, slider_, addMark_})
        w->setEnabled(count > 0);
}

void ReplayControls::setEventText(const QString& text) {
    event_->setText(text);
}

QString ReplayControls::eventText() const {
    return event_->text();
}

void ReplayControls::setPlaying(bool playing) {
    play_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void ReplayControls::setBookmarks(const QStringList& items) {
    marks_->clear();
    marks_->addItems(items);
}

}  // namespace immap::views
