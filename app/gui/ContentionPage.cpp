#include "ContentionPage.h"

#include <QAction>
#include <QSplitter>
#include <QVBoxLayout>

#include "limits/UserReason.h"
#include "mapping/Policy.h"
#include "session/DefaultScenario.h"
#include "views/FontScale.h"

namespace immap::gui {

ContentionPage::ContentionPage(session::Session& session, PageHost& host, QWidget* parent)
    : QWidget(parent), session_(session), host_(host) {
    controls_ = new views::ContentionControls(this);
    figure_ = new QWidget(this);
    caption_ = new QLabel(figure_);
    caption_->setObjectName(QStringLiteral("contentionCaption"));
    caption_->setWordWrap(true);
    caption_->setTextFormat(Qt::PlainText);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    caption_->setContentsMargins(8, 4, 8, 4);
    caption_->setAutoFillBackground(true);
    {
        QPalette pal = caption_->palette();
        pal.setColor(QPalette::Window, QColor(0xfd, 0xf6, 0xe3));
        caption_->setPalette(pal);
    }
    auto* sides = new QSplitter(Qt::Horizontal, figure_);
    sides_ = sides;
    for (int i = 0; i < 2; ++i) {
        auto* column = new QSplitter(Qt::Vertical, sides);
        columns_[i] = column;
        views_[i] = new views::ContentionView(column);
        trees_[i] = new views::TreeView(column);
        trees_[i]->setMotionDuration(0);  // ops land many times a second
    }
    shareColumns();
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    auto* figureBox = new QVBoxLayout(figure_);
    figureBox->setContentsMargins(0, 0, 0, 0);
    figureBox->setSpacing(0);
    figureBox->addWidget(caption_);
    figureBox->addWidget(sides, 1);
    box->addWidget(controls_);
    box->addWidget(figure_, 1);
    controller_ = new ContentionController(this);
    showCaption(nullptr);

    auto shortcut = [this](const QList<QKeySequence>& keys, auto slot) {
        auto* a = new QAction(this);
        a->setShortcuts(keys);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
        connect(a, &QAction::triggered, this, slot);
    };
    auto toggle = [this] {
        if (!controller_->running()) return;
        controller_->togglePause();
        controls_->setPaused(controller_->paused());
        showCaption(controller_->latest().get());
    };
    auto step = [this] {
        if (!controller_->running()) return;
        controller_->step();
        controls_->setPaused(true);
    };
    auto cancel = [this] {
        controller_->cancel();
        controls_->setRunning(false);
        controls_->setStatus(tr("cancelled"));
        showCaption(nullptr);
    };
    shortcut({QKeySequence(tr("Ctrl+Return")), QKeySequence(tr("Ctrl+Enter"))},
             [this] { start(); });
    shortcut({QKeySequence(Qt::Key_P)}, toggle);
    shortcut({QKeySequence(Qt::Key_Period), QKeySequence(tr("Ctrl+Right"))}, step);
    shortcut({QKeySequence(Qt::Key_Escape)}, cancel);
    connect(controls_, &views::ContentionControls::startRequested, this, [this] { start(); });
    connect(controls_, &views::ContentionControls::playToggled, this, toggle);
    connect(controls_, &views::ContentionControls::stepRequested, this, step);
    connect(controls_, &views::ContentionControls::cancelRequested, this, cancel);
    connect(controls_, &views::ContentionControls::choiceEdited, this, &ContentionPage::takeChoice);
    connect(controls_, &views::ContentionControls::slowdownChanged, controller_,
            &ContentionController::setSlowdown);
    connect(controller_, &ContentionController::snapshotReady, this,
            [this](const LiveSnapshotPtr& s) { show(*s); });
    connect(controller_, &ContentionController::finished, this, [this] {
        controls_->setRunning(false);
        controls_->setStatus(tr("finished"));
        showCaption(nullptr);
    });
    connect(controller_, &ContentionController::failed, this, [this](const QString& reason) {
        controls_->setRunning(false);
        host_.showError(tr("The live run failed"), reason);
    });
}

void ContentionPage::showChoice() {
    const session::Session::LiveChoice& l = session_.live();
    controls_->setPolicies(QString::fromStdString(l.policyA), QString::fromStdString(l.policyB));
    // On a new machine, one copy per CPU (./Run -c N as the proposal ran it).
    if (session_.loaded()) controls_->setCopies(static_cast<int>(session_.liveCopies()), 100000);
}

void ContentionPage::takeChoice() {
    session_.live() = {controls_->policyA().toStdString(), controls_->policyB().toStdString(),
                       static_cast<unsigned>(controls_->copies())};
}

bool ContentionPage::config(live::LiveConfig& c) {
    if (!session_.loaded()) return false;
    takeChoice();  // what the controls show is what runs
    std::string error;
    mapping::Policy a, b;
    if (!mapping::Policy::parse(session_.live().policyA, a, error) ||
        !mapping::Policy::parse(session_.live().policyB, b, error)) {
        host_.showError(tr("Cannot start the live run"), QString::fromStdString(error));
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
        views_[i]->clear();
        treeShown_[i].reset();
    }
    return true;
}

bool ContentionPage::start() {
    live::LiveConfig c;
    if (!config(c)) return false;
    QString error;
    if (!controller_->start(*session_.host().topology, session_.settings().recipe, c,
                            controls_->slowdown(), error)) {
        host_.showError(tr("Cannot start the live run"), error);
        return false;
    }
    controls_->setRunning(true);
    controls_->setPaused(false);
    controls_->setStatus(
        tr("running on %1").arg(QString::fromStdString(session_.host().topology->spec())));
    return true;
}

bool ContentionPage::runFor(sim::Time until, int frames) {
    live::LiveConfig c;
    if (!config(c)) return false;
    controller_->cancel();
    try {
        const auto topo = *session_.host().topology;
        c.run.topology = &topo;
        live::LiveDriver d(c);
        frames = std::max(1, frames);
        for (int f = 1; f <= frames; ++f) {
            d.advanceTo(until * f / frames);
            show(d.snapshot(f == frames || f % 8 == 0));
        }
    } catch (...) {
        host_.showError(tr("Cannot run the live simulation"),
                        QString::fromStdString(limits::UserReason::of(
                            std::current_exception(), "running the live simulation")));
        return false;
    }
    return true;
}

void ContentionPage::show(const live::LiveSnapshot& s) {
    for (std::size_t i = 0; i < 2 && i < s.runs.size(); ++i) {
        const live::RunSnapshot& r = s.runs[i];
        views_[i]->setSnapshot(r, s.now);
        // The tree only when it was redrawn (the worker redraws it about 10 times a second).
        if (r.tree && r.tree != treeShown_[i]) {
            treeShown_[i] = r.tree;
            trees_[i]->setTree(*r.tree);
            // A B-tree run's tree is rebuilt from its ops as the kernel's rbtree: same VMAs,
            // same order (the B-tree's own drawing is issue 20, point 5).
            const bool btree = mapping::Policy::namesBTree(r.policy);
            trees_[i]->setTitle(tr("%1: %2").arg(QString::fromStdString(r.policy),
                                                 QString::fromStdString(r.treeTitle)),
                                (btree ? tr("%L1 VMAs, drawn as the kernel's rbtree (height %2) · "
                                            "updated as the simulated ops land")
                                       : tr("%L1 VMAs, height %2 · updated as the simulated ops "
                                            "land"))
                                    .arg(r.treeVmas)
                                    .arg(r.tree->height));
        }
        if (!r.error.empty())
            host_.showStatus(QString::fromStdString("live state: " + r.error), 5000);
    }
    controls_->setPaused(s.paused);
    showCaption(&s);
    controls_->setStatus(tr("t = %L1 µs simulated · %L2x slower%3%4")
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

void ContentionPage::showCaption(const live::LiveSnapshot* s) {
    QString text;
    if (s)
        for (const live::RunSnapshot& r : s->runs) {
            if (r.stepped.empty()) continue;
            // The step's first event is what ran; the ones it caused follow on the next line.
            constexpr std::size_t kShown = 3;
            text = tr("Step, %1 at t = %L2 µs: %3")
                       .arg(QString::fromStdString(r.policy))
                       .arg(static_cast<double>(r.now) / 1000.0, 0, 'f', 3)
                       .arg(QString::fromStdString(r.stepped.front()));
            for (std::size_t i = 1; i < r.stepped.size() && i < kShown; ++i)
                text += (i == 1 ? QStringLiteral("\nthen ") : QStringLiteral("; then ")) +
                        QString::fromStdString(r.stepped[i]);
            if (r.stepped.size() > kShown)
                text += tr(" (and %1 more)").arg(r.stepped.size() - kShown);
        }
    if (text.isEmpty()) {
        const bool running = controller_->running() || (s && !s->finished && !s->cancelled);
        text = !running
                   ? tr("Start (Ctrl+Return) runs both policies side by side on one "
                        "simulated clock; P pauses, . runs one event and says here what it did.")
               : s && s->paused ? tr("Paused: the lanes, their history and the queues stand "
                                     "still. . (or Ctrl+Right) runs one event and says here "
                                     "what it did; P resumes.")
                                : tr("Running: P pauses everything, history included; . runs "
                                     "one event at a time.");
    }
    caption_->setText(text);
    // Two lines whatever it says, so that stepping never moves the lanes; follows the type.
    const int h = caption_->fontMetrics().lineSpacing() * 2 + 10;
    if (caption_->maximumHeight() != h) caption_->setFixedHeight(h);
}

void ContentionPage::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) shareColumns();
}

void ContentionPage::shareColumns() {
    // The lanes are what this tab teaches; the tree below shows the ops landing. In large
    // type it gets two ninths of the column instead of a third: at 1280x720 that is what twelve
    // summary lanes need to be written in the slide's type.
    const int tree = views::fontScale() > 1 ? 2 : 1;
    const int lanes = views::fontScale() > 1 ? 7 : 2;
    for (QSplitter* column : columns_) {
        if (!column) continue;
        column->setStretchFactor(0, lanes);
        column->setStretchFactor(1, tree);
        const int h = std::max(column->height(), 1);
        column->setSizes({h * lanes / (lanes + tree), h * tree / (lanes + tree)});
    }
}

}  // namespace immap::gui
