#include "TimelineStatsModel.h"

namespace immap::views {

namespace {

QString time(double ns) {
    return QString::fromStdString(trace::formatTime(static_cast<trace::Time>(ns + 0.5)));
}

}  // namespace

TimelineStatsModel::TimelineStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void TimelineStatsModel::setStats(const trace::RangeStats& stats) {
    beginResetModel();
    stats_ = stats;
    endResetModel();
}

int TimelineStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(stats_.locks.size());
}

int TimelineStatsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimelineStatsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const trace::LockRangeStats& l = stats_.locks[static_cast<std::size_t>(index.row())];
    if (role == Qt::UserRole) {
        switch (index.column()) {
            case Lock:
                return l.lock;
            case Waits:
                return static_cast<qulonglong>(l.waits);
            case MeanWait:
                return l.meanWait();
            case MaxWait:
                return static_cast<qlonglong>(l.waitMax);
            case Holds:
                return static_cast<qulonglong>(l.holds);
            case HoldTime:
                return static_cast<qlonglong>(l.holdTime);
            case Utilisation:
                return l.utilisation;
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Lock)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Lock) return QString::fromStdString(l.name);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Lock:
            return QString::fromStdString(l.name);
        case Waits:
            return QStringLiteral("%L1").arg(l.waits);
        case MeanWait:
            return l.waits ? time(l.meanWait()) : QStringLiteral("-");
        case MaxWait:
            return l.waits ? time(static_cast<double>(l.waitMax)) : QStringLiteral("-");
        case Holds:
            return QStringLiteral("%L1").arg(l.holds);
        case HoldTime:
            return time(static_cast<double>(l.holdTime));
        case Utilisation:
            return QStringLiteral("%1%").arg(l.utilisation * 100, 0, 'f', 1);
    }
    return {};
}

QVariant TimelineStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case Waits:
                return tr("Completed waits that start in the range");
            case MeanWait:
            case MaxWait:
                return tr("Over those waits, their full length");
            case Holds:
                return tr("Holds that start in the range");
            case HoldTime:
                return tr("Every holder's time inside the range, added up");
            case Utilisation:
                return tr("Utilisation: the share of the range with at least one holder");
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
        case Lock:
            return tr("Lock");
        case Waits:
            return tr("Waits");
        case MeanWait:
            return tr("Mean\nwait");
        case MaxWait:
            return tr("Max\nwait");
        case Holds:
            return tr("Holds");
        case HoldTime:
            return tr("Hold\ntime");
        case Utilisation:
            return tr("Busy");
    }
    return {};
}

}  // namespace immap::views
