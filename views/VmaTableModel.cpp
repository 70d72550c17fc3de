#include "VmaTableModel.h"

#include <QColor>

#include "NodePalette.h"

namespace immap::views {

namespace {
QString hex(std::uint64_t v) {
    return QStringLiteral("%1").arg(v, 0, 16);
}
}  // namespace

VmaTableModel::VmaTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void VmaTableModel::setTreeSet(const session::TreeSet* set) {
    set_ = set;
    refresh();
}

void VmaTableModel::refresh() {
    beginResetModel();
    ids_ = set_ ? set_->liveIds() : std::vector<int>{};
    rowOf_.clear();
    rowOf_.reserve(static_cast<int>(ids_.size()));
    for (std::size_t r = 0; r < ids_.size(); ++r)
        rowOf_.insert(ids_[r], static_cast<int>(r));
    endResetModel();
}

int VmaTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(ids_.size());
}

int VmaTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VmaTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const int id = ids_[static_cast<std::size_t>(index.row())];
    const session::VmaEntry& e = set_->entry(id);
    const mapping::Vma& v = e.vma;
    if (role == kIdRole) return id;
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
            case Pid:
                return QString::number(v.pid);
            case Comm:
                return QString::fromStdString(e.comm);
            case Address:
                return hex(v.start) + QLatin1Char('-') + hex(v.end);
            case Pgoff:
                return QStringLiteral("[0x%1, 0x%2]").arg(hex(v.first()), hex(v.last()));
            case Perms:
                return QString::fromLatin1(v.perms);
            case Node:
                return QString::number(v.homeNode);
            case Evidence:
                return QString::fromLatin1(mapping::evidenceName(v.evidence));
            default:
                return {};
        }
    }
    if (role == kSortRole) {
        switch (index.column()) {
            case Pid:
                return static_cast<qlonglong>(v.pid);
            case Address:
                return static_cast<qulonglong>(v.start);
            case Pgoff:
                return static_cast<qulonglong>(v.pgoff);
            case Node:
                return v.homeNode;
            default:
                return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::DecorationRole && index.column() == Node) return NodePalette::home(v.homeNode);
    if (role == Qt::TextAlignmentRole && (index.column() == Pid || index.column() == Node))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant VmaTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Pid:
            return tr("pid");
        case Comm:
            return tr("comm");
        case Address:
            return tr("address range");
        case Pgoff:
            return tr("pgoff range");
        case Perms:
            return tr("perms");
        case Node:
            return tr("node");
        case Evidence:
            return tr("node evidence");
        default:
            return {};
    }
}

}  // namespace immap::views
