#pragma once
// The replay tab's timeline: builds trace::Timeline for the opened trace and wires the
// timeline view and its panel. Zoom and pan stay inside the view; the statistics are computed
// here from the selection and the filter only, so the one can never change the other.

#include <QObject>
#include <atomic>
#include <memory>
#include <optional>

#include "trace/Bookmarks.h"
#include "trace/RangeStats.h"
#include "trace/Timeline.h"
#include "trace/TimelineFilter.h"
#include "views/TimelinePanel.h"
#include "views/TimelineView.h"

namespace immap::gui {

class TimelineController : public QObject {
    Q_OBJECT
public:
    TimelineController(views::TimelineView* view, views::TimelinePanel* panel,
                       QObject* parent = nullptr);

    // Reads the trace at `path` (again) into a timeline; cpuNodes adds CPUs the header does
    // not place. Throws trace::TraceError for an unreadable file.
    void open(const std::string& path, const std::vector<std::pair<int, int>>& cpuNodes);
    // The same in two halves: the reading, safe on any thread (null if `cancel` was raised),
    // and the showing, on the GUI thread.
    static std::shared_ptr<trace::Timeline> build(const std::string& path,
                                                  const std::vector<std::pair<int, int>>& cpuNodes,
                                                  const std::atomic<bool>* cancel = nullptr);
    void setTimeline(std::shared_ptr<trace::Timeline> timeline);
    // Bookmarks count events applied; each is drawn at the time of the last one.
    void setBookmarks(const std::vector<trace::Bookmark>& marks);
    void setReplayPosition(std::uint64_t applied);

    const trace::Timeline* timeline() const { return timeline_.get(); }
    const trace::TimelineFilter& filter() const { return filter_; }
    const trace::RangeStats& stats() const { return stats_; }
    std::optional<std::pair<trace::Time, trace::Time>> selection() const { return selection_; }
    qint64 inspected() const { return inspected_; }

    void addFilter(const trace::FilterItem& item);
    void removeFilter(int row);
    void clearFilters();
    void inspect(qint64 event);
    // One paragraph on an event: kind, time, agent, CPU, node, lock, and its span if it opens
    // or closes one.
    QString describe(qint64 event) const;

signals:
    // The replay should show the state after `applied` events.
    void seekRequested(qint64 applied);
    void exportRequested();

private:
    void recompute();

    views::TimelineView* view_;
    views::TimelinePanel* panel_;
    std::shared_ptr<trace::Timeline> timeline_;
    trace::TimelineFilter filter_;
    trace::RangeStats stats_;
    std::optional<std::pair<trace::Time, trace::Time>> selection_;
    qint64 inspected_ = -1;
};

}  // namespace immap::gui
