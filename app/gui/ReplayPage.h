#pragma once
// The replay tab: a native trace (recorded or imported) scrubbed event by event (core/trace's
// TraceCursor, checkpointed, so any position is a short replay away), the chosen file's tree
// drawn as the trace left it, bookmarks with captions beside the trace, recording a simulation
// of the session's settings, and below the tree the trace's timeline (per-CPU lanes, statistics,
// filters and an inspector, wired by TimelineController). The trace, its cursor and bookmarks
// live in the session.

#include <QWidget>

#include "PageHost.h"
#include "RecordDialog.h"
#include "TimelineController.h"
#include "session/Session.h"
#include "views/ReplayControls.h"
#include "views/TimelinePanel.h"
#include "views/TimelineView.h"
#include "views/TreeView.h"

class QTimer;

namespace immap::gui {

class ReplayPage : public QWidget {
    Q_OBJECT
public:
    ReplayPage(session::Session& session, PageHost& host, QWidget* parent = nullptr);

    // Each returns false after an error shown through the host.
    bool openTrace(const QString& path);
    // Simulates the loaded topology with the session's settings (recipe, parameters) and the
    // request's policy, copies, window, seed and walkers, records it, then opens it.
    bool record(const RecordRequest& request);
    // The same with the session's seed and walkers.
    bool recordTrace(const QString& path, const QString& policy, int copies, int durationMs);
    // What File > Record a simulation opens with: what the Throughput tab would simulate.
    RecordRequest recordDefaults() const;
    void recordDialog();
    void seek(qint64 position);
    void addBookmark(const QString& caption);
    bool exportTimeline(const QString& path);

    views::ReplayControls* controls() const { return controls_; }
    views::TreeView* treeView() const { return tree_; }
    TimelineController* timeline() const { return timeline_; }
    views::TimelineView* timelineView() const { return timelineView_; }
    views::TimelinePanel* timelinePanel() const { return timelinePanel_; }

private:
    QWidget* buildTimeline(QWidget* parent);
    void refresh();
    void saveBookmarks();
    static std::vector<std::pair<int, int>> traceCpuNodes(const std::string& topologySpec);

    session::Session& session_;
    PageHost& host_;
    views::ReplayControls* controls_ = nullptr;
    views::TreeView* tree_ = nullptr;
    QTimer* timer_ = nullptr;
    int file_ = 0;
    int treeIndex_ = 0;
    TimelineController* timeline_ = nullptr;
    views::TimelineView* timelineView_ = nullptr;
    views::TimelinePanel* timelinePanel_ = nullptr;
};

}  // namespace immap::gui
