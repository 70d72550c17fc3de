#pragma once
// One interval tree on screen: in-order layout, red/black discs ringed in the home node's
// colour, labels where there is room, a raster where there is not. Wheel zoom, drag pan,
// fit-to-window (F or double click), keyboard navigation (Up parent, Down left child,
// Shift+Down right child, Ctrl+Left/Right in-order neighbours). Given a B-tree (setBTree) it
// draws that instead, as boxes of slots (BTreeLayout, BTreePainter), with the same zoom, pan,
// fit, selection (Ctrl+Left/Right: the VMAs in key order) and export. It shows what it is given and
// emits what the user asks for; it never changes a tree.

#include <QHash>
#include <QVariantAnimation>
#include <QWidget>
#include <vector>

#include "BTreeLayout.h"
#include "BTreePainter.h"
#include "TreeLayout.h"
#include "TreePainter.h"
#include "session/DrawTree.h"
#include "session/StepPlayer.h"

namespace immap::views {

class TreeView : public QWidget {
    Q_OBJECT
public:
    explicit TreeView(QWidget* parent = nullptr);

    // animate: nodes glide from where they were (by VMA id) to where they are now.
    void setTree(session::DrawTree tree, bool animate = false);
    const session::DrawTree& tree() const { return tree_; }
    const TreeLayout& layout() const { return layout_; }
    // A B-tree instead of the rbtree, until the next setTree.
    void setBTree(session::DrawBTree tree);
    bool showsBTree() const { return btreeMode_; }
    const session::DrawBTree& btree() const { return btree_; }
    const BTreeLayout& btreeLayout() const { return blayout_; }
    void setBTreeHighlight(const session::BTreeHighlight& h);
    void setTitle(const QString& title, const QString& subtitle = {});
    // A legend of the fills and of `nodes` home-node colours (0 hides it).
    void setLegend(int nodes);
    void setHighlight(const session::StepHighlight& h);
    void clearHighlight();
    void setWalk(const std::vector<int>& visited, const std::vector<int>& matches,
                 const std::vector<int>& pruned);
    void setSelectedId(int id);  // -1: none
    int selectedId() const { return selectedId_; }
    void setMotionDuration(int ms) { motionMs_ = ms; }
    void finishMotion();
    bool moving() const { return motion_.state() == QAbstractAnimation::Running; }

    // The area the tree is fitted into (below the title).
    QRect treeArea() const;
    void fitToWindow();
    void zoomBy(double factor);
    // Fitted, then magnified `factor` times about the root, which stays where fitting put it
    // (a factor of 1 is fitted).
    void zoomOnRoot(double factor);
    // Paints the whole view (title, tree, legend) as paintEvent does.
    void paintTo(QPainter& p, const QRect& rect);

    QSize sizeHint() const override { return {640, 360}; }
    QSize minimumSizeHint() const override { return {120, 80}; }

signals:
    void nodeClicked(int id);
    void removeRequested(int id);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void leaveEvent(QEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void contextMenuEvent(QContextMenuEvent*) override;
    bool event(QEvent*) override;

private:
    void rebuildFlags();
    void select(int index, bool emitIt);
    void setFlag(int id, std::uint16_t flag);

public:
    // The legend's words for the bars (empty when every node in view is a disc).
    QString aggregateText() const;
    const TreeAggregate& aggregate() const { return aggregate_; }

private:
    QString tooltipFor(int index) const;
    QString btreeTooltip(int node, int slot) const;
    void panBy(const QPointF& d);
    int idAt(const QPointF& p) const;  // the VMA under p, either kind of tree; -1 none

    session::DrawTree tree_;
    TreeLayout layout_;
    int indexOf(int id) const {
        return id >= 0 && id < static_cast<int>(indexOfId_.size())
                   ? indexOfId_[static_cast<std::size_t>(id)]
                   : -1;
    }
    std::vector<int> indexOfId_;  // by entry id: node index, -1 when not in this tree
    std::vector<std::uint16_t> flags_;
    session::StepHighlight highlight_;
    std::vector<int> walkVisited_, walkMatches_, walkPruned_;
    int selectedId_ = -1;
    int hover_ = -1;
    QString title_, subtitle_;
    int legendNodes_ = 0;
    TreeAggregate aggregate_;  // what the last paint drew as bars, named in the legend
    bool fitted_ = true;
    double rootZoom_ = 0;  // zoomOnRoot()'s factor until the user zooms, pans or fits
    bool dragging_ = false;
    QPoint pressPos_, lastPos_;

    // Motion between two layouts: screen positions by node index of the new tree.
    QVariantAnimation motion_;
    QVariantAnimation flash_;  // subtree_last writes: 0 -> 1 as the burst settles
    double flashPhase_ = 1;
    std::vector<QPointF> from_, to_, now_;
    int motionMs_ = 450;

    bool btreeMode_ = false;
    session::DrawBTree btree_;
    BTreeLayout blayout_;
    session::BTreeHighlight bmark_;
    int bhover_ = -1;
};

}  // namespace immap::views
