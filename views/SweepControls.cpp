#include "SweepControls.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <cmath>

namespace immap::views {

SweepControls::SweepControls(QWidget* parent) : QWidget(parent) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(6, 4, 6, 4);
    policies_ = new QLineEdit(QStringLiteral("single,split-trees,split-locks"), this);
    policies_->setToolTip(
        tr("Comma-separated: single, split-trees, split-locks, sharded:K, no-rmap; btree (the "
           "B-tree index) and btree+ before any other (btree+split-locks)"));
    copies_ = new QLineEdit(this);
    copies_->setToolTip(tr("Comma-separated copy counts (execl -c N)"));
    duration_ = new QSpinBox(this);
    duration_->setRange(1, 10000);
    duration_->setValue(100);
    duration_->setSuffix(tr(" ms"));
    duration_->setToolTip(tr("Simulated time measured per run, after the warm-up"));
    walkers_ = new QDoubleSpinBox(this);
    walkers_->setObjectName(QStringLiteral("walkers"));
    walkers_->setRange(0, 1e7);  // a scenario's range
    walkers_->setDecimals(0);
    walkers_->setSuffix(tr(" walks/s"));
    walkers_->setKeyboardTracking(false);  // one edit per value typed, not per digit
    // Compact for a 1280-pixel window: no label (the suffix says what it is), no arrows.
    walkers_->setButtonSymbols(QAbstractSpinBox::NoButtons);
    // Wide enough for "100,000 walks/s", not for the range's 10,000,000 (which scrolls).
    walkers_->setMaximumWidth(
        walkers_->fontMetrics().horizontalAdvance(QStringLiteral("100,000 walks/s")) + 16);
    walkers_->setToolTip(
        tr("Whole-file walkers (rmap walks on the recipe's walker file) per second, in every "
           "run"));
    sideBySide_ = new QCheckBox(tr("and none"), this);
    sideBySide_->setObjectName(QStringLiteral("sideBySide"));
    sideBySide_->setChecked(true);
    sideBySide_->setToolTip(
        tr("Side by side: also sweep every policy without walkers (its curve solid, the one "
           "with walkers dashed, in the policy's colour)"));
    bands_ = new QSpinBox(this);
    bands_->setObjectName(QStringLiteral("bands"));
    bands_->setRange(0, 1000);  // a scenario's and --bands' range
    bands_->setSuffix(tr(" sets"));
    bands_->setKeyboardTracking(false);
    bands_->setButtonSymbols(QAbstractSpinBox::NoButtons);
    bands_->setMaximumWidth(bands_->fontMetrics().horizontalAdvance(QStringLiteral("1000 sets")) +
                            16);
    bands_->setToolTip(
        tr("Parameter sets drawn across the parameters' plausible ranges for each point: the "
           "plot shades their 10-90% band. 0: no band, each point runs only its seeds"));
    run_ = new QPushButton(tr("Run sweep"), this);
    // Ctrl+R is the page's (app/), so that it works with these fields hidden on a slide.
    run_->setToolTip(tr("Simulate every policy at every copy count, on both cores (Ctrl+R)"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setMinimumWidth(60);  // "100%" fits; its hint is wider
    progress_->setMaximumWidth(80);
    message_ = new QLabel(this);
    // It may be cut short (the whole text is its tooltip) rather than squeeze the grid's fields:
    // "running on" a long topology spec would otherwise leave them a few characters wide.
    message_->setMinimumWidth(1);
    row->addWidget(new QLabel(tr("Policies"), this));
    row->addWidget(policies_, 2);
    row->addWidget(new QLabel(tr("Copies"), this));
    row->addWidget(copies_, 3);
    row->addWidget(duration_);
    row->addWidget(walkers_);
    row->addWidget(sideBySide_);
    row->addWidget(bands_);
    row->addWidget(run_);
    row->addWidget(cancel_);
    row->addWidget(progress_);
    row->addWidget(message_, 2);
    connect(run_, &QPushButton::clicked, this, &SweepControls::runRequested);
    for (QLineEdit* e : {policies_, copies_})
        connect(e, &QLineEdit::editingFinished, this, [this, e] {
            if (e->isModified()) emit gridEdited();
            e->setModified(false);
        });
    connect(duration_, &QSpinBox::valueChanged, this, &SweepControls::gridEdited);
    connect(walkers_, &QDoubleSpinBox::valueChanged, this, &SweepControls::gridEdited);
    connect(sideBySide_, &QCheckBox::toggled, this, &SweepControls::gridEdited);
    connect(bands_, &QSpinBox::valueChanged, this, &SweepControls::gridEdited);
    connect(cancel_, &QPushButton::clicked, this, &SweepControls::cancelRequested);
}

void SweepControls::setPolicies(const QString& list) {
    policies_->setText(list);
}

void SweepControls::setCopies(const QString& list) {
    copies_->setText(list);
}

void SweepControls::setDurationMs(int ms) {
    const QSignalBlocker quiet(duration_);  // gridEdited is for the user's edits
    duration_->setValue(ms);
}

void SweepControls::setWalkersPerSecond(double perSecond) {
    const QSignalBlocker quiet(walkers_);
    // Whole rates without decimals; a scenario's 0.25 with two, and kept exact (walkersGiven_)
    // unless the user changes what the field shows.
    walkers_->setDecimals(perSecond == std::floor(perSecond) ? 0 : 2);
    walkers_->setValue(perSecond);
    walkersGiven_ = perSecond;
    walkersShown_ = walkers_->value();
}

void SweepControls::setSideBySide(bool on) {
    const QSignalBlocker quiet(sideBySide_);
    sideBySide_->setChecked(on);
}

void SweepControls::setBands(int sets) {
    const QSignalBlocker quiet(bands_);
    bands_->setValue(sets);
}

int SweepControls::bands() const {
    return bands_->value();
}

QString SweepControls::policies() const {
    return policies_->text();
}

QString SweepControls::copies() const {
    return copies_->text();
}

int SweepControls::durationMs() const {
    return duration_->value();
}

double SweepControls::walkersPerSecond() const {
    return walkers_->value() == walkersShown_ ? walkersGiven_ : walkers_->value();
}

bool SweepControls::sideBySide() const {
    return sideBySide_->isChecked();
}

void SweepControls::setRunning(bool running) {
    run_->setEnabled(!running);
    cancel_->setEnabled(running);
    policies_->setEnabled(!running);
    copies_->setEnabled(!running);
    duration_->setEnabled(!running);
    walkers_->setEnabled(!running);
    sideBySide_->setEnabled(!running);
    bands_->setEnabled(!running);
}

void SweepControls::setProgress(int done, int total) {
    progress_->setRange(0, std::max(1, total));
    progress_->setValue(done);
}

QString SweepControls::message() const {
    return message_->text();
}

void SweepControls::setMessage(const QString& text) {
    message_->setText(text);
    message_->setToolTip(text);
}

}  // namespace immap::views
