#pragma once
// File > Export figure: the size and scale of a slide-ready export of the current view's
// drawing (the file and its format are asked next, by the file dialog).

#include <QComboBox>
#include <QDialog>
#include <QSize>

namespace immap::gui {

class FigureExportDialog : public QDialog {
    Q_OBJECT
public:
    explicit FigureExportDialog(QSize shown, QWidget* parent = nullptr);
    QSize figureSize() const;  // empty: as shown
    double scale() const;
    QComboBox* sizeBox() const { return size_; }
    QComboBox* scaleBox() const { return scale_; }

private:
    QComboBox* size_;
    QComboBox* scale_;
};

}  // namespace immap::gui
