#include "TreeView.h"

#include <QLocale>
#include "FontScale.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "NodePalette.h"

namespace immap::views {

namespace {
constexpr int kTitleHeight = 24;
constexpr int kMargin = 10;
}  // namespace

TreeView::TreeView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    motion_.setStartValue(0.0);
    motion_.setEndValue(1.0);
    motion_.setEasingCurve(QEasingCurve::InOutCubic);
    connect(&motion_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
        const double t = v.toDouble();
        for (std::size_t i = 0; i < now_.size(); ++i)
            now_[i] = from_[i] + (to_[i] - from_[i]) * t;
        update();
    });
    flash_.setStartValue(0.0);
    flash_.setEndValue(1.0);
    flash_.setDuration(600);
    flash_.setEasingCurve(QEasingCurve::OutQuad);
    connect(&flash_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
        flashPhase_ = v.toDouble();
        update();
    });
    connect(&motion_, &QVariantAnimation::finished, this, [this] {
        now_.clear();
        update();
    });
}

QRect TreeView::treeArea() const {
    // Room at the bottom for the legend when there is one.
    return rect().adjusted(kMargin, kTitleHeight + 6, -kMargin, legendNodes_ > 0 ? -40 : -6);
}

void TreeView::setBTree(session::DrawBTree tree) {
    const bool was = btreeMode_;
    btreeMode_ = true;
    motion_.stop();
    now_.clear();
    tree_ = {};
    indexOfId_.clear();
    flags_.clear();
    const BTreeLayout old = blayout_;
    btree_ = std::move(tree);
    blayout_ = BTreeLayout::of(btree_);
    if (fitted_ || !was)
        blayout_.fit(treeArea());
    else
        blayout_.keepView(old);
    bhover_ = -1;
    update();
}

void TreeView::setBTreeHighlight(const session::BTreeHighlight& h) {
    bmark_ = h;
    // Keep the step's node on screen when zoomed in.
    const int i = h.focus.node;
    if (!fitted_ && i >= 0 && i < static_cast<int>(btree_.nodes.size())) {
        const QRect area = treeArea();
        const QPointF c = blayout_.box(i).center();
        if (!area.contains(c.toPoint()))
            blayout_.pan(QPointF(QPointF(area.center()).x() - c.x(), 0));
    }
    update();
}

void TreeView::panBy(const QPointF& d) {
    layout_.pan(d);
    blayout_.pan(d);
}

int TreeView::idAt(const QPointF& p) const {
    if (!btreeMode_) {
        const int i = layout_.nodeAt(p);
        return i >= 0 ? tree_.nodes[static_cast<std::size_t>(i)].id : -1;
    }
    const auto [node, slot] = blayout_.slotAt(p);
    if (node < 0) return -1;
    const auto& n = btree_.nodes[static_cast<std::size_t>(node)];
    return n.leaf && slot < n.count() ? n.id[static_cast<std::size_t>(slot)] : -1;
}

void TreeView::setTree(session::DrawTree tree, bool animate) {
    if (btreeMode_) {
        btreeMode_ = false;
        btree_ = {};
        bmark_ = {};
        animate = false;
        fitted_ = true;
    }
    // Old screen positions by VMA id, for motion.
    QHash<int, QPointF> before;
    if (animate && motionMs_ > 0) {
        for (std::size_t i = 0; i < tree_.nodes.size(); ++i)
            before.insert(tree_.nodes[i].id,
                          now_.empty() ? layout_.center(static_cast<int>(i)) : now_[i]);
    }
    motion_.stop();
    now_.clear();
    const TreeLayout old = layout_;
    tree_ = std::move(tree);
    layout_ = TreeLayout::of(tree_);
    if (fitted_) {
        layout_.fit(treeArea());
    } else {
        layout_.keepView(old);
    }
    // Ids are dense entry ids, so a vector beats a hash for 100,000 nodes.
    int maxId = -1;
    for (const auto& n : tree_.nodes)
        maxId = std::max(maxId, n.id);
    indexOfId_.assign(static_cast<std::size_t>(maxId + 1), -1);
    for (std::size_t i = 0; i < tree_.nodes.size(); ++i)
        if (tree_.nodes[i].id >= 0)
            indexOfId_[static_cast<std::size_t>(tree_.nodes[i].id)] = static_cast<int>(i);
    hover_ = -1;
    rebuildFlags();
    if (!before.isEmpty()) {
        const std::size_t n = tree_.nodes.size();
        from_.resize(n);
        to_.resize(n);
        bool moves = false;
        for (std::size_t i = 0; i < n; ++i) {
            to_[i] = layout_.center(static_cast<int>(i));
            from_[i] = before.value(tree_.nodes[i].id, to_[i]);
            moves = moves || from_[i] != to_[i];
        }
        if (moves) {
            now_ = from_;
            motion_.setDuration(motionMs_);
            motion_.start();
        }
    }
    update();
}

void TreeView::finishMotion() {
    if (motion_.state() == QAbstractAnimation::Running) motion_.stop();
    flash_.stop();
    flashPhase_ = 1;
    now_.clear();
    update();
}

void TreeView::setTitle(const QString& title, const QString& subtitle) {
    title_ = title;
    subtitle_ = subtitle;
    update();
}

void TreeView::setLegend(int nodes) {
    legendNodes_ = nodes;
    if (fitted_) layout_.fit(treeArea());
    update();
}

void TreeView::setHighlight(const session::StepHighlight& h) {
    highlight_ = h;
    // Zoomed in, follow the action: bring the step's node back on screen if it left.
    if (!fitted_ && !h.focus.empty()) {
        const int i = indexOf(h.focus.front());
        const QRect area = treeArea();
        if (i >= 0 && !area.contains(layout_.center(i).toPoint()))
            layout_.pan(QPointF(area.center()) - layout_.center(i));
    }
    flash_.stop();
    flashPhase_ = 1;
    if (!h.flash.empty() && isVisible()) {
        flashPhase_ = 0;
        flash_.start();
    }
    rebuildFlags();
    update();
}

void TreeView::clearHighlight() {
    bmark_ = {};
    setHighlight({});
}

void TreeView::setWalk(const std::vector<int>& visited, const std::vector<int>& matches,
                       const std::vector<int>& pruned) {
    walkVisited_ = visited;
    walkMatches_ = matches;
    walkPruned_ = pruned;
    rebuildFlags();
    update();
}

void TreeView::setSelectedId(int id) {
    if (id == selectedId_) return;
    selectedId_ = id;
    rebuildFlags();
    update();
}

void TreeView::setFlag(int id, std::uint16_t flag) {
    const int i = indexOf(id);
    if (i >= 0) flags_[static_cast<std::size_t>(i)] |= flag;
}

void TreeView::rebuildFlags() {
    flags_.assign(tree_.nodes.size(), 0);
    for (int id : highlight_.path)
        setFlag(id, kFlagPath);
    for (int id : highlight_.focus)
        setFlag(id, kFlagFocus);
    for (int id : highlight_.flash)
        setFlag(id, kFlagFlash);
    for (int id : highlight_.recolored)
        setFlag(id, kFlagRecolor);
    for (int id : walkVisited_)
        setFlag(id, kFlagVisited);
    for (int id : walkMatches_)
        setFlag(id, kFlagMatch);
    for (int id : walkPruned_)
        setFlag(id, kFlagPruned);
    if (selectedId_ >= 0) setFlag(selectedId_, kFlagSelected);
    if (hover_ >= 0 && hover_ < static_cast<int>(flags_.size()))
        flags_[static_cast<std::size_t>(hover_)] |= kFlagHover;
}

void TreeView::fitToWindow() {
    fitted_ = true;
    rootZoom_ = 0;
    now_.clear();
    layout_.fit(treeArea());
    blayout_.fit(treeArea());
    update();
}

void TreeView::zoomBy(double factor) {
    fitted_ = false;
    rootZoom_ = 0;
    const QPointF anchor = indexOf(selectedId_) >= 0 ? layout_.center(indexOf(selectedId_))
                                                     : QPointF(treeArea().center());
    layout_.zoomAt(anchor, factor);
    blayout_.zoomAt(QPointF(treeArea().center()), factor);
    update();
}

void TreeView::zoomOnRoot(double factor) {
    fitToWindow();
    if (btreeMode_) return;  // the B-tree's upper levels are drawn readable when fitted
    const int root = tree_.root;
    if (factor <= 1 || root < 0 || root >= static_cast<int>(tree_.nodes.size())) return;
    fitted_ = false;
    rootZoom_ = factor;
    // About the root's x and the tree's top edge: the rows grow downwards, so the root and its
    // label stay in the pane.
    layout_.zoomAt(
        QPointF(layout_.center(root).x(), layout_.rowTop.front() * layout_.sy + layout_.oy),
        factor);
    update();
}

QString TreeView::aggregateText() const {
    if (aggregate_.nodes == 0) return {};
    const QLocale loc;
    const QString depths =
        aggregate_.minDepth == aggregate_.maxDepth
            ? tr("depth %1").arg(aggregate_.minDepth)
            : tr("depth %1-%2").arg(aggregate_.minDepth).arg(aggregate_.maxDepth);
    return tr("%1: %2 nodes too close for discs at this zoom, one bar per pixel column and "
              "level, black to red by the share of red nodes in it (zoom in for discs)")
        .arg(depths, loc.toString(aggregate_.nodes));
}

void TreeView::paintTo(QPainter& p, const QRect& rect) {
    p.fillRect(rect, NodePalette::background());
    if (btreeMode_) {
        BTreeDecor decor;
        decor.mark = &bmark_;
        decor.selectedId = selectedId_;
        decor.hoverNode = bhover_;
        BTreePainter::paint(p, btree_, blayout_, decor, treeArea());
        aggregate_ = {};
    }
    TreeDecor decor;
    decor.flags = &flags_;
    decor.flashPhase = flashPhase_;
    if (!now_.empty()) decor.positions = &now_;
    if (highlight_.pending >= 0) {
        decor.pending = &highlight_.pendingNode;
        const int near = highlight_.path.empty() ? -1 : highlight_.path.back();
        decor.pendingNear = indexOf(near);
    }
    if (!btreeMode_) aggregate_ = TreePainter::paint(p, tree_, layout_, decor, rect);
    // Title band on top of the tree (the tree may be panned under it).
    QFont f = font();
    f.setPixelSize(scaledPx(13));
    f.setBold(true);
    p.setFont(f);
    const QFontMetrics fm(f);
    p.fillRect(QRect(rect.left(), rect.top(), rect.width(), kTitleHeight),
               QColor(0xf0, 0xf1, 0xf3));
    p.setPen(QColor(0x20, 0x20, 0x20));
    p.drawText(QRect(rect.left() + kMargin, rect.top(), rect.width(), kTitleHeight),
               Qt::AlignVCenter | Qt::AlignLeft, title_);
    if (!subtitle_.isEmpty()) {
        QFont s = font();
        s.setPixelSize(scaledPx(12));
        p.setFont(s);
        p.setPen(QColor(0x55, 0x55, 0x55));
        // Elided rather than cut mid-word in a narrow per-node pane; the title's tooltip has it.
        const int left = rect.left() + kMargin + fm.horizontalAdvance(title_) + 12;
        const int room = rect.right() - kMargin - left;
        p.drawText(QRect(left, rect.top(), std::max(0, room), kTitleHeight),
                   Qt::AlignVCenter | Qt::AlignLeft,
                   QFontMetrics(s).elidedText(subtitle_, Qt::ElideRight, std::max(0, room)));
    }
    if (btreeMode_ ? btree_.nodes.empty() : tree_.nodes.empty()) {
        p.setPen(QColor(0x88, 0x88, 0x88));
        p.drawText(rect.adjusted(0, kTitleHeight, 0, 0), Qt::AlignCenter, tr("(empty tree)"));
    }
    if (legendNodes_ > 0 && btreeMode_)
        BTreePainter::paintLegend(p, rect, legendNodes_, !bmark_.empty(), !bmark_.visited.empty());
    else if (legendNodes_ > 0)
        TreePainter::paintLegend(p, rect, legendNodes_, aggregateText(),
                                 !walkVisited_.empty() || !walkPruned_.empty(),
                                 !highlight_.focus.empty() || !highlight_.path.empty());
}

void TreeView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintTo(p, rect());
}

void TreeView::resizeEvent(QResizeEvent*) {
    if (rootZoom_ > 1)
        zoomOnRoot(rootZoom_);  // a slide's zoom holds at the size the view gets
    else if (fitted_)
        layout_.fit(treeArea());
    if (fitted_) blayout_.fit(treeArea());
}

void TreeView::wheelEvent(QWheelEvent* e) {
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) return;
    fitted_ = false;
    rootZoom_ = 0;
    finishMotion();
    layout_.zoomAt(e->position(), std::pow(1.25, steps));
    blayout_.zoomAt(e->position(), std::pow(1.25, steps));
    update();
    e->accept();
}

void TreeView::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton) {
        pressPos_ = lastPos_ = e->position().toPoint();
        dragging_ = false;
    }
    setFocus(Qt::MouseFocusReason);
}

void TreeView::mouseMoveEvent(QMouseEvent* e) {
    const QPoint pos = e->position().toPoint();
    if (e->buttons() & Qt::LeftButton) {
        if (!dragging_ && (pos - pressPos_).manhattanLength() > 3) dragging_ = true;
        if (dragging_) {
            fitted_ = false;
            rootZoom_ = 0;
            finishMotion();
            panBy(pos - lastPos_);
            lastPos_ = pos;
            setCursor(Qt::ClosedHandCursor);
            update();
        }
        return;
    }
    if (btreeMode_) {
        const int h = blayout_.slotAt(pos).first;
        if (h != bhover_) {
            bhover_ = h;
            update();
        }
        return;
    }
    const int h = layout_.nodeAt(pos);
    if (h != hover_) {
        hover_ = h;
        rebuildFlags();
        update();
    }
}

void TreeView::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    unsetCursor();
    if (!dragging_ && btreeMode_) {
        if (const int id = idAt(e->position()); id >= 0) {
            setSelectedId(id);
            emit nodeClicked(id);
        }
    } else if (!dragging_) {
        const int i = layout_.nodeAt(e->position());
        if (i >= 0) select(i, true);
    }
    dragging_ = false;
}

void TreeView::mouseDoubleClickEvent(QMouseEvent*) {
    fitToWindow();
}

void TreeView::leaveEvent(QEvent*) {
    if (hover_ >= 0) {
        hover_ = -1;
        rebuildFlags();
        update();
    }
}

void TreeView::select(int index, bool emitIt) {
    if (index < 0 || index >= static_cast<int>(tree_.nodes.size())) return;
    const int id = tree_.nodes[static_cast<std::size_t>(index)].id;
    setSelectedId(id);
    // Keep the selection on screen when navigating by keyboard.
    const QPointF c = layout_.center(index);
    const QRect area = treeArea();
    if (!area.contains(c.toPoint())) {
        fitted_ = false;
        rootZoom_ = 0;
        layout_.pan(QPointF(area.center()) - c);
    }
    update();
    if (emitIt) emit nodeClicked(id);
}

void TreeView::keyPressEvent(QKeyEvent* e) {
    const int cur = indexOf(selectedId_);
    auto go = [&](int target) {
        if (target >= 0) select(target, true);
    };
    const auto& nodes = tree_.nodes;
    auto at = [&](int i) -> const session::DrawNode& { return nodes[static_cast<std::size_t>(i)]; };
    if (btreeMode_ && (e->key() == Qt::Key_Left || e->key() == Qt::Key_Right) &&
        (e->modifiers() & Qt::ControlModifier)) {
        // The previous or next VMA in key order, across leaves, as the rbtree's in-order
        // neighbours.
        const int id = btree_.stepFrom(selectedId_, e->key() == Qt::Key_Left ? -1 : 1);
        if (id < 0) return;
        setSelectedId(id);
        const auto [node, slot] = btree_.slotOfId(id);
        const QRect area = treeArea();
        const QPointF c = blayout_.slotRect(node, slot).center();
        if (!area.contains(c.toPoint()))
            blayout_.pan(QPointF(QPointF(area.center()).x() - c.x(), 0));
        update();
        emit nodeClicked(id);
        return;
    }
    switch (e->key()) {
        case Qt::Key_F:
            fitToWindow();
            return;
        case Qt::Key_Up:
            go(cur < 0 ? tree_.root : at(cur).parent);
            return;
        case Qt::Key_Down:
            if (cur < 0) {
                go(tree_.root);
            } else {
                const auto& n = at(cur);
                go(e->modifiers() & Qt::ShiftModifier ? n.right : (n.left >= 0 ? n.left : n.right));
            }
            return;
        case Qt::Key_Left:
        case Qt::Key_Right:
            if (e->modifiers() & Qt::ControlModifier) {
                const int step = e->key() == Qt::Key_Left ? -1 : 1;
                go(cur < 0 ? tree_.root
                           : std::clamp(cur + step, 0, static_cast<int>(nodes.size()) - 1));
                return;
            }
            break;
        case Qt::Key_Equal:
        case Qt::Key_Plus:
            if (e->modifiers() & Qt::ControlModifier) {
                zoomBy(1.5);
                return;
            }
            break;
        case Qt::Key_Minus:
            if (e->modifiers() & Qt::ControlModifier) {
                zoomBy(1 / 1.5);
                return;
            }
            break;
        case Qt::Key_Delete:
            if (selectedId_ >= 0) {
                emit removeRequested(selectedId_);
                return;
            }
            break;
        default:
            break;
    }
    QWidget::keyPressEvent(e);
}

void TreeView::contextMenuEvent(QContextMenuEvent* e) {
    QMenu menu(this);
    if (const int id = idAt(e->pos()); id >= 0) {
        menu.addAction(tr("Remove this VMA"), this, [this, id] { emit removeRequested(id); });
        menu.addSeparator();
    }
    menu.addAction(tr("Fit to window"), this, &TreeView::fitToWindow);
    menu.exec(e->globalPos());
}

QString TreeView::tooltipFor(int i) const {
    const auto& n = tree_.nodes[static_cast<std::size_t>(i)];
    return tr("<b>pid %1</b> · %2<br>interval %3<br>subtree_last %4<br>home node %5 · rank "
              "%6 · depth %7")
        .arg(n.pid)
        .arg(n.red ? tr("red") : tr("black"))
        .arg(TreePainter::intervalText(n))
        .arg(QStringLiteral("0x") + QString::number(n.subtreeLast, 16))
        .arg(n.homeNode)
        .arg(i)
        .arg(n.depth);
}

QString TreeView::btreeTooltip(int node, int slot) const {
    const auto& n = btree_.nodes[static_cast<std::size_t>(node)];
    const QString where = n.leaf ? tr("leaf") : tr("inner node");
    const QString head = tr("<b>%1</b> · level %2 · %3 of %4 slots used")
                             .arg(where)
                             .arg(n.level)
                             .arg(n.count())
                             .arg(btree_.capacity);
    if (slot < 0 || slot >= n.count()) return head;
    const auto u = static_cast<std::size_t>(slot);
    if (n.leaf)
        return head + tr("<br>slot %1: VMA [%2, %3], home node %4")
                          .arg(slot)
                          .arg(BTreePainter::hex(n.key[u]), BTreePainter::hex(n.last[u]))
                          .arg(n.home[u]);
    return head + tr("<br>child %1: starts at or after %2; max last under it %3")
                      .arg(slot)
                      .arg(slot == 0 ? tr("the node's own bound") : BTreePainter::hex(n.key[u]))
                      .arg(BTreePainter::hex(n.last[u]));
}

bool TreeView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = btreeMode_ ? -1 : layout_.nodeAt(help->pos());
        const auto [bn, bs] = btreeMode_ ? blayout_.slotAt(help->pos()) : std::pair{-1, -1};
        if (help->pos().y() < kTitleHeight && !subtitle_.isEmpty())
            QToolTip::showText(help->globalPos(), title_ + QStringLiteral(" · ") + subtitle_, this);
        else if (bn >= 0)
            QToolTip::showText(help->globalPos(), btreeTooltip(bn, bs), this);
        else if (i >= 0)
            QToolTip::showText(help->globalPos(), tooltipFor(i), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

}  // namespace immap::views
