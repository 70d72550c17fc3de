#include "SweepControls.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

namespace immap::views {

SweepControls::SweepControls(QWidget* parent) : QWidget(parent) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(6, 4, 6, 4);
    policies_ = new QLineEdit(QStringLiteral("single,split-trees,split-locks"), this);
    policies_->setToolTip(tr("Comma-separated: single, split-trees, split-locks, sharded:K"));
    copies_ = new QLineEdit(this);
    copies_->setToolTip(tr("Comma-separated copy counts (execl -c N)"));
    duration_ = new QSpinBox(this);
    duration_->setRange(1, 10000);
    duration_->setValue(100);
    duration_->setSuffix(tr(" ms"));
    duration_->setToolTip(tr("Simulated time measured per run, after the warm-up"));
    run_ = new QPushButton(tr("Run sweep"), this);
    run_->setShortcut(QKeySequence(tr("Ctrl+R")));
    run_->setToolTip(tr("Simulate every policy at every copy count, on both cores (Ctrl+R)"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setMaximumWidth(220);
    message_ = new QLabel(this);
    row->addWidget(new QLabel(tr("Policies"), this));
    row->addWidget(policies_, 2);
    row->addWidget(new QLabel(tr("Copies"), this));
    row->addWidget(copies_, 3);
    row->addWidget(duration_);
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

QString SweepControls::policies() const {
    return policies_->text();
}

QString SweepControls::copies() const {
    return copies_->text();
}

int SweepControls::durationMs() const {
    return duration_->value();
}

void SweepControls::setRunning(bool running) {
    run_->setEnabled(!running);
    cancel_->setEnabled(running);
    policies_->setEnabled(!running);
    copies_->setEnabled(!running);
    duration_->setEnabled(!running);
}

void SweepControls::setProgress(int done, int total) {
    progress_->setRange(0, std::max(1, total));
    progress_->setValue(done);
}

void SweepControls::setMessage(const QString& text) {
    message_->setText(text);
}

}  // namespace immap::views
