#pragma once
// The workshop side of the window: scenario files (open applies topology, source, file,
// settings, view and bookmarks, or shows an error and changes nothing; save writes the
// session as a scenario, atomically), workshop mode (full screen, the application font scaled,
// a caption bar) and stepping through the scenario's bookmarks (each shows its view and trace
// event, and its caption).

#include <QObject>
#include <QString>
#include <QtGlobal>

#include "session/Scenario.h"

class QAction;
class QFont;
class QLabel;
class QMainWindow;
class QMenu;
class QToolBar;

namespace immap::session {
class Session;
}

namespace immap::gui {

class PageHost;
class ReplayPage;
class SourceLoader;
class ThroughputPage;

class Workshop : public QObject {
    Q_OBJECT
public:
    Workshop(session::Session& session, PageHost& host, QMainWindow& window, SourceLoader& loader,
             ThroughputPage& throughput, ReplayPage& replay);
    ~Workshop() override;

    // Its actions: open and save in the File menu before `before`; workshop mode and the
    // bookmark keys at the end of the View menu.
    void addActions(QMenu* file, QAction* before, QMenu* view);

    bool openScenario(const QString& path);
    // `withResults`: with the runs of its sweep the run cache holds (ScenarioResults::known),
    // so that it opens with its throughput slides drawn. A scenario opened with results keeps
    // carrying those of its settings on any save.
    bool saveScenario(const QString& path, bool withResults = false);
    session::Scenario currentScenario() const;  // the window's state as a scenario
    const session::Scenario& scenario() const { return scenario_; }
    // The file the open scenario came from (empty: none opened, or it was not saved).
    const QString& scenarioPath() const { return scenarioPath_; }

    void setWorkshopMode(bool on);
    bool workshopMode() const { return on_; }
    static constexpr double kFontScale = 1.6;

    void showBookmark(int index);
    void nextBookmark() { showBookmark(bookmark_ + 1); }
    void previousBookmark() { showBookmark(bookmark_ - 1); }
    int currentBookmark() const { return bookmark_; }
    QLabel* captionLabel() const { return caption_; }

    // A scenario with a slide on the throughput tab starts its sweep as it opens, in the
    // background (the plot shows its progress), so that its slides show results rather than
    // "No sweep yet". On by default; --no-precompute turns it off.
    void setPrecompute(bool on) { precompute_ = on; }
    bool precompute() const { return precompute_; }
    static bool needsSweep(const session::Scenario& s);
    // Whether slide `index` shows the sweep's results: a throughput slide, or a topology slide
    // after one (the heat of its runs).
    static bool slideShowsSweep(const session::Scenario& s, int index);

signals:
    // A scenario replaced the session's settings: the controls that edit them show them anew.
    void settingsReplaced();

private:
    session::Session& session_;
    PageHost& host_;
    QMainWindow& window_;
    SourceLoader& loader_;
    ThroughputPage& throughput_;
    ReplayPage& replay_;
    session::Scenario scenario_;
    QString scenarioPath_;
    int bookmark_ = -1;
    bool on_ = false;
    bool precompute_ = true;
    int opened_ = 0;  // scenarios opened: a queued sweep start of an earlier one is dropped
    std::unique_ptr<QFont> normalFont_;
    Qt::WindowStates stateBefore_;
    QToolBar* captionBar_ = nullptr;
    QLabel* caption_ = nullptr;
    QAction* workshopAction_ = nullptr;
    QAction* nextAction_ = nullptr;
    QAction* previousAction_ = nullptr;
};

}  // namespace immap::gui
