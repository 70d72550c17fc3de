#include "MainWindow.h"

#include <map>

#include <QFileDialog>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

#include "InsertVmaDialog.h"
#include "session/Scenario.h"
#include "session/StepCaption.h"

namespace immap::gui {

using session::TreeId;

MainWindow::MainWindow(bool persist, QWidget* parent) : QMainWindow(parent), persist_(persist) {
    setWindowTitle(QStringLiteral("immap-lab"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    anim_ = new AnimationController(this);
    model_ = new views::VmaTableModel(this);

    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    split_ = new views::SplitView(tabs_);
    treePage_ = new QWidget(tabs_);
    tree_ = new views::TreeView(treePage_);
    treeAxis_ = new views::PageAxis(treePage_);
    auto* treeBox = new QVBoxLayout(treePage_);
    treeBox->setContentsMargins(0, 0, 0, 0);
    treeBox->setSpacing(0);
    treeBox->addWidget(tree_, 1);
    treeBox->addWidget(treeAxis_);
    table_ = new views::VmaTableView(model_, tabs_);
    tabs_->addTab(split_, tr("Single + per-node trees"));
    tabs_->addTab(treePage_, tr("Single tree"));
    tabs_->addTab(table_, tr("VMA table"));
    setCentralWidget(tabs_);
    buildDocks();
    buildThroughputTab();  // after the docks: its parameters dock joins theirs
    replayPage_ = new ReplayPage(session_, *this, tabs_);
    tabs_->addTab(replayPage_, tr("Replay"));
    contentionPage_ = new ContentionPage(session_, *this, tabs_);
    tabs_->addTab(contentionPage_, tr("Contention"));
    buildPageTable();
    buildMenus();
    buildScenarioUi();

    for (views::TreeView* v : {split_->single(), tree_})
        v->setLegend(0);
    connect(split_, &views::SplitView::nodeClicked, this, &MainWindow::selectId);
    connect(split_, &views::SplitView::removeRequested, this, &MainWindow::removeVma);
    connect(tree_, &views::TreeView::nodeClicked, this, &MainWindow::selectId);
    connect(tree_, &views::TreeView::removeRequested, this, &MainWindow::removeVma);
    for (views::PageAxis* a : {split_->pageAxis(), treeAxis_})
        connect(a, &views::PageAxis::rangeChosen, this,
                [this](quint64 first, quint64 last) { walkPages(first, last); });
    for (views::VmaTableView* t : {table_, tableDock_})
        connect(t, &views::VmaTableView::idSelected, this, &MainWindow::selectId);
    connect(anim_, &AnimationController::changed, this, &MainWindow::refreshTrees);
    connect(anim_, &AnimationController::playingChanged, controls_,
            &views::StepControls::setPlaying);
    connect(controls_, &views::StepControls::playToggled, anim_, &AnimationController::togglePlay);
    connect(controls_, &views::StepControls::stepBack, anim_, &AnimationController::back);
    connect(controls_, &views::StepControls::stepForward, anim_, &AnimationController::forward);
    connect(controls_, &views::StepControls::toStart, anim_, &AnimationController::toStart);
    connect(controls_, &views::StepControls::toEnd, anim_, &AnimationController::toEnd);
    connect(controls_, &views::StepControls::seek, anim_, &AnimationController::seek);
    connect(controls_, &views::StepControls::speedChanged, anim_, &AnimationController::setSpeed);
    connect(controls_, &views::StepControls::insertRequested, this, &MainWindow::insertDialog);
    connect(controls_, &views::StepControls::removeSelectedRequested, this,
            [this] { removeVma(selected_); });
    connect(controls_, &views::StepControls::execRequested, this, &MainWindow::execProcess);
    connect(controls_, &views::StepControls::exitRequested, this, [this] {
        if (selected_ < 0) {
            statusBar()->showMessage(tr("Select a VMA first: exit ends its process."), 4000);
            return;
        }
        exitProcess(session_.trees().entry(selected_).vma.pid);
    });

    resize(1600, 1000);
    if (persist_) {
        QSettings s;
        restoreGeometry(s.value("window/geometry").toByteArray());
        restoreState(s.value("window/state").toByteArray());
        controls_->setSpeedIndex(s.value("animation/speed", 2).toInt());
        anim_->setSpeed(controls_->speed());
        rebuildRecentMenu();
    }
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
    files_ = new QListWidget(this);
    files_->setAlternatingRowColors(true);
    connect(files_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (fillingFiles_ || row < 0) return;
        const auto order = session_.fileOrder();
        anim_->drop();
        session_.selectFile(order[static_cast<std::size_t>(row)]);
        showFile();
    });
    auto* filesDock = filesDock_ = new QDockWidget(tr("Mapped files"), this);
    filesDock->setObjectName(QStringLiteral("filesDock"));
    filesDock->setWidget(files_);
    addDockWidget(Qt::RightDockWidgetArea, filesDock);

    tableDock_ = new views::VmaTableView(model_, this);
    tableDock_->table()->setColumnHidden(views::VmaTableModel::Address, true);
    auto* vmaDock = vmaDock_ = new QDockWidget(tr("VMAs"), this);
    vmaDock->setObjectName(QStringLiteral("vmaDock"));
    vmaDock->setWidget(tableDock_);
    addDockWidget(Qt::RightDockWidgetArea, vmaDock);
    tabifyDockWidget(filesDock, vmaDock);
    vmaDock->raise();
    resizeDocks({filesDock}, {380}, Qt::Horizontal);
    QTableView* t = tableDock_->table();
    t->setColumnWidth(views::VmaTableModel::Pid, 62);
    t->setColumnWidth(views::VmaTableModel::Comm, 72);
    t->setColumnWidth(views::VmaTableModel::Pgoff, 118);
    t->setColumnWidth(views::VmaTableModel::Perms, 46);
    t->setColumnWidth(views::VmaTableModel::Node, 48);
    // The table tab already shows every VMA: the side shows the file picker then.
    connect(tabs_, &QTabWidget::currentChanged, this, [this, filesDock, vmaDock](int) {
        (tabs_->currentWidget() == table_ ? filesDock : vmaDock)->raise();
    });

    controls_ = new views::StepControls(this);
    auto* stepsDock = new QDockWidget(tr("Steps"), this);
    stepsDock->setObjectName(QStringLiteral("stepsDock"));
    stepsDock->setWidget(controls_);
    addDockWidget(Qt::BottomDockWidgetArea, stepsDock);
}

void MainWindow::buildMenus() {
    QMenu* file = fileMenu_ = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    file->addAction(tr("Open &live host"), QKeySequence(tr("Ctrl+L")), this,
                    [this] { openSource(QStringLiteral("live")); });
    file->addAction(tr("Open &default scenario"), QKeySequence(tr("Ctrl+D")), this,
                    &MainWindow::loadDefault);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("Open &trace…"), QKeySequence(tr("Ctrl+T")), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open a native trace"), QString(),
                                         tr("immap traces (*.trace);;All files (*)"));
        if (!path.isEmpty()) openTrace(path);
    });
    file->addAction(tr("Re&cord a simulation…"), this, [this] { replayPage_->recordDialog(); });
    file->addAction(tr("Open &measurements…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Measured execl figures (immap bench execl --output)"), QString(),
            tr("JSON (*.json);;All files (*)"));
        if (!path.isEmpty()) openMeasurements(path);
    });
    file->addSeparator();
    exportAction_ = file->addAction(tr("&Export view…"), QKeySequence(tr("Ctrl+E")), this,
                                    &MainWindow::exportDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = viewMenu_ = menuBar()->addMenu(tr("&View"));
    // One entry per tab, Ctrl+1 to Ctrl+7 in view-name order, labelled as its tab.
    for (std::size_t i = 0; i < pages_.size(); ++i) {
        const QString name = pages_[i].first;
        view->addAction(tabs_->tabText(tabs_->indexOf(pages_[i].second)),
                        QKeySequence(tr("Ctrl+%1").arg(i + 1)), this,
                        [this, name] { setView(name); });
    }
    view->addSeparator();
    view->addAction(tr("&Fit to window"), QKeySequence(tr("F")), this, [this] {
        split_->fitToWindow();
        tree_->fitToWindow();
    });
    QMenu* policy = view->addMenu(tr("Split &policy"));
    for (const char* p : {"split-trees", "sharded:32", "sharded:64", "sharded:96"})
        policy->addAction(QString::fromLatin1(p), this,
                          [this, p] { setSplitPolicy(QString::fromLatin1(p)); });
    view->addAction(tr("F&ind a VMA"), QKeySequence::Find, this, [this] {
        // The dock's filter, unless the table tab is showing its own.
        views::VmaTableView* t = tabs_->currentWidget() == table_ ? table_ : tableDock_;
        if (auto* dock = qobject_cast<QDockWidget*>(t->parentWidget())) {
            dock->show();
            dock->raise();
        }
        t->filter()->setFocus();
        t->filter()->selectAll();
    });
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());

    QMenu* anim = menuBar()->addMenu(tr("&Animation"));
    auto add = [&](const QString& text, const QKeySequence& key, auto slot) {
        QAction* a = anim->addAction(text, key, this, slot);
        a->setShortcutContext(Qt::WindowShortcut);
        return a;
    };
    add(tr("&Play / pause"), QKeySequence(Qt::Key_Space), [this] { anim_->togglePlay(); });
    add(tr("Step &back"), QKeySequence(Qt::Key_Left), [this] { anim_->back(); });
    add(tr("Step &forward"), QKeySequence(Qt::Key_Right), [this] { anim_->forward(); });
    add(tr("To the &start"), QKeySequence(Qt::Key_Home), [this] { anim_->toStart(); });
    add(tr("To the &end"), QKeySequence(Qt::Key_End), [this] { anim_->toEnd(); });
    add(tr("S&lower"), QKeySequence(Qt::Key_Minus),
        [this] { controls_->setSpeedIndex(controls_->speedIndex() - 1); });
    add(tr("F&aster"), QKeySequence(Qt::Key_Plus), [this] {
        controls_->setSpeedIndex(controls_->speedIndex() + 1);
    })->setShortcuts({QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)});  // unshifted +
    anim->addSeparator();
    add(tr("&Insert VMA…"), QKeySequence(Qt::Key_Insert), [this] { insertDialog(); });
    add(tr("&Remove selected VMA"), QKeySequence(Qt::Key_Delete), [this] { removeVma(selected_); });
    add(tr("e&xec a new process"), QKeySequence(tr("Ctrl+Shift+X")), [this] { execProcess(); });
    add(tr("rmap &walk of the selected VMA's pages"), QKeySequence(tr("W")), [this] {
        if (selected_ < 0) return;
        const auto& v = session_.trees().entry(selected_).vma;
        walkPages(v.first(), v.last());
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About immap-lab"), this, [this] {
        QMessageBox::about(this, tr("About immap-lab"),
                           tr("<b>immap-lab %1</b><p>The Linux kernel's per-file i_mmap interval "
                              "tree, rebuilt case for case, as one tree and split per NUMA "
                              "node.</p>")
                               .arg(QStringLiteral(IMMAP_VERSION)));
    });
}

void MainWindow::buildPageTable() {
    // The only place a view name meets its widget.
    const std::map<std::string, QWidget*> byName = {{"split", split_},
                                                    {"trees", treePage_},
                                                    {"table", table_},
                                                    {"throughput", throughputPage_},
                                                    {"topology", topology_},
                                                    {"replay", replayPage_},
                                                    {"contention", contentionPage_}};
    for (const std::string& n : session::Scenario::viewNames())
        pages_.push_back({QString::fromStdString(n), byName.at(n)});
}

bool MainWindow::setView(const QString& name) {
    const QString wanted = name == QLatin1String("tree") ? QStringLiteral("trees") : name;
    for (const auto& [n, page] : pages_)
        if (n == wanted) {
            tabs_->setCurrentWidget(page);
            return true;
        }
    return false;
}

QString MainWindow::currentViewName() const {
    for (const auto& [n, page] : pages_)
        if (page == tabs_->currentWidget()) return n;
    return {};
}

void MainWindow::afterLoad() {
    anim_->drop();
    selected_ = -1;
    fillFilePicker();
    showFile();
    const auto& host = session_.host();
    setWindowTitle(tr("immap-lab — %1").arg(QString::fromStdString(host.source)));
    showSettings();  // the load reset the copy counts to the machine's
    topology_->setTopology(*host.topology);
}

void MainWindow::fillFilePicker() {
    fillingFiles_ = true;
    files_->clear();
    const QLocale loc;
    int current = 0;
    const auto order = session_.fileOrder();
    for (std::size_t k = 0; k < order.size(); ++k) {
        const mapping::MappedFile& f = session_.files()[order[k]];
        auto* item = new QListWidgetItem(tr("%1   %2 VMAs · %3 processes")
                                             .arg(QString::fromStdString(f.name()))
                                             .arg(loc.toString(qulonglong(f.vmas.size())))
                                             .arg(loc.toString(qulonglong(f.processes))));
        item->setToolTip(QString::fromStdString(f.path + " (" + f.device() + " inode " +
                                                std::to_string(f.inode) + ")"));
        files_->addItem(item);
        if (order[k] == session_.fileIndex()) current = static_cast<int>(k);
    }
    files_->setCurrentRow(current);
    fillingFiles_ = false;
}

void MainWindow::showFile() {
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

void MainWindow::refreshTrees(bool motion) {
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
    const session::DrawTree single =
        changed(session::kSingleTree) ? drawOf(session::kSingleTree) : split_->single()->tree();
    const QString singleSub = tr("%1 VMAs · height %2 · one tree, one rwsem")
                                  .arg(loc.toString(qulonglong(single.nodes.size())))
                                  .arg(single.height);
    show(split_->single(), session::kSingleTree, single,
         tr("single i_mmap tree of %1").arg(fileName), singleSub);
    show(tree_, session::kSingleTree, single, tr("single i_mmap tree of %1").arg(fileName),
         singleSub);
    const bool sharded = set.splitPolicy().kind == mapping::Policy::Kind::Sharded;
    for (std::size_t i = 0; i < set.splitCount(); ++i) {
        const TreeId t = static_cast<TreeId>(i + 1);
        views::TreeView* v = split_->part(static_cast<int>(i));
        const session::DrawTree d = changed(t) ? drawOf(t) : v->tree();
        show(v, t, d, (sharded ? tr("shard %1") : tr("node %1")).arg(i),
             tr("%1 VMAs · h %2").arg(loc.toString(qulonglong(d.nodes.size()))).arg(d.height));
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
    split_->setHeading(heading);
    if (const auto* walk = dynamic_cast<const session::WalkPlayer*>(anim_->player()))
        showWalk(*walk);
    if (const session::Playback* pb = anim_->player()) {
        controls_->setPosition(static_cast<int>(pb->position()), static_cast<int>(pb->count()));
        controls_->setCaption(QString::fromStdString(pb->caption()));
    } else {
        controls_->setPosition(0, 0);
        controls_->setCaption(
            tr("Insert or remove a VMA (or run exec / exit) to watch the kernel's steps."));
    }
}

void MainWindow::showWalk(const session::WalkPlayer& walk) {
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

void MainWindow::walkPages(itree::Index first, itree::Index last) {
    auto walk = std::make_unique<session::WalkPlayer>(session_.trees(), first, last);
    statusBar()->showMessage(QString::fromStdString(walk->summary()), 15000);
    anim_->start(std::move(walk), autoplay_ && !headless_);
}

void MainWindow::refreshStatus() {
    const auto& host = session_.host();
    const session::TreeSet& set = session_.trees();
    const QLocale loc;
    QString topo = QString::fromStdString(host.topologyOrigin);
    if (!host.topology->note().empty()) topo += tr(" (assumed shape)");
    statusBar()->showMessage(
        tr("%1 · %2 · %3 NUMA nodes, %4 CPUs · topology %5 · %6: %7 VMAs")
            .arg(QString::fromStdString(host.source))
            .arg(tr("%1 processes").arg(loc.toString(qulonglong(host.mappings.processes().size()))))
            .arg(host.topology->nodeCount())
            .arg(host.topology->pus().size())
            .arg(topo)
            .arg(QString::fromStdString(set.file().name()))
            .arg(loc.toString(qulonglong(set.liveCount()))));
}

void MainWindow::selectId(int id) {
    selected_ = id;
    split_->setSelectedId(id);
    tree_->setSelectedId(id);
    table_->selectId(id);
    tableDock_->selectId(id);
    if (id >= 0 && id < static_cast<int>(session_.trees().entryCount())) {
        const auto& e = session_.trees().entry(id);
        statusBar()->showMessage(
            tr("Selected pid %1 (%2) pages [0x%3, 0x%4] %5, node %6 by %7")
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

void MainWindow::runOps(std::unique_ptr<session::StepPlayer> player) {
    anim_->drop();
    model_->refresh();
    for (views::PageAxis* a : {split_->pageAxis(), treeAxis_}) {
        a->setBars(session_.trees().pageBars());
        a->clearRange();
    }
    anim_->start(std::move(player), autoplay_ && !headless_);
    selectId(selected_ >= 0 && session_.trees().entry(selected_).alive ? selected_ : -1);
    refreshStatus();
}

void MainWindow::insertVma(const mapping::Vma& v) {
    session::TreeOp op;
    op.vma = v;
    op.comm = "inserted";
    runOps(session_.run({op}));
}

void MainWindow::removeVma(int id) {
    if (id < 0 || id >= static_cast<int>(session_.trees().entryCount()) ||
        !session_.trees().entry(id).alive) {
        statusBar()->showMessage(tr("Select a VMA first (click a node or a table row)."), 4000);
        return;
    }
    session::TreeOp op;
    op.kind = session::TreeOp::Kind::Remove;
    op.id = id;
    selected_ = -1;
    runOps(session_.run({op}));
}

void MainWindow::execProcess() {
    const std::int64_t pid = session_.freshPid();
    const int nodes =
        static_cast<int>(std::max<std::size_t>(1, session_.host().topology->nodeCount()));
    // Spread new processes over the nodes as the scheduler spreads execl copies.
    const int node = static_cast<int>(pid % nodes);
    runOps(session_.runRecipe(session::ExecRecipe{}, pid, node));
    statusBar()->showMessage(
        tr("exec: pid %1 maps libc's five segments on node %2").arg(pid).arg(node), 6000);
}

void MainWindow::exitProcess(std::int64_t pid) {
    if (session_.trees().idsOfPid(pid).empty()) return;
    selected_ = -1;
    runOps(session_.runRecipe(session::ExitRecipe{}, pid, 0));
    statusBar()->showMessage(tr("exit: pid %1 unmaps this file").arg(pid), 6000);
}

void MainWindow::insertDialog() {
    InsertVmaDialog d(session_.freshPid(), static_cast<int>(session_.host().topology->nodeCount()),
                      this);
    if (d.exec() == QDialog::Accepted) insertVma(d.vma());
}

void MainWindow::setSplitPolicy(const QString& text) {
    mapping::Policy p;
    std::string error;
    if (!mapping::Policy::parse(text.toStdString(), p, error)) {
        showError(tr("Split policy"), QString::fromStdString(error));
        return;
    }
    anim_->drop();
    session_.setSplitPolicy(p);
    showFile();
}

}  // namespace immap::gui
