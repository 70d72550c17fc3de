#pragma once
// The contention tab: two policies (default single against split-locks) run live on the loaded
// topology with the session's settings (cost model, seed, recipe, walkers), the same copies, in
// lockstep on one simulated clock (core/live), on a worker thread (ContentionController). Each
// side shows its per-CPU lanes and lock queues (ContentionView) over the file's tree as the ops
// land (TreeView). Shortcuts while the tab has focus: Ctrl+Return start, P pause/resume, . or
// Ctrl+Right step, Esc cancel. The policies and copies live in the session (its live choice).

#include <QLabel>
#include <QSplitter>
#include <QWidget>
#include <memory>

#include "ContentionController.h"
#include "PageHost.h"
#include "session/Session.h"
#include "views/ContentionControls.h"
#include "views/ContentionView.h"
#include "views/TreeView.h"

namespace immap::gui {

class ContentionPage : public QWidget {
    Q_OBJECT
public:
    ContentionPage(session::Session& session, PageHost& host, QWidget* parent = nullptr);

    bool start();
    // For --screenshot and tests: the same two runs advanced here, on this thread, to `until`
    // (simulated ns) in `frames` evenly spaced snapshots (the lanes' history).
    bool runFor(sim::Time until, int frames);
    // What the next live run starts with (false after an error, or with nothing loaded).
    bool config(live::LiveConfig& config);
    // The session's live choice into the controls (after a load or a scenario).
    void showChoice();

    ContentionController* controller() const { return controller_; }
    views::ContentionControls* controls() const { return controls_; }
    views::ContentionView* view(int side) const { return views_[side]; }
    views::TreeView* tree(int side) const { return trees_[side]; }
    // The drawing without the controls: the caption, both sides' lanes and trees.
    QWidget* figure() const { return figure_; }
    // What the last step did (the stepping run's events in words), or what the keys do now.
    QLabel* caption() const { return caption_; }

protected:
    // Large type (workshop mode) gives the lanes more of each column, so that twelve nodes'
    // summary lanes still hold the slide's type.
    void changeEvent(QEvent* e) override;

private:
    void takeChoice();
    void shareColumns();
    void show(const live::LiveSnapshot& s);
    void showCaption(const live::LiveSnapshot* s);

    session::Session& session_;
    PageHost& host_;
    views::ContentionControls* controls_ = nullptr;
    QWidget* figure_ = nullptr;
    QLabel* caption_ = nullptr;
    QWidget* sides_ = nullptr;
    views::ContentionView* views_[2] = {nullptr, nullptr};
    views::TreeView* trees_[2] = {nullptr, nullptr};
    QSplitter* columns_[2] = {nullptr, nullptr};
    ContentionController* controller_ = nullptr;
    std::shared_ptr<const session::DrawTree> treeShown_[2];
};

}  // namespace immap::gui
