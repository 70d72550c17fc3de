#include "MainWindow.h"

#include <map>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>
#include <iostream>

#include "FigureExportDialog.h"
#include "InsertVmaDialog.h"
#include "ValidationDialog.h"
#include "io/InputFile.h"
#include "session/FilesRead.h"
#include "session/Scenario.h"
#include "session/StepCaption.h"
#include "trace/Bookmarks.h"
#include "views/ScorecardModel.h"
#include "views/ScorecardPanel.h"
#include "views/ViewExporter.h"

namespace immap::gui {

using session::TreeId;

MainWindow::MainWindow(bool persist, QWidget* parent) : QMainWindow(parent), persist_(persist) {
    setWindowTitle(QStringLiteral("immap-lab"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    loader_ = new SourceLoader(session_, *this, this);
    connect(loader_, &SourceLoader::loaded, this, &MainWindow::afterLoad);
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    trees_ = new TreePages(session_, *this, tabs_, this);
    tabs_->addTab(trees_->split(), tr("Single + per-node trees"));
    tabs_->addTab(trees_->treePage(), tr("Single tree"));
    tabs_->addTab(trees_->table(), tr("VMA table"));
    setCentralWidget(tabs_);
    buildDocks();
    buildThroughputTab();  // after the docks: its parameters dock joins theirs
    replayPage_ = new ReplayPage(session_, *this, tabs_);
    tabs_->addTab(replayPage_, tr("Replay"));
    contentionPage_ = new ContentionPage(session_, *this, tabs_);
    tabs_->addTab(contentionPage_, tr("Contention"));
    workshop_ = new Workshop(session_, *this, *this, *loader_, *throughputPage_, *replayPage_);
    connect(workshop_, &Workshop::settingsReplaced, this, [this] {
        throughputPage_->reset();  // a sweep of the settings the scenario replaced
        showSettings();
    });
    buildPageTable();
    buildMenus();

    QByteArray savedGeometry;
    if (persist_) {
        QSettings s;
        savedGeometry = s.value("window/geometry").toByteArray();
        restoreState(s.value("window/state").toByteArray());
        trees_->controls()->setSpeedIndex(s.value("animation/speed", 2).toInt());
        trees_->animation()->setSpeed(trees_->controls()->speed());
    }
    // Screenshots and tests size the window themselves (offscreen, the "screen" is 800x800).
    if (persist_)
        placeWithin(screen()->availableGeometry(), savedGeometry);
    else
        resize(1600, 1000);
    buildDockPlan();
}

void MainWindow::placeWithin(const QRect& available, const QByteArray& saved) {
    // A saved geometry from a larger screen would put the Steps dock below a projector's edge.
    if (!saved.isEmpty() && restoreGeometry(saved) && available.contains(geometry())) return;
    setWindowState(windowState() & ~Qt::WindowMaximized);
    const QSize preferred(1600, 1000);
    // Room for a window manager's frame and title (about 40 px on common themes).
    const QSize room = available.size() - QSize(16, 48);
    if (preferred.width() <= room.width() && preferred.height() <= room.height()) {
        resize(preferred);
        move(available.center() - QPoint(preferred.width() / 2, preferred.height() / 2));
        return;
    }
    resize(preferred.boundedTo(available.size()));
    move(available.topLeft());
    // Smaller than the preferred size (a 1280x720 projector): the whole screen.
    setWindowState(windowState() | Qt::WindowMaximized);
}

void MainWindow::buildDockPlan() {
    // What each view uses: the trees their file picker, VMA list and step controls; the
    // table its file picker (its VMAs are the tab itself); the throughput plot its parameters.
    // The topology, replay and contention tabs need the whole window.
    dockPlan_ = new DockPlan(this);
    const QStringList trees = {QStringLiteral("split"), QStringLiteral("trees")};
    dockPlan_->add(filesDock_, trees + QStringList{QStringLiteral("table")});
    dockPlan_->add(paramsDock_, {QStringLiteral("throughput")});
    dockPlan_->add(vmaDock_, trees);
    dockPlan_->add(stepsDock_, trees);
    connect(tabs_, &QTabWidget::currentChanged, this,
            [this](int) { dockPlan_->apply(currentViewName()); });
    if (persist_) {
        QSettings s;
        s.beginGroup(QStringLiteral("docks"));
        for (const QString& view : s.childKeys())
            dockPlan_->choose(view, s.value(view).toStringList());
    }
    dockPlan_->apply(currentViewName());
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
    files_ = new QListWidget(this);
    files_->setAlternatingRowColors(true);
    connect(files_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (fillingFiles_ || row < 0) return;
        const auto order = session_.fileOrder();
        trees_->animation()->drop();
        session_.selectFile(order[static_cast<std::size_t>(row)]);
        trees_->showFile();
    });
    auto* filesDock = filesDock_ = new QDockWidget(tr("Mapped files"), this);
    filesDock->setObjectName(QStringLiteral("filesDock"));
    filesDock->setWidget(files_);
    addDockWidget(Qt::RightDockWidgetArea, filesDock);

    auto* vmaDock = vmaDock_ = new QDockWidget(tr("VMAs"), this);
    vmaDock->setObjectName(QStringLiteral("vmaDock"));
    vmaDock->setWidget(trees_->tableDock());
    addDockWidget(Qt::RightDockWidgetArea, vmaDock);
    tabifyDockWidget(filesDock, vmaDock);
    vmaDock->raise();
    resizeDocks({filesDock}, {380}, Qt::Horizontal);

    auto* stepsDock = stepsDock_ = new QDockWidget(tr("Steps"), this);
    stepsDock->setObjectName(QStringLiteral("stepsDock"));
    stepsDock->setWidget(trees_->controls());
    addDockWidget(Qt::BottomDockWidgetArea, stepsDock);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, loader_, &SourceLoader::openDialog);
    file->addAction(tr("Open &live host"), QKeySequence(tr("Ctrl+L")), this,
                    [this] { openSource(QStringLiteral("live")); });
    file->addAction(tr("Open &default scenario"), QKeySequence(tr("Ctrl+D")), this,
                    &MainWindow::loadDefault);
    loader_->setRecentMenu(file->addMenu(tr("Open &recent")));
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
    QAction* exportAction = file->addAction(tr("&Export view…"), QKeySequence(tr("Ctrl+E")), this,
                                            &MainWindow::exportDialog);
    file->addAction(tr("Export &figure…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                    &MainWindow::exportFigureDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    // One entry per tab, Ctrl+1 to Ctrl+7 in view-name order, labelled as its tab.
    for (std::size_t i = 0; i < pages_.size(); ++i) {
        const QString name = pages_[i].first;
        view->addAction(tabs_->tabText(tabs_->indexOf(pages_[i].second)),
                        QKeySequence(tr("Ctrl+%1").arg(i + 1)), this,
                        [this, name] { setView(name); });
    }
    view->addSeparator();
    view->addAction(tr("&Fit to window"), QKeySequence(tr("F")), trees_, &TreePages::fitToWindow);
    QMenu* policy = view->addMenu(tr("Split &policy"));
    for (const char* p :
         {"split-trees", "sharded:32", "sharded:64", "sharded:96", "btree", "btree+split-trees"})
        policy->addAction(QString::fromLatin1(p), this,
                          [this, p] { trees_->setSplitPolicy(QString::fromLatin1(p)); });
    view->addAction(tr("F&ind a VMA"), QKeySequence::Find, this, [this] {
        // The dock's filter, unless the table tab is showing its own.
        views::VmaTableView* t =
            tabs_->currentWidget() == trees_->table() ? trees_->table() : trees_->tableDock();
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
    AnimationController* a = trees_->animation();
    views::StepControls* steps = trees_->controls();
    add(tr("&Play / pause"), QKeySequence(Qt::Key_Space), [a] { a->togglePlay(); });
    add(tr("Step &back"), QKeySequence(Qt::Key_Left), [a] { a->back(); });
    add(tr("Step &forward"), QKeySequence(Qt::Key_Right), [a] { a->forward(); });
    add(tr("To the &start"), QKeySequence(Qt::Key_Home), [a] { a->toStart(); });
    add(tr("To the &end"), QKeySequence(Qt::Key_End), [a] { a->toEnd(); });
    add(tr("S&lower"), QKeySequence(Qt::Key_Minus),
        [steps] { steps->setSpeedIndex(steps->speedIndex() - 1); });
    add(tr("F&aster"), QKeySequence(Qt::Key_Plus), [steps] {
        steps->setSpeedIndex(steps->speedIndex() + 1);
    })->setShortcuts({QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)});  // unshifted +
    anim->addSeparator();
    add(tr("&Insert VMA…"), QKeySequence(Qt::Key_Insert), [this] { trees_->insertDialog(); });
    add(tr("&Remove selected VMA"), QKeySequence(Qt::Key_Delete),
        [this] { trees_->removeSelected(); });
    add(tr("e&xec a new process"), QKeySequence(tr("Ctrl+Shift+X")),
        [this] { trees_->execProcess(); });
    add(tr("rmap &walk of the selected VMA's pages"), QKeySequence(tr("W")),
        [this] { trees_->walkSelected(); });
    add(tr("Walk step: node, prune or find, tree"), QKeySequence(tr("G")),
        [this] { trees_->cycleWalkStride(); });
    // Esc belongs to the pages that show a walk: the Contention tab's Esc cancels its run.
    QAction* clearWalk = anim->addAction(tr("&Clear the walk"), QKeySequence(Qt::Key_Escape), this,
                                         [this] { trees_->clearWalk(); });
    clearWalk->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    for (QWidget* w : {static_cast<QWidget*>(trees_->split()), trees_->treePage(),
                       static_cast<QWidget*>(trees_->controls())})
        w->addAction(clearWalk);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Validation: the model against published measurements…"),
                    QKeySequence(tr("Ctrl+Shift+V")), this, [this] { showValidation(); });
    help->addAction(tr("&About immap-lab"), this, [this] {
        QMessageBox::about(this, tr("About immap-lab"),
                           tr("<b>immap-lab %1</b><p>The Linux kernel's per-file i_mmap interval "
                              "tree, rebuilt case for case, as one tree and split per NUMA "
                              "node.</p>")
                               .arg(QStringLiteral(IMMAP_VERSION)));
    });
    workshop_->addActions(file, exportAction, view);
}

void MainWindow::buildPageTable() {
    // The only place a view name meets its widget.
    const std::map<std::string, QWidget*> byName = {
        {"split", trees_->split()},      {"trees", trees_->treePage()}, {"table", trees_->table()},
        {"throughput", throughputPage_}, {"topology", topology_},       {"replay", replayPage_},
        {"contention", contentionPage_}};
    for (const std::string& n : session::Scenario::viewNames())
        pages_.push_back({QString::fromStdString(n), byName.at(n)});
    // Each view's drawing without its input fields, buttons and progress: what a slide shows.
    figures_ = {{QStringLiteral("split"), {trees_->split()}},
                {QStringLiteral("trees"), {trees_->treePage()}},
                {QStringLiteral("table"), {trees_->table()->table()}},
                {QStringLiteral("throughput"), {throughputPage_->view()}},
                {QStringLiteral("topology"), {topology_}},
                {QStringLiteral("replay"), {replayPage_->treeView(), replayPage_->timelineView()}},
                {QStringLiteral("contention"), {contentionPage_->figure()}}};
}

QList<QWidget*> MainWindow::currentFigure() const {
    const auto it = figures_.find(currentViewName());
    return it == figures_.end() ? QList<QWidget*>{} : it->second;
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

void MainWindow::showSlideDocks(const std::vector<std::string>& names) {
    // Scenario::dockNames() to the docks' object names: the only place they meet.
    static const std::map<std::string, QString> kObject = {
        {"files", QStringLiteral("filesDock")},
        {"vmas", QStringLiteral("vmaDock")},
        {"steps", QStringLiteral("stepsDock")},
        {"parameters", QStringLiteral("paramsDock")}};
    QStringList docks;
    for (const std::string& n : names)
        if (auto it = kObject.find(n); it != kObject.end()) docks << it->second;
    dockPlan_->showOnly(docks);
}

void MainWindow::restoreDocks() {
    dockPlan_->apply(currentViewName());
}

QString MainWindow::currentViewName() const {
    for (const auto& [n, page] : pages_)
        if (page == tabs_->currentWidget()) return n;
    return {};
}

void MainWindow::afterLoad() {
    trees_->animation()->drop();
    fillFilePicker();
    trees_->showFile();
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

// The throughput and topology tabs, and the Parameters dock, whose cost model every sweep,
// recording and live run uses (through the session); kept in the settings.
void MainWindow::buildThroughputTab() {
    topology_ = new views::TopologyView(tabs_);
    throughputPage_ = new ThroughputPage(session_, *this, topology_, tabs_);
    tabs_->addTab(throughputPage_, tr("Throughput"));
    tabs_->addTab(topology_, tr("Topology"));

    // The cost model's parameters; kept in the settings.
    params_ = new views::ParamsPanel(this);
    auto* dock = paramsDock_ = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName(QStringLiteral("paramsDock"));
    dock->setWidget(params_);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    tabifyDockWidget(filesDock_, dock);
    vmaDock_->raise();
    if (persist_) {
        QSettings settings;
        sim::CostParams p;
        std::string ignored;
        for (const auto& info : sim::CostParams::table()) {
            const QVariant v = settings.value(QStringLiteral("params/") + QLatin1String(info.name));
            if (v.isValid()) p.set(info.name, v.toDouble(), ignored);
        }
        session_.settings().params = p;
        params_->setParams(p);
    }
    connect(params_, &views::ParamsPanel::paramsChanged, this, [this](const sim::CostParams& p) {
        session_.settings().params = p;
        if (!persist_) return;
        QSettings settings;
        for (const auto& info : sim::CostParams::table())
            settings.setValue(QStringLiteral("params/") + QLatin1String(info.name),
                              p.*(info.field));
    });
}

void MainWindow::showSettings() {
    params_->setParams(session_.settings().params);
    throughputPage_->showGrid();
    contentionPage_->showChoice();
}

bool MainWindow::openMeasurements(const QString& path) {
    if (!throughputPage_->openMeasurements(path)) return false;
    setView(QStringLiteral("throughput"));
    return true;
}

// --- what the window does itself: errors, status, drops, closing, export ---------------

void MainWindow::showStatus(const QString& text, int timeoutMs) {
    statusBar()->showMessage(text, timeoutMs);
}

ValidationDialog* MainWindow::showValidation(bool run) {
    if (!validation_) validation_ = new ValidationDialog(*this, this);
    sim::ScorecardConfig config;
    config.params = session_.settings().params;  // the window's; unchanged ones are drawn
    validation_->setConfig(config);
    validation_->show();
    validation_->raise();
    validation_->activateWindow();
    if (run && !validation_->running() && !validation_->panel()->model()->ran())
        validation_->start();
    return validation_;
}

void MainWindow::showError(const QString& title, const QString& text) {
    lastError_ = text;
    if (headless_) {
        std::cerr << "immap-lab: " << text.toStdString() << '\n';
        return;
    }
    // open(), not exec(): the window stays live and tests can find the box without blocking.
    auto* box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const QList<QUrl> urls = e->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile()) return;
    e->acceptProposedAction();
    openPath(urls.first().toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (persist_) {
        QSettings s;
        s.setValue("window/geometry", saveGeometry());
        s.setValue("window/state", saveState());
        s.remove(QStringLiteral("docks"));
        for (const auto& [view, docks] : dockPlan_->choices())
            s.setValue(QStringLiteral("docks/") + view, docks);
        s.setValue("animation/speed", trees_->controls()->speedIndex());
    }
    QMainWindow::closeEvent(e);
}

std::vector<std::string> MainWindow::windowInputs() const {
    // Everything the window has read, and what those files name (session::FilesRead): no save
    // of the window's may replace any of them, the open trace and scenario included.
    session::FilesRead in;
    in.addSpec(session_.host().source);
    in.addSpec(session_.topologySpec());
    in.addTrace(tracePath().toStdString());
    in.addFile(session_.settings().recipePath);
    if (!workshop_->scenarioPath().isEmpty())
        in.addScenario(workshop_->scenarioPath().toStdString());
    in.addFile(throughputPage_->measuredPath().toStdString());
    return in.files();
}

bool MainWindow::exportView(const QString& path) {
    const QString error = views::ViewExporter::save(currentView(), path, windowInputs());
    if (!error.isEmpty()) {
        showError(tr("Export failed"), error);
        return false;
    }
    statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    return true;
}

bool MainWindow::exportFigure(const QString& path, QSize size, double scale) {
    const QString error =
        views::ViewExporter::saveFigure(currentFigure(), path, windowInputs(), size, scale);
    if (!error.isEmpty()) {
        showError(tr("Export failed"), error);
        return false;
    }
    statusBar()->showMessage(tr("Exported the figure to %1").arg(path), 5000);
    return true;
}

QString MainWindow::askExportPath(const QString& title, const QString& key,
                                  const QString& fallback) {
    QSettings s;
    const QString path = QFileDialog::getSaveFileName(
        this, title, s.value(key, fallback).toString(), views::ViewExporter::filters());
    if (!path.isEmpty() && persist_) s.setValue(key, path);
    return path;
}

void MainWindow::exportFigureDialog() {
    FigureExportDialog d(views::ViewExporter::figureSize(currentFigure()), this);
    if (d.exec() != QDialog::Accepted) return;
    const QString path = askExportPath(tr("Export the figure"), QStringLiteral("export/figure"),
                                       QStringLiteral("immap-figure.png"));
    if (!path.isEmpty()) exportFigure(path, d.figureSize(), d.scale());
}

void MainWindow::exportDialog() {
    const QString path = askExportPath(tr("Export the current view"), QStringLiteral("export/last"),
                                       QStringLiteral("immap-view.png"));
    if (!path.isEmpty()) exportView(path);
}

}  // namespace immap::gui
