#pragma once
// The main window: a frame around pages. It owns the session and creates the tab pages
// (TreePages for the split, single-tree and table tabs; ThroughputPage; the topology view;
// ReplayPage; ContentionPage), each given the session and this window as its PageHost; it
// wires menus, docks (files, VMAs, steps, parameters), the status bar, settings, drag and drop
// and export. The tabs' logic is in their classes, loading in SourceLoader, scenarios and
// workshop mode in Workshop; the accessors below forward to them for tests and main.cpp.

#include <QListWidget>
#include <QMainWindow>
#include <QTabWidget>
#include <map>
#include <memory>

#include <QTimer>
#include "AnimationController.h"
#include "ContentionPage.h"
#include "DockPlan.h"
#include "PageHost.h"
#include "ReplayPage.h"
#include "SourceLoader.h"
#include "SweepController.h"
#include "ThroughputPage.h"
#include "TimelineController.h"
#include "TreePages.h"
#include "Workshop.h"
#include "session/Scenario.h"
#include "session/Session.h"
#include "session/WalkPlayer.h"
#include "trace/Bookmarks.h"
#include "trace/TraceCursor.h"
#include "views/ContentionControls.h"
#include "views/ContentionView.h"
#include "views/PageAxis.h"
#include "views/ParamsPanel.h"
#include "views/ReplayControls.h"
#include "views/SplitView.h"
#include "views/StepControls.h"
#include "views/SweepControls.h"
#include "views/ThroughputView.h"
#include "views/TopologyView.h"
#include "views/TreeView.h"
#include "views/VmaTableView.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QMessageBox;
class QToolBar;

namespace immap::gui {

class ValidationDialog;

class MainWindow : public QMainWindow, public PageHost {
    Q_OBJECT
public:
    // persist: read and write QSettings (off for --screenshot, so a run never disturbs them).
    explicit MainWindow(bool persist = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Each returns false after showing an error dialog (file, line, reason) on bad input.
    bool openSource(const QString& spec, const QString& topology = {}, const QString& file = {}) {
        return loader_->openSource(spec, topology, file);
    }
    bool openPath(const QString& path) { return loader_->openPath(path); }
    bool openTopology(const QString& spec) { return loader_->openTopology(spec); }
    void loadDefault() { loader_->loadDefault(); }

    // A tab by its name, one of session::Scenario::viewNames() ("tree" is "trees").
    bool setView(const QString& name) override;
    QString currentViewName() const override;
    void showSlideDocks(const std::vector<std::string>& names) override;
    void showTreeZoom(double factor) override { trees_->zoomOnRoots(factor); }
    void restoreDocks() override;
    // Where errors go in --screenshot mode: stderr instead of a dialog.
    void setHeadless(bool headless) { headless_ = headless; }
    // Whether a new update starts playing at once (tests step it by hand).
    void setAutoplay(bool on) { trees_->setAutoplay(on); }
    QString lastError() const { return lastError_; }

    session::Session& session() { return session_; }
    // The tree tabs (TreePages): split, single tree, VMA table, and their docks.
    TreePages* treePages() const { return trees_; }
    views::TreeView* treeView() const { return trees_->tree(); }
    views::SplitView* splitView() const { return trees_->split(); }
    views::VmaTableView* tableView() const { return trees_->table(); }
    views::VmaTableView* tableDock() const { return trees_->tableDock(); }
    views::StepControls* controls() const { return trees_->controls(); }
    AnimationController* animation() const { return trees_->animation(); }
    QListWidget* filePicker() const { return files_; }
    QTabWidget* tabs() const { return tabs_; }
    // The widget File > Export view writes: the current tab.
    QWidget* currentView() const { return tabs_->currentWidget(); }
    // What File > Export figure writes: the current tab's drawing, without its controls.
    QList<QWidget*> currentFigure() const;

    // Intents, also reachable from menus and views.
    void selectId(int id) { trees_->selectId(id); }
    int selectedId() const { return trees_->selectedId(); }
    void insertVma(const mapping::Vma& v) { trees_->insertVma(v); }
    void removeVma(int id) { trees_->removeVma(id); }
    void execProcess() { trees_->execProcess(); }
    void exitProcess(std::int64_t pid) { trees_->exitProcess(pid); }
    // An rmap walk of file pages [first, last] over every tree, ready to step through.
    void walkPages(itree::Index first, itree::Index last) { trees_->walkPages(first, last); }
    views::PageAxis* treePageAxis() const { return trees_->treeAxis(); }
    bool exportView(const QString& path);
    // The drawing only, at `size` (empty: as shown) and `scale`; false after an error dialog.
    bool exportFigure(const QString& path, QSize size = {}, double scale = 1);
    // The files the window has read and may read again (source, topology, trace and its
    // bookmarks, the scenario's recipe): no export, recording or scenario may replace one.
    std::vector<std::string> windowInputs() const override;
    // Loads a host (Session::stage on a worker, then commit); false on an error (shown) or a
    // cancel (the window unchanged).
    bool loadInBackground(const QString& what, const std::string& source,
                          const std::string& topology, const std::string& file) {
        return loader_->loadInBackground(what, source, topology, file);
    }

    // The throughput tab: runs a sweep of the current topology in the background.
    ThroughputPage* throughputPage() const { return throughputPage_; }
    views::ThroughputView* throughputView() const { return throughputPage_->view(); }
    views::SweepControls* sweepControls() const { return throughputPage_->controls(); }
    views::ParamsPanel* paramsPanel() const { return params_; }
    views::TopologyView* topologyView() const { return topology_; }
    SweepController* sweeps() const { return throughputPage_->sweeps(); }
    bool startSweep() { return throughputPage_->startSweep(); }
    // Real execl figures (immap bench execl --output FILE) over the simulated curves.
    bool openMeasurements(const QString& path);
    // Help > Validation (Ctrl+Shift+V): the scorecard beside the window, at the session's
    // parameters, run on first showing. `run` false: shown without running (tests).
    ValidationDialog* showValidation(bool run = true);

    // The replay tab (ReplayPage): a native trace, scrubbed event by event, and its timeline.
    ReplayPage* replayPage() const { return replayPage_; }
    bool openTrace(const QString& path) { return replayPage_->openTrace(path); }
    // Simulates and records a trace of the loaded topology, then opens it for replay.
    bool recordTrace(const QString& path, const QString& policy, int copies, int durationMs) {
        return replayPage_->recordTrace(path, policy, copies, durationMs);
    }
    void replaySeek(qint64 position) { replayPage_->seek(position); }
    void addBookmark(const QString& caption) { replayPage_->addBookmark(caption); }
    views::ReplayControls* replayControls() const { return replayPage_->controls(); }
    views::TreeView* replayTreeView() const { return replayPage_->treeView(); }
    const trace::TraceCursor* traceCursor() const { return session_.replay().cursor.get(); }
    QString tracePath() const { return QString::fromStdString(session_.replay().path); }
    TimelineController* timeline() const { return replayPage_->timeline(); }
    views::TimelineView* timelineView() const { return replayPage_->timelineView(); }
    views::TimelinePanel* timelinePanel() const { return replayPage_->timelinePanel(); }
    bool exportTimeline(const QString& path) { return replayPage_->exportTimeline(path); }

    // Workshop scenarios and workshop mode (Workshop).
    Workshop* workshop() const { return workshop_; }
    bool openScenario(const QString& path) { return workshop_->openScenario(path); }
    bool saveScenario(const QString& path, bool withResults = false) {
        return workshop_->saveScenario(path, withResults);
    }
    session::Scenario currentScenario() const { return workshop_->currentScenario(); }
    const session::Scenario& scenario() const { return workshop_->scenario(); }
    void setWorkshopMode(bool on) { workshop_->setWorkshopMode(on); }
    bool workshopMode() const { return workshop_->workshopMode(); }
    static constexpr double kWorkshopScale = Workshop::kFontScale;
    void showBookmark(int index) { workshop_->showBookmark(index); }
    void nextBookmark() { workshop_->nextBookmark(); }
    void previousBookmark() { workshop_->previousBookmark(); }
    int currentBookmark() const { return workshop_->currentBookmark(); }
    QLabel* captionLabel() const { return workshop_->captionLabel(); }
    QLabel* sweepSummary() const { return throughputPage_->summary(); }

    // The contention tab (ContentionPage): two policies live side by side.
    ContentionPage* contentionPage() const { return contentionPage_; }
    bool startContention() { return contentionPage_->start(); }
    bool runContentionFor(sim::Time until, int frames) {
        return contentionPage_->runFor(until, frames);
    }
    bool contentionConfig(live::LiveConfig& config) { return contentionPage_->config(config); }
    ContentionController* contention() const { return contentionPage_->controller(); }
    views::ContentionControls* contentionControls() const { return contentionPage_->controls(); }
    views::ContentionView* contentionView(int side) const { return contentionPage_->view(side); }
    views::TreeView* contentionTree(int side) const { return contentionPage_->tree(side); }

    // PageHost: what the pages ask of the window.
    void showError(const QString& title, const QString& text) override;
    void showStatus(const QString& text, int timeoutMs) override;
    bool interactive() const override { return !headless_; }
    bool persists() const override { return persist_; }
    void showPage(QWidget* page) override { tabs_->setCurrentWidget(page); }

    // Which docks each view shows (hidden where the view does not use them).
    DockPlan* dockPlan() const { return dockPlan_; }
    // Fits the window to a screen's available area: the saved geometry if it lies inside,
    // else 1600x1000 centred, else (a smaller screen) maximised.
    void placeWithin(const QRect& available, const QByteArray& saved = {});

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildMenus();
    void buildDocks();
    void afterLoad();
    void fillFilePicker();
    void exportDialog();
    void exportFigureDialog();
    // The save dialog of both exports; the last path is kept under `key`. "" if cancelled.
    QString askExportPath(const QString& title, const QString& key, const QString& fallback);
    void buildThroughputTab();
    void showSettings();  // the session's settings into the controls that edit them

    session::Session session_;
    SourceLoader* loader_ = nullptr;
    Workshop* workshop_ = nullptr;
    TreePages* trees_ = nullptr;
    bool persist_;
    bool headless_ = false;
    QString lastError_;
    QTabWidget* tabs_ = nullptr;
    QListWidget* files_ = nullptr;
    ThroughputPage* throughputPage_ = nullptr;
    views::ParamsPanel* params_ = nullptr;
    views::TopologyView* topology_ = nullptr;
    ReplayPage* replayPage_ = nullptr;
    bool fillingFiles_ = false;
    ContentionPage* contentionPage_ = nullptr;
    ValidationDialog* validation_ = nullptr;
    // Every tab by its view name, in Scenario::viewNames() order: the one table setView, the
    // View menu and scenario saves read.
    std::vector<std::pair<QString, QWidget*>> pages_;
    std::map<QString, QList<QWidget*>> figures_;  // a view's drawing, by view name
    // What later parts of the set-up add to or arrange around, held rather than looked up.
    QDockWidget* filesDock_ = nullptr;
    QDockWidget* vmaDock_ = nullptr;
    QDockWidget* stepsDock_ = nullptr;
    QDockWidget* paramsDock_ = nullptr;
    DockPlan* dockPlan_ = nullptr;
    void buildPageTable();
    void buildDockPlan();
};

}  // namespace immap::gui
