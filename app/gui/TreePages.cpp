#include "TreePages.h"

#include <QHeaderView>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "InsertVmaDialog.h"

namespace immap::gui {

using session::TreeId;

TreePages::TreePages(session::Session& session, PageHost& host, QWidget* tabs, QWidget* window)
    : QObject(window), session_(session), host_(host) {
    anim_ = new AnimationController(this);
    model_ = new views::VmaTableModel(this);
    split_ = new views::SplitView(tabs);
    treePage_ = new QWidget(tabs);
    tree_ = new views::TreeView(treePage_);
    treeAxis_ = new views::PageAxis(treePage_);
    auto* treeBox = new QVBoxLayout(treePage_);
    treeBox->setContentsMargins(0, 0, 0, 0);
    treeBox->setSpacing(0);
    treeBox->addWidget(tree_, 1);
    treeBox->addWidget(treeAxis_);
    table_ = new views::VmaTableView(model_, tabs);
    tableDock_ = new views::VmaTableView(model_, window);
    tableDock_->table()->setColumnHidden(views::VmaTableModel::Address, true);
    QTableView* t = tableDock_->table();
    t->setColumnWidth(views::VmaTableModel::Pid, 62);
    t->setColumnWidth(views::VmaTableModel::Comm, 72);
    t->setColumnWidth(views::VmaTableModel::Pgoff, 118);
    t->setColumnWidth(views::VmaTableModel::Perms, 46);
    t->setColumnWidth(views::VmaTableModel::Node, 48);
    controls_ = new views::StepControls(window);

    for (views::TreeView* v : {split_->single(), tree_})
        v->setLegend(0);
    connect(split_, &views::SplitView::nodeClicked, this, &TreePages::selectId);
    connect(split_, &views::SplitView::removeRequested, this, &TreePages::removeVma);
    connect(tree_, &views::TreeView::nodeClicked, this, &TreePages::selectId);
    connect(tree_, &views::TreeView::removeRequested, this, &TreePages::removeVma);
    for (views::PageAxis* a : {split_->pageAxis(), treeAxis_})
        connect(a, &views::PageAxis::rangeChosen, this,
                [this](quint64 first, quint64 last) { walkPages(first, last); });
    for (views::VmaTableView* v : {table_, tableDock_})
        connect(v, &views::VmaTableView::idSelected, this, &TreePages::selectId);
    connect(anim_, &AnimationController::changed, this, &TreePages::refreshTrees);
    connect(anim_, &AnimationController::playingChanged, controls_,
            &views::StepControls::setPlaying);
    connect(controls_, &views::StepControls::playToggled, anim_, &AnimationController::togglePlay);
    connect(controls_, &views::StepControls::stepBack, anim_, &AnimationController::back);
    connect(controls_, &views::StepControls::stepForward, anim_, &AnimationController::forward);
    connect(controls_, &views::StepControls::toStart, anim_, &AnimationController::toStart);
    connect(controls_, &views::StepControls::toEnd, anim_, &AnimationController::toEnd);
    connect(controls_, &views::StepControls::seek, anim_, &AnimationController::seek);
    connect(controls_, &views::StepControls::speedChanged, anim_, &AnimationController::setSpeed);
    connect(controls_, &views::StepControls::strideChanged, this, &TreePages::setWalkStride);
    connect(controls_, &views::StepControls::insertRequested, this, &TreePages::insertDialog);
    connect(controls_, &views::StepControls::removeSelectedRequested, this,
            &TreePages::removeSelected);
    connect(controls_, &views::StepControls::execRequested, this, &TreePages::execProcess);
    connect(controls_, &views::StepControls::exitRequested, this, &TreePages::exitSelected);
}

void TreePages::fitToWindow() {
    split_->fitToWindow();
    tree_->fitToWindow();
}

void TreePages::zoomOnRoots(double factor) {
    split_->zoomOnRoots(factor);
    tree_->zoomOnRoot(factor);
}

void TreePages::exitSelected() {
    if (selected_ < 0) {
        host_.showStatus(tr("Select a VMA first: exit ends its process."), 4000);
        return;
    }
    exitProcess(session_.trees().entry(selected_).vma.pid);
}

void TreePages::walkSelected() {
    if (selected_ < 0) return;
    const auto& v = session_.trees().entry(selected_).vma;
    walkPages(v.first(), v.last());
}

void TreePages::showFile() {
    selected_ = -1;
    const session::TreeSet& set = session_.trees();
    split_->setPartCount(static_cast<int>(set.splitCount()));
    const int nodes = static_cast<int>(session_.host().topology->nodeCount());
    split_->single()->setLegend(nodes);
    tree_->setLegend(nodes);
    model_->setTreeSet(&set);
    for (views::PageAxis* a : {split_->pageAxis(), treeAxis_}) {
        a->setBars(set.pageBars());
        a->clearRange();
    }
    refreshTrees(false);
    split_->fitToWindow();
    tree_->fitToWindow();
    refreshStatus();
}

void TreePages::refreshTrees(bool motion) {
    if (!session_.loaded()) return;
    const session::TreeSet& set = session_.trees();
    split_->setPartCount(static_cast<int>(set.splitCount()));
    const auto* player = dynamic_cast<const session::StepPlayer*>(anim_->player());
    const session::StepHighlight h = player ? player->highlight() : session::StepHighlight{};
    const int ms = std::min(450, anim_->interval() * 2 / 3);
    auto drawOf = [&](TreeId t) {
        return player && player->touches(t) ? player->draw(t)
                                            : session::DrawTree::of(set.tree(t), set);
    };
    // A step (motion) changes only the trees its player touches; a walk changes none. Skipping
    // the rest keeps a step's cost to the trees that move.
    auto changed = [&](TreeId t) { return !motion || (player && player->touches(t)); };
    auto show = [&](views::TreeView* v, TreeId t, const session::DrawTree& d, const QString& title,
                    const QString& subtitle) {
        v->setMotionDuration(ms);
        if (changed(t)) v->setTree(d, motion);
        v->setTitle(title, subtitle);
        v->setSelectedId(selected_);
        v->setWalk({}, {}, {});
        if (h.tree == t)
            v->setHighlight(h);
        else
            v->clearHighlight();
    };
    const QLocale loc;
    const QString fileName = QString::fromStdString(set.file().name());
    const bool sharded = set.splitPolicy().kind == mapping::Policy::Kind::Sharded;
    if (set.hasBTrees()) {
        showBTrees();
    } else {
        const session::DrawTree single =
            changed(session::kSingleTree) ? drawOf(session::kSingleTree) : split_->single()->tree();
        const QString singleSub = tr("%1 VMAs · height %2 · one tree, one rwsem")
                                      .arg(loc.toString(qulonglong(single.nodes.size())))
                                      .arg(single.height);
        show(split_->single(), session::kSingleTree, single,
             tr("single i_mmap tree of %1").arg(fileName), singleSub);
        show(tree_, session::kSingleTree, single, tr("single i_mmap tree of %1").arg(fileName),
             singleSub);
        for (std::size_t i = 0; i < set.splitCount(); ++i) {
            const TreeId t = static_cast<TreeId>(i + 1);
            views::TreeView* v = split_->part(static_cast<int>(i));
            const session::DrawTree d = changed(t) ? drawOf(t) : v->tree();
            show(v, t, d, (sharded ? tr("shard %1") : tr("node %1")).arg(i),
                 tr("%1 VMAs · h %2").arg(loc.toString(qulonglong(d.nodes.size()))).arg(d.height));
        }
    }
    const mapping::Policy& pol = set.splitPolicy();
    const std::size_t n = set.splitCount();
    const mapping::Policy locks{mapping::Policy::Kind::SplitLocks, 0};
    const QString trees = n == 1 ? tr("1 tree") : tr("%1 trees").arg(n);
    QString heading =
        sharded ? tr("Sharded (%1): %2, one lock each under a top-level rwsem · +%3 B per inode")
                      .arg(QString::fromStdString(pol.name()), trees)
                      .arg(pol.memoryPerInodeBytes(n))
                : tr("Per-node trees (proposal): %1 · +%2 B per inode with one lock (v1), +%3 B "
                     "with a lock per tree (v2)")
                      .arg(trees)
                      .arg(pol.memoryPerInodeBytes(n))
                      .arg(locks.memoryPerInodeBytes(n));
    // The single-node case, said plainly: the split changes nothing but the memory.
    if (n == 1) heading += tr(" · one NUMA node: the split tree is the single tree");
    if (set.hasBTrees())
        heading = tr("B-tree index (%1): every tree below is the B+tree the review suggested, "
                     "not the kernel's rbtree · ")
                      .arg(QString::fromStdString(pol.name())) +
                  heading;
    split_->setHeading(heading);
    const auto* walk = dynamic_cast<const session::WalkPlayer*>(anim_->player());
    if (walk) showWalk(*walk);
    controls_->setStrideShown(walk != nullptr);
    if (const session::Playback* pb = anim_->player()) {
        controls_->setPosition(static_cast<int>(pb->position()), static_cast<int>(pb->count()));
        controls_->setCaption(QString::fromStdString(pb->caption()));
    } else {
        controls_->setPosition(0, 0);
        controls_->setCaption(
            tr("Insert or remove a VMA (or run exec / exit) to watch the kernel's steps."));
    }
}

void TreePages::showBTrees() {
    const session::TreeSet& set = session_.trees();
    const auto* player = dynamic_cast<const session::BTreePlayer*>(anim_->player());
    const QLocale loc;
    auto show = [&](views::TreeView* v, TreeId t, const QString& title, bool wide) {
        if (player && player->touches(t))
            v->setBTree(player->draw(t));
        else
            v->setBTree(session::DrawBTree::of(set.btree(t),
                                               [&set](const btree::Item* item, int& id, int& home) {
                                                   set.describe(item, id, home);
                                               }));
        // Of the picture shown (mid-animation it is not the tree's last state).
        const session::DrawBTree& d = v->btree();
        const double perVma =
            d.items ? static_cast<double>(d.linkBytes) / static_cast<double>(d.items) : 0;
        const QString items = loc.toString(qulonglong(d.items));
        v->setTitle(title, wide ? tr("%1 VMAs · height %2 · %3 nodes of %4 slots · %5 B per VMA "
                                     "with its back pointer (rbtree: 32)")
                                      .arg(items)
                                      .arg(d.height)
                                      .arg(loc.toString(qulonglong(d.nodes.size())))
                                      .arg(btree::kFanout)
                                      .arg(perVma, 0, 'f', 1)
                                : tr("%1 VMAs · h %2").arg(items).arg(d.height));
        v->setSelectedId(selected_);
        v->setBTreeHighlight(player ? player->highlight(t) : session::BTreeHighlight{});
    };
    const QString fileName = QString::fromStdString(set.file().name());
    show(split_->single(), session::kSingleTree, tr("single B-tree index of %1").arg(fileName),
         true);
    show(tree_, session::kSingleTree, tr("single B-tree index of %1").arg(fileName), true);
    const bool sharded = set.splitPolicy().kind == mapping::Policy::Kind::Sharded;
    for (std::size_t i = 0; i < set.splitCount(); ++i)
        show(split_->part(static_cast<int>(i)), static_cast<TreeId>(i + 1),
             (sharded ? tr("shard %1") : tr("node %1")).arg(i), false);
}

void TreePages::showWalk(const session::WalkPlayer& walk) {
    const session::TreeId current = walk.currentTree();
    auto mark = [&](views::TreeView* v, session::TreeId t) {
        const session::WalkPlayer::State st = walk.state(t);
        v->setWalk(st.visited, st.matches, st.pruned);
        session::StepHighlight h;
        if (t == current && st.current >= 0) h.focus.push_back(st.current);
        v->setHighlight(h);
    };
    mark(split_->single(), session::kSingleTree);
    mark(tree_, session::kSingleTree);
    for (int i = 0; i < split_->partCount(); ++i)
        mark(split_->part(i), i + 1);
    for (views::PageAxis* a : {split_->pageAxis(), treeAxis_})
        a->setRange(walk.first(), walk.last());
}

void TreePages::walkPages(itree::Index first, itree::Index last) {
    if (session_.trees().hasBTrees()) {
        auto walk = session_.walkBTrees(first, last);
        host_.showStatus(tr("rmap walk of pages [0x%1, 0x%2] over the B-trees: %3 steps")
                             .arg(QString::number(first, 16), QString::number(last, 16))
                             .arg(walk->count()),
                         15000);
        for (views::PageAxis* a : {split_->pageAxis(), treeAxis_})
            a->setRange(first, last);
        anim_->start(std::move(walk), autoplay_ && host_.interactive());
        return;
    }
    auto walk = std::make_unique<session::WalkPlayer>(session_.trees(), first, last);
    walk->setStride(static_cast<session::WalkPlayer::Stride>(walkStride_));
    host_.showStatus(QString::fromStdString(walk->summary()), 15000);
    anim_->start(std::move(walk), autoplay_ && host_.interactive());
}

void TreePages::clearWalk() {
    const auto* frames = dynamic_cast<const session::BTreePlayer*>(anim_->player());
    if (!dynamic_cast<const session::WalkPlayer*>(anim_->player()) &&
        !(frames && frames->isQuery()))
        return;
    anim_->drop();
    for (views::PageAxis* a : {split_->pageAxis(), treeAxis_})
        a->clearRange();
}

void TreePages::setWalkStride(int stride) {
    walkStride_ = std::clamp(stride, 0, 2);
    if (controls_->strideIndex() != walkStride_) controls_->setStrideIndex(walkStride_);
    if (auto* walk = dynamic_cast<session::WalkPlayer*>(anim_->player()))
        walk->setStride(static_cast<session::WalkPlayer::Stride>(walkStride_));
}

void TreePages::cycleWalkStride() {
    setWalkStride((walkStride_ + 1) % 3);
}

void TreePages::refreshStatus() {
    const auto& host = session_.host();
    const session::TreeSet& set = session_.trees();
    const QLocale loc;
    QString topo = QString::fromStdString(host.topologyOrigin);
    if (!host.topology->note().empty()) topo += tr(" (assumed shape)");
    host_.showStatus(
        tr("%1 · %2 · %3 NUMA nodes, %4 CPUs · topology %5 · %6: %7 VMAs")
            .arg(QString::fromStdString(host.source))
            .arg(tr("%1 processes").arg(loc.toString(qulonglong(host.mappings.processes().size()))))
            .arg(host.topology->nodeCount())
            .arg(host.topology->pus().size())
            .arg(topo)
            .arg(QString::fromStdString(set.file().name()))
            .arg(loc.toString(qulonglong(set.liveCount()))),
        0);
}

void TreePages::selectId(int id) {
    selected_ = id;
    split_->setSelectedId(id);
    tree_->setSelectedId(id);
    table_->selectId(id);
    tableDock_->selectId(id);
    if (id >= 0 && id < static_cast<int>(session_.trees().entryCount())) {
        const auto& e = session_.trees().entry(id);
        host_.showStatus(tr("Selected pid %1 (%2) pages [0x%3, 0x%4] %5, node %6 by %7")
                             .arg(e.vma.pid)
                             .arg(QString::fromStdString(e.comm))
                             .arg(QString::number(e.vma.first(), 16))
                             .arg(QString::number(e.vma.last(), 16))
                             .arg(QString::fromLatin1(e.vma.perms))
                             .arg(e.vma.homeNode)
                             .arg(QString::fromLatin1(mapping::evidenceName(e.vma.evidence))),
                         6000);
    }
}

void TreePages::runOps(std::unique_ptr<session::Playback> player) {
    anim_->drop();
    model_->refresh();
    for (views::PageAxis* a : {split_->pageAxis(), treeAxis_}) {
        a->setBars(session_.trees().pageBars());
        a->clearRange();
    }
    anim_->start(std::move(player), autoplay_ && host_.interactive());
    selectId(selected_ >= 0 && session_.trees().entry(selected_).alive ? selected_ : -1);
    refreshStatus();
}

void TreePages::insertVma(const mapping::Vma& v) {
    session::TreeOp op;
    op.vma = v;
    op.comm = "inserted";
    runOps(session_.run({op}));
}

void TreePages::removeVma(int id) {
    if (id < 0 || id >= static_cast<int>(session_.trees().entryCount()) ||
        !session_.trees().entry(id).alive) {
        host_.showStatus(tr("Select a VMA first (click a node or a table row)."), 4000);
        return;
    }
    session::TreeOp op;
    op.kind = session::TreeOp::Kind::Remove;
    op.id = id;
    selected_ = -1;
    runOps(session_.run({op}));
}

void TreePages::execProcess() {
    const std::int64_t pid = session_.freshPid();
    const int nodes =
        static_cast<int>(std::max<std::size_t>(1, session_.host().topology->nodeCount()));
    // Spread new processes over the nodes as the scheduler spreads execl copies.
    const int node = static_cast<int>(pid % nodes);
    runOps(session_.runRecipe(session::ExecRecipe{}, pid, node));
    host_.showStatus(tr("exec: pid %1 maps libc's five segments on node %2").arg(pid).arg(node),
                     6000);
}

void TreePages::exitProcess(std::int64_t pid) {
    if (session_.trees().idsOfPid(pid).empty()) return;
    selected_ = -1;
    runOps(session_.runRecipe(session::ExitRecipe{}, pid, 0));
    host_.showStatus(tr("exit: pid %1 unmaps this file").arg(pid), 6000);
}

void TreePages::insertDialog() {
    InsertVmaDialog d(session_.freshPid(), static_cast<int>(session_.host().topology->nodeCount()),
                      split_->window());
    if (d.exec() == QDialog::Accepted) insertVma(d.vma());
}

void TreePages::setSplitPolicy(const QString& text) {
    mapping::Policy p;
    std::string error;
    if (!mapping::Policy::parse(text.toStdString(), p, error)) {
        host_.showError(tr("Split policy"), QString::fromStdString(error));
        return;
    }
    anim_->drop();
    session_.setSplitPolicy(p);
    showFile();
}

}  // namespace immap::gui
