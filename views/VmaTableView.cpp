#include "VmaTableView.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QVBoxLayout>

namespace immap::views {

VmaTableView::VmaTableView(VmaTableModel* model, QWidget* parent) : QWidget(parent) {
    model_ = model ? model : new VmaTableModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(VmaTableModel::kSortRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter VMAs (pid, comm, range, perms, node, evidence)"));
    filter_->setClearButtonEnabled(true);
    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(VmaTableModel::Pid, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(22);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setColumnWidth(VmaTableModel::Pid, 70);
    table_->setColumnWidth(VmaTableModel::Comm, 90);
    table_->setColumnWidth(VmaTableModel::Address, 230);
    table_->setColumnWidth(VmaTableModel::Pgoff, 130);
    table_->setColumnWidth(VmaTableModel::Perms, 50);
    table_->setColumnWidth(VmaTableModel::Node, 55);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(4, 4, 4, 4);
    box->setSpacing(4);
    box->addWidget(filter_);
    box->addWidget(table_, 1);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) {
                if (quiet_ || !cur.isValid()) return;
                emit idSelected(proxy_->data(cur, VmaTableModel::kIdRole).toInt());
            });
}

int VmaTableView::selectedId() const {
    const QModelIndex cur = table_->selectionModel()->currentIndex();
    return cur.isValid() ? proxy_->data(cur, VmaTableModel::kIdRole).toInt() : -1;
}

void VmaTableView::selectId(int id) {
    quiet_ = true;
    const int row = id >= 0 ? model_->rowOfId(id) : -1;
    if (row < 0) {
        table_->selectionModel()->clear();
    } else {
        const QModelIndex p = proxy_->mapFromSource(model_->index(row, 0));
        if (p.isValid()) {
            table_->selectionModel()->setCurrentIndex(
                p, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            table_->scrollTo(p);
        }
    }
    quiet_ = false;
}

}  // namespace immap::views
