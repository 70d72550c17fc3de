// MainWindow's contention tab: two policies (default single against split-locks) run live on
// the loaded topology with the session's settings (cost model, seed, recipe, walkers), the
// same copies,
// in lockstep on one simulated clock (core/live), on a worker thread (ContentionController).
// Each side shows its per-CPU lanes and lock queues (ContentionView) over libc's tree as the
// ops land (TreeView). Shortcuts while the tab has focus: Ctrl+Return start, P pause/resume,
// . or Ctrl+Right step, Esc cancel.
#include <QAction>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

#include "MainWindow.h"
#include "limits/UserReason.h"
#include "session/DefaultScenario.h"

namespace immap::gui {

void MainWindow::buildContentionTab() {
    contentionPage_ = new QWidget(tabs_);
    contentionControls_ = new views::ContentionControls(contentionPage_);
    auto* sides = new QSplitter(Qt::Horizontal, contentionPage_);
    for (int i = 0; i < 2; ++i) {
        auto* column = new QSplitter(Qt::Vertical, sides);
        contentionViews_[i] = new views::ContentionView(column);
        contentionTrees_[i] = new views::TreeView(column);
        contentionTrees_[i]->setMotionDuration(0);  // ops land many times a second
        column->setStretchFactor(0, 3);
        column->setStretchFactor(1, 2);
    }
    auto* box = new QVBoxLayout(contentionPage_);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(contentionControls_);
    box->addWidget(sides, 1);
    tabs_->addTab(contentionPage_, tr("Contention"));
    contention_ = new ContentionController(this);

    auto shortcut = [this](const QList<QKeySequence>& keys, auto slot) {
        auto* a = new QAction(contentionPage_);
        a->setShortcuts(keys);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        contentionPage_->addAction(a);
        connect(a, &QAction::triggered, this, slot);
    };
    auto toggle = [this] {
        if (!contention_->running()) return;
        contention_->togglePause();
        contentionControls_->setPaused(contention_->paused());
    };
    auto step = [this] {
        if (!contention_->running()) return;
        contention_->step();
        contentionControls_->setPaused(true);
    };
    auto cancel = [this] {
        contention_->cancel();
        contentionControls_->setRunning(false);
        contentionControls_->setStatus(tr("cancelled"));
    };
    shortcut({QKeySequence(tr("Ctrl+Return")), QKeySequence(tr("Ctrl+Enter"))},
             [this] { startContention(); });
    shortcut({QKeySequence(Qt::Key_P)}, toggle);
    shortcut({QKeySequence(Qt::Key_Period), QKeySequence(tr("Ctrl+Right"))}, step);
    shortcut({QKeySequence(Qt::Key_Escape)}, cancel);
    connect(contentionControls_, &views::ContentionControls::startRequested, this,
            [this] { startContention(); });
    connect(contentionControls_, &views::ContentionControls::playToggled, this, toggle);
    connect(contentionControls_, &views::ContentionControls::stepRequested, this, step);
    connect(contentionControls_, &views::ContentionControls::cancelRequested, this, cancel);
    connect(contentionControls_, &views::ContentionControls::choiceEdited, this,
            &MainWindow::takeLiveChoice);
    connect(contentionControls_, &views::ContentionControls::slowdownChanged, contention_,
            &ContentionController::setSlowdown);
    connect(contention_, &ContentionController::snapshotReady, this,
            [this](const LiveSnapshotPtr& s) { showContention(*s); });
    connect(contention_, &ContentionController::finished, this, [this] {
        contentionControls_->setRunning(false);
        contentionControls_->setStatus(tr("finished"));
    });
    connect(contention_, &ContentionController::failed, this, [this](const QString& reason) {
        contentionControls_->setRunning(false);
        showError(tr("The live run failed"), reason);
    });
}

void MainWindow::showLiveChoice() {
    const session::Session::LiveChoice& l = session_.live();
    contentionControls_->setPolicies(QString::fromStdString(l.policyA),
                                     QString::fromStdString(l.policyB));
    // On a new machine, one copy per CPU (./Run -c N as the proposal ran it).
    if (session_.loaded())
        contentionControls_->setCopies(static_cast<int>(session_.liveCopies()), 100000);
}

void MainWindow::takeLiveChoice() {
    session_.live() = {contentionControls_->policyA().toStdString(),
                       contentionControls_->policyB().toStdString(),
                       static_cast<unsigned>(contentionControls_->copies())};
}

bool MainWindow::contentionConfig(live::LiveConfig& c) {
    if (!session_.loaded()) return false;
    takeLiveChoice();  // what the controls show is what runs
    std::string error;
    mapping::Policy a, b;
    if (!mapping::Policy::parse(session_.live().policyA, a, error) ||
        !mapping::Policy::parse(session_.live().policyB, b, error)) {
        showError(tr("Cannot start the live run"), QString::fromStdString(error));
        return false;
    }
    c.policies = {a, b};
    c.run = session_.simConfig({}, session_.liveCopies());
    c.run.durationMs = live::LiveConfig::kLiveDurationMs;
    // The tree drawn: the file on show when the recipe maps it, else the recipe's first file.
    const sim::Recipe& recipe = c.run.recipe ? *c.run.recipe : sim::Recipe::builtinDefault();
    c.file = recipe.fileIndex(session_.file().name()) >= 0 ? session_.file().name()
             : recipe.files.empty()                        ? std::string(session::kDefaultFile)
                                                           : recipe.files.front().name;
    c.tree = 0;
    for (int i = 0; i < 2; ++i) {
        contentionViews_[i]->clear();
        contentionTreeShown_[i].reset();
    }
    return true;
}

bool MainWindow::startContention() {
    live::LiveConfig c;
    if (!contentionConfig(c)) return false;
    QString error;
    if (!contention_->start(*session_.host().topology, session_.settings().recipe, c,
                            contentionControls_->slowdown(), error)) {
        showError(tr("Cannot start the live run"), error);
        return false;
    }
    contentionControls_->setRunning(true);
    contentionControls_->setPaused(false);
    contentionControls_->setStatus(
        tr("running on %1").arg(QString::fromStdString(session_.host().topology->spec())));
    return true;
}

bool MainWindow::runContentionFor(sim::Time until, int frames) {
    live::LiveConfig c;
    if (!contentionConfig(c)) return false;
    contention_->cancel();
    try {
        const auto topo = *session_.host().topology;
        c.run.topology = &topo;
        live::LiveDriver d(c);
        frames = std::max(1, frames);
        for (int f = 1; f <= frames; ++f) {
            d.advanceTo(until * f / frames);
            showContention(d.snapshot(f == frames || f % 8 == 0));
        }
    } catch (...) {
        showError(tr("Cannot run the live simulation"),
                  QString::fromStdString(limits::UserReason::of(std::current_exception(),
                                                                "running the live simulation")));
        return false;
    }
    return true;
}

void MainWindow::showContention(const live::LiveSnapshot& s) {
    for (std::size_t i = 0; i < 2 && i < s.runs.size(); ++i) {
        const live::RunSnapshot& r = s.runs[i];
        contentionViews_[i]->setSnapshot(r, s.now);
        // The tree only when it was redrawn (the worker redraws it about 10 times a second).
        if (r.tree && r.tree != contentionTreeShown_[i]) {
            contentionTreeShown_[i] = r.tree;
            contentionTrees_[i]->setTree(*r.tree);
            contentionTrees_[i]->setTitle(
                tr("%1: %2").arg(QString::fromStdString(r.policy),
                                 QString::fromStdString(r.treeTitle)),
                tr("%L1 VMAs, height %2 · updated as the simulated ops land")
                    .arg(r.treeVmas)
                    .arg(r.tree->height));
        }
        if (!r.error.empty())
            statusBar()->showMessage(QString::fromStdString("live state: " + r.error), 5000);
    }
    contentionControls_->setPaused(s.paused);
    contentionControls_->setStatus(
        tr("t = %L1 µs simulated · %L2x slower%3%4")
            .arg(static_cast<double>(s.now) / 1000.0, 0, 'f', 1)
            .arg(s.slowdown, 0, 'f', 0)
            .arg(s.effectiveSlowdown > s.slowdown * 1.2
                     ? tr(" (achieved %L1x: the simulation cannot keep up)")
                           .arg(s.effectiveSlowdown, 0, 'f', 0)
                     : QString())
            .arg(s.paused     ? tr(" · paused")
                 : s.finished ? tr(" · finished")
                              : QString()));
}

}  // namespace immap::gui
