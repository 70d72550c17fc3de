#include "Workshop.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFont>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QTimer>
#include <QToolBar>
#include <algorithm>

#include <QMainWindow>

#include "ErrorText.h"
#include "PageHost.h"
#include "ReplayPage.h"
#include "SourceLoader.h"
#include "ThroughputPage.h"
#include "io/InputError.h"
#include "io/OutputTarget.h"
#include "session/ScenarioResults.h"
#include "session/Session.h"
#include "session/SimSettings.h"
#include "sim/RunCache.h"

namespace immap::gui {

namespace {

// A wrapped caption as tall as its text at the width it has: QToolBar asks only sizeHint(),
// which for a wrapping QLabel is the height at a narrow guessed width (far too tall).
class CaptionLabel : public QLabel {
public:
    using QLabel::QLabel;
    QSize sizeHint() const override {
        const int w = width() > 100 ? width() : 1000;
        return {w, heightForWidth(w)};
    }
    QSize minimumSizeHint() const override { return {100, heightForWidth(width())}; }

protected:
    void resizeEvent(QResizeEvent* e) override {
        QLabel::resizeEvent(e);
        if (heightForWidth(width()) != height()) updateGeometry();
    }
};

}  // namespace

Workshop::Workshop(session::Session& session, PageHost& host, QMainWindow& window,
                   SourceLoader& loader, ThroughputPage& throughput, ReplayPage& replay)
    : QObject(&window),
      session_(session),
      host_(host),
      window_(window),
      loader_(loader),
      throughput_(throughput),
      replay_(replay) {
    // The caption bar: the current bookmark's caption, large enough to read from the back row.
    captionBar_ = new QToolBar(tr("Workshop captions"), &window_);
    captionBar_->setObjectName(QStringLiteral("captionBar"));
    captionBar_->setMovable(false);
    captionBar_->addAction(QStringLiteral("◀"), this, [this] { previousBookmark(); })
        ->setToolTip(tr("Previous bookmark (PgUp)"));
    caption_ = new CaptionLabel(captionBar_);
    caption_->setObjectName(QStringLiteral("caption"));
    caption_->setWordWrap(true);
    caption_->setMargin(6);
    caption_->setTextFormat(Qt::RichText);
    caption_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    captionBar_->addWidget(caption_);
    captionBar_->addAction(QStringLiteral("▶"), this, [this] { nextBookmark(); })
        ->setToolTip(tr("Next bookmark (PgDn)"));
    window_.addToolBar(Qt::TopToolBarArea, captionBar_);
    captionBar_->hide();
}

Workshop::~Workshop() {
    // The type is the application's: a window closed in workshop mode gives it back, so that
    // another window (a test's next one) does not start 1.6 times larger.
    if (on_ && normalFont_) {
        qApp->setProperty("immapFontScale", QVariant());
        QApplication::setFont(*normalFont_);
    }
}

void Workshop::addActions(QMenu* file, QAction* before, QMenu* view) {
    if (file) {
        auto* open = new QAction(tr("Open &scenario…"), &window_);
        open->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
        connect(open, &QAction::triggered, this, [this] {
            const QString path =
                QFileDialog::getOpenFileName(&window_, tr("Open a workshop scenario"), QString(),
                                             tr("Scenarios (*.json);;All files (*)"));
            if (!path.isEmpty()) openScenario(path);
        });
        auto* save = new QAction(tr("Save scenario &as…"), &window_);
        save->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
        connect(save, &QAction::triggered, this, [this] {
            const QString path = QFileDialog::getSaveFileName(
                &window_, tr("Save the window's state as a scenario"),
                QStringLiteral("scenario.json"), tr("Scenarios (*.json)"));
            if (!path.isEmpty()) saveScenario(path);
        });
        auto* bake = new QAction(tr("Save scenario with &results…"), &window_);
        bake->setToolTip(
            tr("Also writes the runs of its sweep this machine has kept, so that "
               "its throughput slides open drawn (docs/cache.md)"));
        connect(bake, &QAction::triggered, this, [this] {
            const QString path = QFileDialog::getSaveFileName(
                &window_, tr("Save the window's state and its sweep's runs as a scenario"),
                QStringLiteral("scenario.json"), tr("Scenarios (*.json)"));
            if (!path.isEmpty()) saveScenario(path, true);
        });
        file->insertActions(before, {open, save, bake});
        file->insertSeparator(before);
    }
    if (view) {
        view->addSeparator();
        QAction* ws = workshopAction_ = view->addAction(tr("&Workshop mode"));
        ws->setObjectName(QStringLiteral("workshopAction"));
        ws->setCheckable(true);
        ws->setShortcut(QKeySequence(Qt::Key_F11));
        ws->setShortcutContext(Qt::WindowShortcut);
        connect(ws, &QAction::toggled, this, &Workshop::setWorkshopMode);
        QAction* next = nextAction_ = view->addAction(
            tr("&Next bookmark"), QKeySequence(Qt::Key_PageDown), this, [this] { nextBookmark(); });
        QAction* prev = previousAction_ =
            view->addAction(tr("&Previous bookmark"), QKeySequence(Qt::Key_PageUp), this,
                            [this] { previousBookmark(); });
        // Only with bookmarks to step through: otherwise PgDn/PgUp stay the tables' keys.
        for (QAction* a : {next, prev}) {
            a->setShortcutContext(Qt::WindowShortcut);
            a->setObjectName(a == next ? QStringLiteral("nextBookmark")
                                       : QStringLiteral("previousBookmark"));
            a->setEnabled(false);
        }
    }
}

bool Workshop::openScenario(const QString& path) {
    session::Scenario s;
    session::SimSettings settings;
    const QString dir = QFileInfo(path).absolutePath();
    try {
        s = session::Scenario::load(path.toStdString());
        settings = session::SimSettings::fromScenario(s, path.toStdString());
    } catch (const io::InputError& e) {  // the scenario's or its recipe's
        host_.showError(tr("Cannot open the scenario"),
                        tr("Cannot open %1.\n\n%2").arg(path, ErrorText::of(e)));
        return false;
    } catch (const std::exception& e) {
        host_.showError(tr("Cannot open the scenario"),
                        tr("Cannot open %1.\n\nReason: %2").arg(path, QString::fromUtf8(e.what())));
        return false;
    }

    // The only step that can still fail is loading what it names; the session keeps its old
    // state then, and so does everything else here.
    const std::string base = dir.toStdString();
    const QString source = QString::fromStdString(s.sourceSpec(base));
    const QString topology = QString::fromStdString(s.topologySpec(base));
    if (!loader_.openSource(source, topology, QString::fromStdString(s.file))) return false;

    throughput_.reset();  // a sweep of the settings the scenario replaces
    // Its baked runs answer the sweep below while their keys match the window's settings.
    if (sim::RunCache* cache = sim::RunCache::process())
        session::ScenarioResults::preload(s.results, *cache);
    scenario_ = s;
    scenarioPath_ = path;
    // The scenario's settings replace the session's whole (what it leaves out is the default).
    session_.settings() = std::move(settings);
    emit settingsReplaced();
    if (!s.view.empty()) host_.setView(QString::fromStdString(s.view));
    bookmark_ = -1;
    for (QAction* a : {nextAction_, previousAction_})
        if (a) a->setEnabled(!s.bookmarks.empty());
    captionBar_->setVisible(on_ || !s.bookmarks.empty());
    if (!s.title.empty())
        window_.setWindowTitle(tr("immap-lab — %1").arg(QString::fromStdString(s.title)));
    if (!s.bookmarks.empty())
        showBookmark(0);
    else
        caption_->setText(QString::fromStdString(s.title).toHtmlEscaped());
    host_.showStatus(tr("Scenario %1").arg(QFileInfo(path).fileName()), 6000);
    // Queued: what the caller sets up right after opening (a command line's --bands, a
    // test's grid) goes into the sweep too; a scenario opened meanwhile drops this one.
    const int opened = ++opened_;
    if (precompute_ && needsSweep(s))
        QTimer::singleShot(0, this, [this, opened] {
            // Not when a sweep already ran or runs (the user, or a caller, was first).
            if (opened == opened_ && session_.loaded() && session_.sweepResults().empty() &&
                !throughput_.sweeps()->running())
                throughput_.startSweep();
        });
    return true;
}

bool Workshop::slideShowsSweep(const session::Scenario& s, int index) {
    if (index < 0 || static_cast<std::size_t>(index) >= s.bookmarks.size()) return false;
    const std::string& view = s.bookmarks[static_cast<std::size_t>(index)].view;
    if (view == "throughput") return true;
    return view == "topology" &&
           std::any_of(s.bookmarks.begin(), s.bookmarks.begin() + index,
                       [](const session::ScenarioBookmark& b) { return b.view == "throughput"; });
}

bool Workshop::needsSweep(const session::Scenario& s) {
    if (s.view == "throughput") return true;
    return std::any_of(s.bookmarks.begin(), s.bookmarks.end(),
                       [](const session::ScenarioBookmark& b) { return b.view == "throughput"; });
}

session::Scenario Workshop::currentScenario() const {
    session::Scenario s = scenario_;  // title and bookmarks come from it
    if (session_.loaded()) {
        s.source = session_.host().source;
        s.topology = session_.topologySpec();
        s.file = session_.file().name();
    }
    session_.settings().toScenario(s);  // the recipe path is absolute: valid from anywhere
    s.view = host_.currentViewName().toStdString();
    return s;
}

bool Workshop::saveScenario(const QString& path, bool withResults) {
    if (const QString why = throughput_.takeGrid(); !why.isEmpty()) {
        host_.showError(tr("Cannot save the scenario"),
                        tr("The sweep grid is not valid: %1").arg(why));
        return false;
    }
    session::Scenario s = currentScenario();
    sim::RunCache* cache = sim::RunCache::process();
    if (cache && session_.host().topology && (withResults || !scenario_.results.empty()))
        s.results = session::ScenarioResults::known(
            session_.settings().sweep(*session_.host().topology, 1), *cache);
    if (const std::string why = io::OutputTarget::check(path.toStdString(), host_.windowInputs());
        !why.empty()) {
        host_.showError(tr("Cannot save the scenario"), QString::fromStdString(why));
        return false;
    }
    // What cannot be read back is not worth writing: check it as the loader will.
    try {
        session::Scenario::fromJson(s.toJson(), path.toStdString(),
                                    QFileInfo(path).absolutePath().toStdString());
        s.save(path.toStdString());
    } catch (const std::exception& e) {
        host_.showError(tr("Cannot save the scenario"), QString::fromUtf8(e.what()));
        return false;
    }
    scenario_ = s;
    host_.showStatus(withResults ? tr("Saved %1 with %n run(s) of its sweep", nullptr,
                                      static_cast<int>(s.results.size()))
                                       .arg(path)
                                 : tr("Saved %1").arg(path),
                     5000);
    return true;
}

void Workshop::setWorkshopMode(bool on) {
    if (on == on_) return;
    on_ = on;
    if (QAction* a = workshopAction_) {
        QSignalBlocker block(a);
        a->setChecked(on);
    }
    if (on) {
        normalFont_ = std::make_unique<QFont>(QApplication::font());
        stateBefore_ = window_.windowState();
        QFont big = *normalFont_;
        if (big.pointSizeF() > 0)
            big.setPointSizeF(big.pointSizeF() * kFontScale);
        else
            big.setPixelSize(qRound(big.pixelSize() * kFontScale));
        // The scale first: the views read it when the font change reaches them.
        qApp->setProperty("immapFontScale", kFontScale);  // the text views paint themselves
        QApplication::setFont(big);
        window_.setWindowState(window_.windowState() | Qt::WindowFullScreen);
        captionBar_->show();
        throughput_.setSlideMode(true);
        if (bookmark_ >= 0) showBookmark(bookmark_);  // the slide's docks
    } else {
        qApp->setProperty("immapFontScale", QVariant());
        QApplication::setFont(*normalFont_);
        window_.setWindowState(stateBefore_ & ~Qt::WindowFullScreen);
        captionBar_->setVisible(!scenario_.bookmarks.empty());
        throughput_.setSlideMode(false);
        host_.restoreDocks();
    }
    host_.showStatus(
        on ? tr("Workshop mode: F11 to leave, PgDn/PgUp for bookmarks") : tr("Workshop mode off"),
        4000);
}

void Workshop::showBookmark(int index) {
    const int n = static_cast<int>(scenario_.bookmarks.size());
    if (n == 0) return;
    bookmark_ = std::clamp(index, 0, n - 1);
    const session::ScenarioBookmark& b = scenario_.bookmarks[static_cast<std::size_t>(bookmark_)];
    if (!b.view.empty()) host_.setView(QString::fromStdString(b.view));
    // The figures its caption quotes, written on the plot (nothing when it quotes none).
    std::vector<views::ThroughputView::Mark> marks;
    for (const session::ScenarioPoint& p : b.points)
        marks.push_back({QString::fromStdString(p.policy), p.copies, p.walkers});
    throughput_.view()->setMarks(marks);
    // Its zoom on the trees; a slide without one shows them fitted, whatever the last one did.
    host_.showTreeZoom(b.zoom.value_or(1.0));
    if (b.event && session_.replay().cursor) replay_.seek(static_cast<qint64>(*b.event));
    // A slide shows the docks it names; in workshop mode, none unless it names some.
    if (b.docks || on_) host_.showSlideDocks(b.docks.value_or(std::vector<std::string>{}));
    // Rich text for the bold face: a style sheet or font of its own would stop the label
    // following the application font that workshop mode scales.
    caption_->setText(tr("%1/%2&nbsp;&nbsp;<b>%3</b>")
                          .arg(bookmark_ + 1)
                          .arg(n)
                          .arg(QString::fromStdString(b.caption).toHtmlEscaped()));
    captionBar_->show();
}

}  // namespace immap::gui
