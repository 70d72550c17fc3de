// MainWindow's timeline, below the replayed tree: the trace's per-CPU lanes (views/
// TimelineView), the statistics, filters and inspector beside them (views/TimelinePanel), wired
// by TimelineController. Clicking an event can seek the replay to it; the replay's position
// and the bookmarks are drawn on the timeline.
#include <QFileDialog>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>

#include "MainWindow.h"
#include "topology/Topology.h"
#include "trace/TraceError.h"
#include "views/ViewExporter.h"

namespace immap::gui {

QWidget* MainWindow::buildTimeline(QWidget* parent) {
    auto* split = new QSplitter(Qt::Horizontal, parent);
    timelineView_ = new views::TimelineView(split);
    // The panel scrolls, so that it never sets the window's minimum height.
    auto* scroll = new QScrollArea(split);
    timelinePanel_ = new views::TimelinePanel(scroll);
    scroll->setWidget(timelinePanel_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumHeight(80);
    scroll->setMinimumWidth(400);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    split->addWidget(timelineView_);
    split->addWidget(scroll);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    timeline_ = new TimelineController(timelineView_, timelinePanel_, this);
    connect(timeline_, &TimelineController::seekRequested, this, &MainWindow::replaySeek);
    connect(timeline_, &TimelineController::exportRequested, this, [this] {
        QSettings s;
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export the timeline"),
            s.value("export/timeline", "immap-timeline.png").toString(),
            views::ViewExporter::filters());
        if (path.isEmpty()) return;
        if (persist_) s.setValue("export/timeline", path);
        exportTimeline(path);
    });
    return split;
}

std::vector<std::pair<int, int>> MainWindow::traceCpuNodes(const std::string& spec) {
    // CPUs the copies do not sit on (walkers run anywhere) get their node from the trace's
    // topology when it can be loaded without the live host. Runs on the loading thread.
    std::vector<std::pair<int, int>> cpuNodes;
    if (!spec.empty() && spec.rfind("host", 0) != 0) {
        try {
            const topology::Topology topo = topology::Topology::fromSpec(spec);
            for (const topology::Pu& pu : topo.pus())
                cpuNodes.push_back({static_cast<int>(pu.osIndex), topo.nodeOfPu(pu.osIndex)});
        } catch (const std::exception&) {
            // The header's copy placement is enough to draw; unknown CPUs go under "node ?".
        }
    }
    return cpuNodes;
}

bool MainWindow::exportTimeline(const QString& path) {
    const QString error = views::ViewExporter::save(timelineView_, path, windowInputs());
    if (!error.isEmpty()) {
        showError(tr("Export failed"), error);
        return false;
    }
    statusBar()->showMessage(tr("Exported the timeline to %1").arg(path), 5000);
    return true;
}

}  // namespace immap::gui
