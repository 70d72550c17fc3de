#pragma once
// Beside the timeline: the statistics over the selected range (summary and per-lock table),
// the filters that change them (a list of active filters, each removable; "Filter to
// selection" and lock / CPU / node / event kind choices), and the inspected event with a
// button to seek the replay to it. It shows what app/ computed and emits intent only; it never
// touches the timeline's zoom.

#include <QWidget>

#include "trace/RangeStats.h"
#include "trace/Timeline.h"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTableView;

namespace immap::views {

class TimelineStatsModel;

class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);

    // What new filters can name: the timeline's locks, CPUs, nodes, and every event kind.
    void setChoices(const trace::Timeline& timeline);
    // `over` says which range: the whole trace, or the selection.
    void setStats(const trace::RangeStats& stats, const QString& over);
    void setFilters(const QStringList& lines);
    void setInspect(const QString& text, qint64 event);  // event -1: nothing inspected
    void setSelectionAvailable(bool available);

    TimelineStatsModel* statsModel() const { return model_; }
    QTableView* statsTable() const { return table_; }
    QLabel* summary() const { return summary_; }
    QListWidget* filterList() const { return filters_; }
    QComboBox* filterType() const { return type_; }
    QComboBox* filterValue() const { return value_; }
    QPushButton* addFilterButton() const { return add_; }
    QPushButton* toSelectionButton() const { return toSelection_; }
    QPushButton* removeFilterButton() const { return remove_; }
    QLabel* inspectText() const { return inspect_; }
    QPushButton* seekButton() const { return seek_; }

signals:
    void filterToSelectionRequested();
    // type: trace::FilterItem::Type (Lock, Cpu, Node or Kind); value: its index.
    void filterRequested(int type, int value);
    void filterRemoveRequested(int row);
    void filtersClearRequested();
    void seekRequested(qint64 event);
    void exportRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void fillValues();

    TimelineStatsModel* model_;
    QLabel* over_;
    QLabel* summary_;
    QTableView* table_;
    QPushButton* toSelection_;
    QComboBox* type_;
    QComboBox* value_;
    QPushButton* add_;
    QLabel* active_;
    QListWidget* filters_;
    QPushButton *remove_, *clear_;
    QLabel* inspect_;
    QPushButton* seek_;
    QPushButton* export_;
    qint64 inspected_ = -1;
    std::vector<std::string> locks_;
    std::vector<int> cpus_, nodes_;
};

}  // namespace immap::views
