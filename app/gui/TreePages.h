#pragma once
// The three tree tabs: the single tree beside the split trees (SplitView), the single tree alone
// over its page axis, and the VMA table; plus the VMA table and the step controls the window
// puts in docks. One class, because they show one TreeSet of the session with one selection
// and one animation (AnimationController): a click in any of them selects the VMA in all, and
// an insert, remove, exec, exit or rmap walk plays its kernel steps in each.

#include <QObject>
#include <cstdint>
#include <memory>

#include "AnimationController.h"
#include "PageHost.h"
#include "session/Session.h"
#include "session/WalkPlayer.h"
#include "views/PageAxis.h"
#include "views/SplitView.h"
#include "views/StepControls.h"
#include "views/TreeView.h"
#include "views/VmaTableView.h"

namespace immap::gui {

class TreePages : public QObject {
    Q_OBJECT
public:
    // The tab pages are made as children of `tabs`, the dock contents of `window`.
    TreePages(session::Session& session, PageHost& host, QWidget* tabs, QWidget* window);

    views::SplitView* split() const { return split_; }
    QWidget* treePage() const { return treePage_; }
    views::TreeView* tree() const { return tree_; }
    views::PageAxis* treeAxis() const { return treeAxis_; }
    views::VmaTableView* table() const { return table_; }
    views::VmaTableView* tableDock() const { return tableDock_; }
    views::StepControls* controls() const { return controls_; }
    AnimationController* animation() const { return anim_; }

    // Whether a new update starts playing at once (tests step it by hand).
    void setAutoplay(bool on) { autoplay_ = on; }
    // The session's file drawn afresh (after a load, a file or a policy chosen); no selection.
    void showFile();
    void refreshStatus();
    void fitToWindow();
    void zoomOnRoots(double factor);  // both tabs' trees (TreeView::zoomOnRoot)

    // Intents, from the views, the menus and the docks.
    void selectId(int id);
    int selectedId() const { return selected_; }
    void insertVma(const mapping::Vma& v);
    void removeVma(int id);
    void removeSelected() { removeVma(selected_); }
    void execProcess();
    void exitProcess(std::int64_t pid);
    void exitSelected();
    // An rmap walk of file pages [first, last] over every tree, ready to step through.
    void walkPages(itree::Index first, itree::Index last);
    void walkSelected();
    // Esc: the walk's overlay and its player go; the trees are as they were.
    void clearWalk();
    // The walk's stride (WalkPlayer::Stride as int), kept for the next walk too.
    void setWalkStride(int stride);
    void cycleWalkStride();
    void insertDialog();
    void setSplitPolicy(const QString& text);

private:
    void refreshTrees(bool motion);
    void showWalk(const session::WalkPlayer& walk);
    void showBTrees();
    void runOps(std::unique_ptr<session::Playback> player);

    session::Session& session_;
    PageHost& host_;
    views::SplitView* split_ = nullptr;
    QWidget* treePage_ = nullptr;
    views::TreeView* tree_ = nullptr;
    views::PageAxis* treeAxis_ = nullptr;
    views::VmaTableModel* model_ = nullptr;
    views::VmaTableView* table_ = nullptr;
    views::VmaTableView* tableDock_ = nullptr;
    views::StepControls* controls_ = nullptr;
    AnimationController* anim_ = nullptr;
    int selected_ = -1;
    bool autoplay_ = true;
    int walkStride_ = 0;
};

}  // namespace immap::gui
