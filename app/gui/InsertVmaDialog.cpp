#include "InsertVmaDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QMessageBox>

#include "session/ProcessRecipe.h"

namespace immap::gui {

InsertVmaDialog::InsertVmaDialog(std::int64_t pid, int nodes, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Insert a VMA"));
    pid_ = new QSpinBox(this);
    pid_->setRange(1, 4194304);  // pid_max's ceiling
    pid_->setValue(static_cast<int>(pid));
    first_ = new QLineEdit(QStringLiteral("0x26"), this);
    last_ = new QLineEdit(QStringLiteral("0x17b"), this);
    first_->setObjectName(QStringLiteral("firstPage"));
    last_->setObjectName(QStringLiteral("lastPage"));
    node_ = new QComboBox(this);
    node_->setObjectName(QStringLiteral("node"));
    for (int n = 0; n < std::max(1, nodes); ++n)
        node_->addItem(tr("node %1").arg(n));
    perms_ = new QComboBox(this);
    perms_->addItems({"r--p", "r-xp", "rw-p", "r--s", "rw-s"});
    perms_->setCurrentIndex(1);
    auto* form = new QFormLayout(this);
    form->addRow(tr("pid"), pid_);
    form->addRow(tr("first page (pgoff)"), first_);
    form->addRow(tr("last page"), last_);
    form->addRow(tr("home node"), node_);
    form->addRow(tr("perms"), perms_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &InsertVmaDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &InsertVmaDialog::reject);
}

bool InsertVmaDialog::parsePage(const QString& text, std::uint64_t& out) {
    const QString t = text.trimmed();
    bool ok = false;
    if (t.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
        out = t.mid(2).toULongLong(&ok, 16);
    else
        out = t.toULongLong(&ok, 10);
    // Page offsets are pgoff_t; keep clear of the top so last + 1 cannot wrap.
    return ok && out < (std::uint64_t{1} << 52);
}

void InsertVmaDialog::accept() {
    std::uint64_t first = 0, last = 0;
    if (!parsePage(first_->text(), first) || !parsePage(last_->text(), last) || last < first) {
        QMessageBox::warning(this, tr("Insert a VMA"),
                             tr("The page range must be two numbers (hex with 0x, or decimal), "
                                "first <= last."));
        return;
    }
    vma_ = session::ExecRecipe::vma(pid_->value(), node_->currentIndex(), first, last - first + 1,
                                    perms_->currentText().toLatin1().constData());
    QDialog::accept();
}

}  // namespace immap::gui
