#pragma once
// The scorecard (sim::Scorecard) as a table: one row per published observation, with the
// machine, the published figure, the model's point at the default parameters, its 10-90% band
// and where the published figure lies. Rows not yet run show the observation with "-" for the
// model. During a run each row fills in as its runs finish (setLine). Qt::ToolTipRole gives the
// shape's assumptions and the source; Qt::UserRole the raw numbers (the point, the band's p10 and
// p90; whether it is a hit) for tests.

#include <QAbstractTableModel>
#include <vector>

#include "sim/Scorecard.h"

namespace immap::views {

class ScorecardModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Claim, Machine, Published, Model, Band, Verdict, ColumnCount };

    explicit ScorecardModel(QObject* parent = nullptr);

    // The observations alone, before a run (sim::Observation::all()).
    void showObservations();
    void setLines(const std::vector<sim::ScoreLine>& lines);
    // A run starts: every row waits for its runs ("running"); setLine fills one in as they
    // finish, and setLines the whole table at the end.
    void startRun();
    void setLine(std::size_t row, const sim::ScoreLine& line);
    bool rowDone(int row) const;
    const std::vector<sim::ScoreLine>& lines() const { return lines_; }
    bool ran() const { return ran_; }
    int hits() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<sim::ScoreLine> lines_;
    bool ran_ = false;
    bool running_ = false;
    std::vector<bool> rowDone_;  // during a run: the rows filled in
};

}  // namespace immap::views
