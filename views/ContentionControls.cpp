#include "ContentionControls.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>
#include <cmath>

namespace immap::views {

namespace {
QComboBox* policyBox(QWidget* parent, const QString& current) {
    auto* c = new QComboBox(parent);
    c->setEditable(true);  // sharded:K takes any K
    c->addItems({"single", "split-trees", "split-locks", "sharded:32", "sharded:64", "no-rmap",
                 "btree", "btree+split-locks"});
    c->setCurrentText(current);
    return c;
}
}  // namespace

ContentionControls::ContentionControls(QWidget* parent) : QWidget(parent) {
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(6, 4, 6, 4);
    rows->setSpacing(2);
    policyA_ = policyBox(this, QStringLiteral("single"));
    policyB_ = policyBox(this, QStringLiteral("split-locks"));
    policyA_->setToolTip(tr("Policy on the left"));
    policyB_->setToolTip(tr("Policy on the right (same seed, recipe, copies and parameters)"));
    copies_ = new QSpinBox(this);
    copies_->setRange(1, 100000);
    copies_->setValue(384);
    copies_->setToolTip(tr("execl copies (-c N), placed as the kernel spreads them"));
    slow_ = new QSlider(Qt::Horizontal, this);
    slow_->setRange(0, 24);
    slow_->setValue(12);  // 1,000x
    slow_->setMinimumWidth(100);
    slow_->setToolTip(tr("Slow-down: 1x (real time) to 1,000,000x slower than real time"));
    slowLabel_ = new QLabel(this);
    slowLabel_->setMinimumWidth(
        slowLabel_->fontMetrics().horizontalAdvance(tr("%L1x slower").arg(1e6, 0, 'f', 0)) + 4);
    auto button = [this](QStyle::StandardPixmap icon, const QString& text, const QString& tip) {
        auto* b = new QPushButton(style()->standardIcon(icon), text, this);
        b->setToolTip(tip);
        return b;
    };
    start_ = button(QStyle::SP_MediaSeekForward, tr("Start"),
                    tr("Start both runs from the beginning (Ctrl+Return)"));
    play_ = button(QStyle::SP_MediaPause, tr("Pause"), tr("Pause / resume (P)"));
    step_ = button(QStyle::SP_MediaSkipForward, tr("Step"),
                   tr("Advance to the next simulator event, paused (. or Ctrl+Right)"));
    cancel_ = button(QStyle::SP_MediaStop, tr("Cancel"), tr("Stop the runs (Esc)"));
    status_ = new QLabel(this);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setSizePolicy(QSizePolicy::Ignored,
                           QSizePolicy::Preferred);  // never widens the window

    // Two rows, so that the window's minimum width stays what the other tabs need.
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Policies"), this));
    top->addWidget(policyA_);
    top->addWidget(new QLabel(tr("vs"), this));
    top->addWidget(policyB_);
    top->addWidget(new QLabel(tr("Copies"), this));
    top->addWidget(copies_);
    top->addWidget(status_, 1);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(new QLabel(tr("Slow-down"), this));
    bottom->addWidget(slow_);
    bottom->addWidget(slowLabel_);
    bottom->addWidget(start_);
    bottom->addWidget(play_);
    bottom->addWidget(step_);
    bottom->addWidget(cancel_);
    bottom->addStretch(1);
    rows->addLayout(top);
    rows->addLayout(bottom);

    connect(start_, &QPushButton::clicked, this, &ContentionControls::startRequested);
    for (QComboBox* c : {policyA_, policyB_})
        connect(c, &QComboBox::currentTextChanged, this, &ContentionControls::choiceEdited);
    connect(copies_, &QSpinBox::valueChanged, this, &ContentionControls::choiceEdited);
    connect(play_, &QPushButton::clicked, this, &ContentionControls::playToggled);
    connect(step_, &QPushButton::clicked, this, &ContentionControls::stepRequested);
    connect(cancel_, &QPushButton::clicked, this, &ContentionControls::cancelRequested);
    connect(slow_, &QSlider::valueChanged, this, [this] {
        slowLabel_->setText(tr("%L1x slower").arg(slowdown(), 0, 'f', 0));
        emit slowdownChanged(slowdown());
    });
    slowLabel_->setText(tr("%L1x slower").arg(slowdown(), 0, 'f', 0));
    setRunning(false);
}

QString ContentionControls::policyA() const {
    return policyA_->currentText().trimmed();
}
QString ContentionControls::policyB() const {
    return policyB_->currentText().trimmed();
}
void ContentionControls::setPolicies(const QString& a, const QString& b) {
    // choiceEdited is for the user's edits.
    const QSignalBlocker quietA(policyA_), quietB(policyB_);
    policyA_->setCurrentText(a);
    policyB_->setCurrentText(b);
}
int ContentionControls::copies() const {
    return copies_->value();
}
void ContentionControls::setCopies(int copies, int max) {
    const QSignalBlocker quiet(copies_);
    copies_->setMaximum(std::max(1, max));
    copies_->setValue(copies);
}
double ContentionControls::slowdown() const {
    return std::round(std::pow(10.0, slow_->value() / 4.0));
}
void ContentionControls::setSlowdown(double factor) {
    slow_->setValue(static_cast<int>(std::lround(4 * std::log10(std::max(1.0, factor)))));
}

void ContentionControls::setRunning(bool running) {
    play_->setEnabled(running);
    step_->setEnabled(running);
    cancel_->setEnabled(running);
    if (!running) setPaused(false);
}

void ContentionControls::setPaused(bool paused) {
    play_->setText(paused ? tr("Play") : tr("Pause"));
    play_->setIcon(style()->standardIcon(paused ? QStyle::SP_MediaPlay : QStyle::SP_MediaPause));
}

void ContentionControls::setStatus(const QString& text) {
    status_->setText(text);
}

}  // namespace immap::views
