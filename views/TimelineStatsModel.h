#pragma once
// The timeline's statistics over the selected range, one row per lock (trace::RangeStats):
// waits, mean and longest wait, holds, hold time, utilisation. Display strings with units;
// Qt::UserRole gives the raw number (ns, counts, a fraction) for sorting and tests.

#include <QAbstractTableModel>

#include "trace/RangeStats.h"

namespace immap::views {

class TimelineStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Lock, Waits, MeanWait, MaxWait, Holds, HoldTime, Utilisation, ColumnCount };

    explicit TimelineStatsModel(QObject* parent = nullptr);

    void setStats(const trace::RangeStats& stats);
    const trace::RangeStats& stats() const { return stats_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    trace::RangeStats stats_;
};

}  // namespace immap::views
