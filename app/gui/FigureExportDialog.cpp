#include "FigureExportDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>

namespace immap::gui {

FigureExportDialog::FigureExportDialog(QSize shown, QWidget* parent)
    : QDialog(parent), size_(new QComboBox(this)), scale_(new QComboBox(this)) {
    setWindowTitle(tr("Export figure"));
    size_->addItem(tr("as shown (%1 x %2)").arg(shown.width()).arg(shown.height()), QSize());
    // Common slide sizes: the figure is laid out afresh at this size, then put back.
    for (const QSize s : {QSize(1280, 720), QSize(1600, 900), QSize(1920, 1080), QSize(1024, 768)})
        size_->addItem(tr("%1 x %2").arg(s.width()).arg(s.height()), s);
    for (int s : {1, 2, 3})
        scale_->addItem(tr("%1x").arg(s), s);
    auto* form = new QFormLayout(this);
    auto* note = new QLabel(
        tr("The drawing only: no fields, buttons or progress bars. PNG takes the scale in "
           "pixels; SVG and PDF stay vector."),
        this);
    note->setWordWrap(true);
    form->addRow(note);
    form->addRow(tr("Size"), size_);
    form->addRow(tr("Scale"), scale_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Choose file…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

QSize FigureExportDialog::figureSize() const {
    return size_->currentData().toSize();
}

double FigureExportDialog::scale() const {
    return scale_->currentData().toDouble();
}

}  // namespace immap::gui
