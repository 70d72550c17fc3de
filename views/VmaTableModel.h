#pragma once
// The live VMAs of the file being shown, one row each: pid, comm, address range, pgoff range,
// perms, home node and the evidence for it. Reads a session::TreeSet; refresh() after the set
// changes. Sort by kSortRole (numbers sort as numbers); kIdRole gives the VMA's entry id.

#include <QAbstractTableModel>
#include <QHash>
#include <vector>

#include "session/TreeSet.h"

namespace immap::views {

class VmaTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Pid, Comm, Address, Pgoff, Perms, Node, Evidence, ColumnCount };
    static constexpr int kSortRole = Qt::UserRole;
    static constexpr int kIdRole = Qt::UserRole + 1;

    explicit VmaTableModel(QObject* parent = nullptr);

    void setTreeSet(const session::TreeSet* set);  // null: empty
    void refresh();                                // the set's live VMAs changed
    int rowOfId(int id) const { return rowOf_.value(id, -1); }
    int idAt(int row) const { return ids_[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    const session::TreeSet* set_ = nullptr;
    std::vector<int> ids_;
    QHash<int, int> rowOf_;
};

}  // namespace immap::views
