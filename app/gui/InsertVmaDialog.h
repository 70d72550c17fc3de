#pragma once
// Asks for one VMA to insert: pid, pgoff range (hex or decimal, closed), home node, perms.

#include <QComboBox>
#include <QDialog>
#include <QLineEdit>
#include <QSpinBox>

#include "mapping/Vma.h"

namespace immap::gui {

class InsertVmaDialog : public QDialog {
    Q_OBJECT
public:
    InsertVmaDialog(std::int64_t pid, int nodes, QWidget* parent = nullptr);
    // Valid after accept().
    mapping::Vma vma() const { return vma_; }
    // Parses "0x1d3" or "467"; false on anything else.
    static bool parsePage(const QString& text, std::uint64_t& out);

    void accept() override;

private:
    QSpinBox* pid_;
    QLineEdit* first_;
    QLineEdit* last_;
    QComboBox* node_;
    QComboBox* perms_;
    mapping::Vma vma_;
};

}  // namespace immap::gui
