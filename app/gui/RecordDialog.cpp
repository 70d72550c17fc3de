#include "RecordDialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QPushButton>

#include "mapping/Policy.h"

namespace immap::gui {

RecordDialog::RecordDialog(const QStringList& policies, const RecordRequest& defaults,
                           QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Record a simulation"));
    policy_ = new QComboBox(this);
    policy_->setObjectName(QStringLiteral("policy"));
    policy_->setEditable(true);  // sharded:K takes any K
    QStringList items = policies;
    for (const char* known : {"single", "split-trees", "split-locks", "sharded:32", "no-rmap",
                              "btree", "btree+split-locks"})
        if (!items.contains(QString::fromLatin1(known))) items << QString::fromLatin1(known);
    policy_->addItems(items);
    policy_->setCurrentText(defaults.policy.isEmpty() ? items.first() : defaults.policy);
    copies_ = new QSpinBox(this);
    copies_->setObjectName(QStringLiteral("copies"));
    copies_->setRange(1, RecordRequest::kMaxCopies);
    copies_->setValue(defaults.copies);
    duration_ = new QDoubleSpinBox(this);
    duration_->setObjectName(QStringLiteral("duration"));
    duration_->setRange(1, RecordRequest::kMaxDurationMs);
    duration_->setDecimals(0);
    duration_->setSuffix(tr(" ms"));
    duration_->setValue(defaults.durationMs);
    seed_ = new QSpinBox(this);
    seed_->setObjectName(QStringLiteral("seed"));
    seed_->setRange(0, 2147483647);
    seed_->setValue(static_cast<int>(std::min<quint64>(defaults.seed, 2147483647)));
    walkers_ = new QDoubleSpinBox(this);
    walkers_->setObjectName(QStringLiteral("walkers"));
    walkers_->setRange(0, 1e6);
    walkers_->setDecimals(0);
    walkers_->setSuffix(tr(" /s"));
    walkers_->setValue(defaults.walkersPerSecond);
    path_ = new QLineEdit(defaults.path, this);
    path_->setObjectName(QStringLiteral("path"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &RecordDialog::browse);
    auto* file = new QHBoxLayout;
    file->addWidget(path_, 1);
    file->addWidget(browse);

    auto* form = new QFormLayout(this);
    form->addRow(tr("Policy"), policy_);
    form->addRow(tr("Copies (execl -c N)"), copies_);
    form->addRow(tr("Window, at least"), duration_);
    form->addRow(tr("Seed"), seed_);
    form->addRow(tr("Whole-file walkers"), walkers_);
    form->addRow(tr("Trace file"), file);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Record"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &RecordDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &RecordDialog::reject);
}

void RecordDialog::browse() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Record to"), path_->text(),
                                                      tr("immap traces (*.trace)"));
    if (!path.isEmpty()) path_->setText(path);
}

void RecordDialog::accept() {
    mapping::Policy p;
    std::string error;
    if (!mapping::Policy::parse(policy_->currentText().trimmed().toStdString(), p, error)) {
        QMessageBox::warning(this, windowTitle(), QString::fromStdString(error));
        return;
    }
    if (path_->text().trimmed().isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("Choose the trace file to write."));
        return;
    }
    request_.policy = QString::fromStdString(p.name());
    request_.copies = copies_->value();
    request_.durationMs = duration_->value();
    request_.seed = static_cast<quint64>(seed_->value());
    request_.walkersPerSecond = walkers_->value();
    request_.path = path_->text().trimmed();
    QDialog::accept();
}

}  // namespace immap::gui
