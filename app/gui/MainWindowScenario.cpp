// MainWindow's workshop side: scenario files (open, save, apply), workshop mode (full screen,
// large type, a caption bar stepping through the scenario's bookmarks).
#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "MainWindow.h"

#include "ErrorText.h"
#include "io/OutputTarget.h"
#include "session/DefaultScenario.h"

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

void MainWindow::buildScenarioUi() {
    if (QMenu* file = fileMenu_) {
        QAction* before = exportAction_;
        auto* open = new QAction(tr("Open &scenario…"), this);
        open->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
        connect(open, &QAction::triggered, this, [this] {
            const QString path =
                QFileDialog::getOpenFileName(this, tr("Open a workshop scenario"), QString(),
                                             tr("Scenarios (*.json);;All files (*)"));
            if (!path.isEmpty()) openScenario(path);
        });
        auto* save = new QAction(tr("Save scenario &as…"), this);
        save->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
        connect(save, &QAction::triggered, this, [this] {
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Save the window's state as a scenario"), QStringLiteral("scenario.json"),
                tr("Scenarios (*.json)"));
            if (!path.isEmpty()) saveScenario(path);
        });
        file->insertActions(before, {open, save});
        file->insertSeparator(before);
    }
    if (QMenu* view = viewMenu_) {
        view->addSeparator();
        QAction* ws = workshopAction_ = view->addAction(tr("&Workshop mode"));
        ws->setObjectName(QStringLiteral("workshopAction"));
        ws->setCheckable(true);
        ws->setShortcut(QKeySequence(Qt::Key_F11));
        ws->setShortcutContext(Qt::WindowShortcut);
        connect(ws, &QAction::toggled, this, &MainWindow::setWorkshopMode);
        QAction* next = nextBookmarkAction_ = view->addAction(
            tr("&Next bookmark"), QKeySequence(Qt::Key_PageDown), this, [this] { nextBookmark(); });
        QAction* prev = previousBookmarkAction_ =
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

    // The caption bar: the current bookmark's caption, large enough to read from the back row.
    captionBar_ = new QToolBar(tr("Workshop captions"), this);
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
    addToolBar(Qt::TopToolBarArea, captionBar_);
    captionBar_->hide();
}

bool MainWindow::openScenario(const QString& path) {
    session::Scenario s;
    session::SimSettings settings;
    const QString dir = QFileInfo(path).absolutePath();
    try {
        s = session::Scenario::load(path.toStdString());
        settings = session::SimSettings::fromScenario(s, path.toStdString());
    } catch (const io::InputError& e) {  // the scenario's or its recipe's
        showError(tr("Cannot open the scenario"),
                  tr("Cannot open %1.\n\n%2").arg(path, ErrorText::of(e)));
        return false;
    } catch (const std::exception& e) {
        showError(tr("Cannot open the scenario"),
                  tr("Cannot open %1.\n\nReason: %2").arg(path, QString::fromUtf8(e.what())));
        return false;
    }

    // The only step that can still fail is loading what it names; the session keeps its old
    // state then, and so does everything else here.
    const std::string base = dir.toStdString();
    const QString source = QString::fromStdString(s.sourceSpec(base));
    const QString topology = QString::fromStdString(s.topologySpec(base));
    if (!openSource(source, topology, QString::fromStdString(s.file))) return false;

    throughputPage_->reset();  // a sweep of the settings the scenario replaces
    scenario_ = s;
    // The scenario's settings replace the session's whole (what it leaves out is the default).
    session_.settings() = std::move(settings);
    showSettings();
    if (!s.view.empty()) setView(QString::fromStdString(s.view));
    bookmark_ = -1;
    for (QAction* a : {nextBookmarkAction_, previousBookmarkAction_})
        if (a) a->setEnabled(!s.bookmarks.empty());
    captionBar_->setVisible(workshop_ || !s.bookmarks.empty());
    if (!s.title.empty()) setWindowTitle(tr("immap-lab — %1").arg(QString::fromStdString(s.title)));
    if (!s.bookmarks.empty())
        showBookmark(0);
    else
        caption_->setText(QString::fromStdString(s.title).toHtmlEscaped());
    statusBar()->showMessage(tr("Scenario %1").arg(QFileInfo(path).fileName()), 6000);
    return true;
}

session::Scenario MainWindow::currentScenario() const {
    session::Scenario s = scenario_;  // title and bookmarks come from it
    if (session_.loaded()) {
        s.source = session_.host().source;
        s.topology = session_.topologySpec();
        s.file = session_.file().name();
    }
    session_.settings().toScenario(s);  // the recipe path is absolute: valid from anywhere
    s.view = currentViewName().toStdString();
    return s;
}

bool MainWindow::saveScenario(const QString& path) {
    if (const QString why = throughputPage_->takeGrid(); !why.isEmpty()) {
        showError(tr("Cannot save the scenario"), tr("The sweep grid is not valid: %1").arg(why));
        return false;
    }
    const session::Scenario s = currentScenario();
    if (const std::string why = io::OutputTarget::check(path.toStdString(), windowInputs());
        !why.empty()) {
        showError(tr("Cannot save the scenario"), QString::fromStdString(why));
        return false;
    }
    // What cannot be read back is not worth writing: check it as the loader will.
    try {
        session::Scenario::fromJson(s.toJson(), path.toStdString(),
                                    QFileInfo(path).absolutePath().toStdString());
        s.save(path.toStdString());
    } catch (const std::exception& e) {
        showError(tr("Cannot save the scenario"), QString::fromUtf8(e.what()));
        return false;
    }
    scenario_ = s;
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

void MainWindow::setWorkshopMode(bool on) {
    if (on == workshop_) return;
    workshop_ = on;
    if (QAction* a = workshopAction_) {
        QSignalBlocker block(a);
        a->setChecked(on);
    }
    if (on) {
        normalFont_ = QApplication::font();
        stateBeforeWorkshop_ = windowState();
        QFont big = normalFont_;
        if (big.pointSizeF() > 0)
            big.setPointSizeF(big.pointSizeF() * kWorkshopScale);
        else
            big.setPixelSize(qRound(big.pixelSize() * kWorkshopScale));
        QApplication::setFont(big);
        qApp->setProperty("immapFontScale", kWorkshopScale);  // the text views paint themselves
        setWindowState(windowState() | Qt::WindowFullScreen);
        captionBar_->show();
    } else {
        QApplication::setFont(normalFont_);
        qApp->setProperty("immapFontScale", QVariant());
        setWindowState(stateBeforeWorkshop_ & ~Qt::WindowFullScreen);
        captionBar_->setVisible(!scenario_.bookmarks.empty());
    }
    statusBar()->showMessage(
        on ? tr("Workshop mode: F11 to leave, PgDn/PgUp for bookmarks") : tr("Workshop mode off"),
        4000);
}

void MainWindow::showBookmark(int index) {
    const int n = static_cast<int>(scenario_.bookmarks.size());
    if (n == 0) return;
    bookmark_ = std::clamp(index, 0, n - 1);
    const session::ScenarioBookmark& b = scenario_.bookmarks[static_cast<std::size_t>(bookmark_)];
    if (!b.view.empty()) setView(QString::fromStdString(b.view));
    if (b.event && traceCursor()) replaySeek(static_cast<qint64>(*b.event));
    // Rich text for the bold face: a style sheet or font of its own would stop the label
    // following the application font that workshop mode scales.
    caption_->setText(tr("%1/%2&nbsp;&nbsp;<b>%3</b>")
                          .arg(bookmark_ + 1)
                          .arg(n)
                          .arg(QString::fromStdString(b.caption).toHtmlEscaped()));
    captionBar_->show();
}

}  // namespace immap::gui
