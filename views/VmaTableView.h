#pragma once
// The VMA table with a filter box: the model behind a sort/filter proxy. Selecting a row emits
// its VMA id; selectId() selects (and scrolls to) a VMA chosen elsewhere.

#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QWidget>

#include "VmaTableModel.h"

namespace immap::views {

class VmaTableView : public QWidget {
    Q_OBJECT
public:
    // model: shared with other tables (one per window is enough); null makes one.
    explicit VmaTableView(VmaTableModel* model = nullptr, QWidget* parent = nullptr);

    VmaTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* table() const { return table_; }
    QLineEdit* filter() const { return filter_; }
    void selectId(int id);  // -1 clears; emits nothing
    int selectedId() const;

signals:
    void idSelected(int id);

private:
    VmaTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    bool quiet_ = false;
};

}  // namespace immap::views
