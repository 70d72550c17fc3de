#pragma once
// The throughput tab: the sweep grid's fields, the throughput plot, and a summary line (walker
// latency and memory per inode, which the plot does not show), over a SweepController that runs
// core/sim's Sweep in the background. The grid and the results live in the session; the fields
// show and edit them. While a sweep runs, its points are drawn as they finish (the curves at
// the default parameters first, then the other seeds, then the bands) with a progress line
// saying what is still coming and the time left. A finished sweep also paints the topology tab's
// heat (each CPU's share of time waiting for i_mmap locks), given here as the view to paint.

#include <QWidget>

#include "PageHost.h"
#include "SweepController.h"
#include "measure/MeasuredCurve.h"
#include "session/Session.h"
#include "sim/SweepPartial.h"
#include "views/SweepControls.h"
#include "views/ThroughputView.h"
#include "views/TopologyView.h"

class QLabel;
class QTimer;

namespace immap::gui {

class ThroughputPage : public QWidget {
    Q_OBJECT
public:
    ThroughputPage(session::Session& session, PageHost& host, views::TopologyView* heat,
                   QWidget* parent = nullptr);

    // Runs the session's sweep (after taking the fields into it); false on an error or while
    // one runs.
    bool startSweep();
    // The fields into the session; the reason when they do not parse (the session unchanged).
    QString takeGrid();
    // The session's grid into the fields (after a load or a scenario).
    void showGrid();
    // Cancels a running sweep and waits for it; clears the summary (a new scenario).
    void reset();
    // Slide mode (workshop mode): the grid's fields are hidden, and the summary under the plot
    // puts the ratios and their bands first, says what the model holds in one line, and is
    // never taller than four lines, so that the plot keeps the screen at 1280x720.
    void setSlideMode(bool on);
    static QString slideScopeNote();

    // Real execl figures (immap bench execl --output FILE) over the simulated curves.
    bool openMeasurements(const QString& path);
    const QString& measuredPath() const { return measuredPath_; }  // empty: none open

    views::ThroughputView* view() const { return view_; }
    views::SweepControls* controls() const { return controls_; }
    SweepController* sweeps() const { return sweeps_; }
    QLabel* summary() const { return summary_; }

    // Each policy at the smallest and the largest copy count swept, as the summary line says;
    // a sweep with several walker rates gives each policy's execs/s at each rate (without
    // walkers first) and the walk latency, the largest copy count first; then the ratios over
    // single with their bands, and what the model holds. slide: the ratios right after the
    // first line and the one-line scope (slideScopeNote). No runs: the scope alone.
    static QString summarise(const std::vector<sim::SimResult>& runs, bool slide = false);
    static QString scopeNote();
    static QString bandLine(const std::vector<sim::SimResult>& runs);

    // When measured points come from a machine of another shape than the plotted one: both
    // shapes, for the note over the plot; empty when they match.
    static QString shapeNote(const QString& host, unsigned pus, unsigned nodes,
                             const topology::Topology& plotted);

    // What the plot says over itself before any sweep and while one runs.
    static QString idleOverlay();
    static QString runningOverlay(int done, int total);
    // Under a plot drawn mid-sweep: the progress line and what the partial points lack.
    static QString streamingNote(const sim::SweepPartial& partial, unsigned seeds, unsigned bands);

private:
    void finished(const std::vector<sim::SimResult>& runs);
    void pointDone(const sim::SweepUpdate& update);
    // Drops the points of a sweep that did not finish; the last complete sweep is drawn again.
    // The plot's runs on the session's machine.
    void drawRuns(const std::vector<sim::SimResult>& runs);
    void dropPartial();
    // The measured points against the session's machine (again after a sweep: it may have
    // changed since they were opened).
    void showMeasured();
    void showSummary();
    bool slideMode_ = false;
    // The heat of one policy's biggest run (the first policy swept unless chosen).
    void showHeat(const std::vector<sim::SimResult>& runs, int policy = 0);

    session::Session& session_;
    PageHost& host_;
    views::TopologyView* heat_;
    std::vector<sim::SimResult> heatRuns_;  // the last sweep's, for the heat's policy chips
    measure::MeasuredCurve measured_;       // opened over the curves (no points: none)
    QString measuredPath_;
    views::SweepControls* controls_ = nullptr;
    views::ThroughputView* view_ = nullptr;
    QLabel* summary_ = nullptr;
    SweepController* sweeps_ = nullptr;
    sim::SweepPartial partial_;  // the running sweep's points so far
    QTimer* redraw_ = nullptr;   // one redraw for a burst of points
};

}  // namespace immap::gui
