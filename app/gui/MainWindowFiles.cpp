// MainWindow's dealings with the outside: opening sources (with errors shown as dialogs naming
// file, line and reason), recent files, drag and drop, settings and export.
#include <QApplication>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QUrl>
#include <iostream>

#include "BusyTask.h"
#include "MainWindow.h"

#include "ErrorText.h"
#include "SourceArg.h"
#include "io/InputFile.h"
#include "limits/Cancelled.h"
#include "limits/UserReason.h"
#include "procfs/ParseError.h"
#include "session/DefaultScenario.h"
#include "session/Scenario.h"
#include "topology/TopologyError.h"
#include "trace/Bookmarks.h"
#include "views/ViewExporter.h"

namespace immap::gui {

namespace {
constexpr int kMaxRecent = 8;
}

void MainWindow::showStatus(const QString& text, int timeoutMs) {
    statusBar()->showMessage(text, timeoutMs);
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

bool MainWindow::guarded(const QString& what, const std::function<void()>& load) {
    QApplication::setOverrideCursor(Qt::WaitCursor);
    QString error;
    try {
        load();
    } catch (const io::InputError& e) {  // every reader's located error
        error = ErrorText::of(e);
    } catch (...) {
        // Out of memory, a limit, an internal check: a plain sentence, no C++ names.
        error = tr("Reason: %1")
                    .arg(QString::fromStdString(limits::UserReason::of(
                        std::current_exception(), "opening " + what.toStdString())));
    }
    QApplication::restoreOverrideCursor();
    if (error.isEmpty()) return true;
    showError(tr("Cannot open"), tr("Cannot open %1.\n\n%2").arg(what, error));
    return false;
}

bool MainWindow::loadInBackground(const QString& what, const std::string& source,
                                  const std::string& topology, const std::string& file) {
    bool cancelled = false;
    const bool ok = guarded(what, [&] {
        // A million-process host takes seconds to read and build: on a worker, with progress
        // and Cancel; the window shows the old host until the new one is whole.
        session::Session::Staged staged;
        const mapping::Policy split = session_.splitPolicy();
        cancelled = !BusyTask::run(
            this, tr("Loading %1...").arg(what),
            [&](const std::atomic<bool>& cancel) {
                try {
                    staged = session::Session::stage(source, topology, file, split, &cancel);
                } catch (const limits::Cancelled&) {
                }
            },
            !headless_);
        if (!cancelled) session_.commit(std::move(staged));
    });
    if (ok && cancelled)
        statusBar()->showMessage(tr("Loading %1 cancelled; nothing changed.").arg(what), 6000);
    return ok && !cancelled;
}

bool MainWindow::openSource(const QString& spec, const QString& topology, const QString& file) {
    if (!loadInBackground(spec, spec.toStdString(), topology.toStdString(), file.toStdString()))
        return false;
    afterLoad();
    reportSkipped(spec);
    if (spec != QLatin1String(session::kDefaultSource))
        addRecent(topology.isEmpty() ? spec : spec + QStringLiteral("|") + topology);
    return true;
}

// A snapshot whose processes had broken files loads the rest; say which were left out and why
// (FILE:LINE: reason), as the CLI does, and what loaded but may be cut short (the snapshot's
// warnings, the CLI's "warning:" lines). On the live host processes vanish all the time: the
// status bar is enough there.
void MainWindow::reportSkipped(const QString& spec) {
    const auto& skipped = session_.host().mappings.skipped();
    const auto& warnings = session_.host().snapshot.warnings;
    if (skipped.empty() && warnings.empty()) return;
    if (spec == QLatin1String("live")) {
        statusBar()->showMessage(
            skipped.empty()
                ? tr("%n file(s) may be cut short.", nullptr, static_cast<int>(warnings.size()))
                : tr("%n process(es) could not be read and were skipped.", nullptr,
                     static_cast<int>(skipped.size())),
            8000);
        return;
    }
    constexpr std::size_t kShown = 10;
    QStringList lines;
    for (std::size_t i = 0; i < skipped.size() && i < kShown; ++i)
        lines << tr("pid %1: %2")
                     .arg(skipped[i].pid)
                     .arg(QString::fromStdString(skipped[i].reason).left(300));
    if (skipped.size() > kShown) lines << tr("… and %1 more.").arg(skipped.size() - kShown);
    QString text;
    if (!skipped.empty())
        text = tr("%1 loaded without %2 process(es) whose files are broken:\n\n%3")
                   .arg(spec)
                   .arg(skipped.size())
                   .arg(lines.join(QLatin1Char('\n')));
    if (!warnings.empty()) {
        QStringList w;
        for (std::size_t i = 0; i < warnings.size() && i < kShown; ++i)
            w << tr("warning: %1").arg(QString::fromStdString(warnings[i]).left(300));
        if (warnings.size() > kShown) w << tr("… and %1 more.").arg(warnings.size() - kShown);
        if (!text.isEmpty()) text += QStringLiteral("\n\n");
        text += tr("%1 loaded, but may be incomplete:\n\n%2").arg(spec, w.join(QLatin1Char('\n')));
    }
    showError(
        skipped.empty() ? tr("The snapshot may be cut short") : tr("Some processes were skipped"),
        text);
}

bool MainWindow::openTopology(const QString& spec) {
    // The current source again, placed on the new topology (Session::setTopology's rule).
    const std::string source =
        session_.loaded() ? session_.host().source : std::string(session::kDefaultSource);
    const std::string file = session_.loaded() ? session_.file().path : std::string();
    if (!loadInBackground(spec, source, spec.toStdString(), file)) return false;
    afterLoad();
    return true;
}

bool MainWindow::openPath(const QString& path) {
    const SourceArg a = classifySource(path);
    if (a.kind == SourceArg::Kind::Topology) return openTopology(a.spec);
    return openSource(a.spec);
}

void MainWindow::loadDefault() {
    openSource(QString::fromLatin1(session::kDefaultSource),
               QString::fromLatin1(session::kDefaultTopology));
}

void MainWindow::openDialog() {
    QFileDialog d(this, tr("Open a maps file, snapshot archive or topology XML"));
    d.setFileMode(QFileDialog::ExistingFile);
    d.setOption(QFileDialog::DontUseNativeDialog);
    d.setNameFilters({tr("All sources (*)"), tr("Snapshot archives (*.tar *.tar.gz *.tgz)"),
                      tr("Topology XML (*.xml)")});
    // A snapshot directory is a directory: offer a button for it too.
    auto* dirButton = new QPushButton(tr("Open snapshot &directory…"), &d);
    connect(dirButton, &QPushButton::clicked, &d, [this, &d] {
        d.reject();
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Snapshot directory"));
        if (!dir.isEmpty()) openPath(dir);
    });
    if (auto* box = d.findChild<QDialogButtonBox*>())
        box->addButton(dirButton, QDialogButtonBox::ActionRole);
    if (d.exec() == QDialog::Accepted && !d.selectedFiles().isEmpty())
        openPath(d.selectedFiles().first());
}

void MainWindow::addRecent(const QString& entry) {
    if (!persist_) return;
    QSettings s;
    QStringList list = s.value("recentFiles").toStringList();
    list.removeAll(entry);
    list.prepend(entry);
    while (list.size() > kMaxRecent)
        list.removeLast();
    s.setValue("recentFiles", list);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList list = QSettings().value("recentFiles").toStringList();
    for (const QString& entry : list) {
        const QStringList parts = entry.split(QLatin1Char('|'));
        recentMenu_->addAction(entry, this,
                               [this, parts] { openSource(parts.value(0), parts.value(1)); });
    }
    recentMenu_->setEnabled(!list.isEmpty());
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
        s.setValue("animation/speed", trees_->controls()->speedIndex());
    }
    QMainWindow::closeEvent(e);
}

std::vector<std::string> MainWindow::windowInputs() const {
    std::vector<std::string> in;
    for (const std::string& spec : {session_.host().source, session_.topologySpec()})
        if (std::string f = io::InputFile::fileOfSpec(spec); !f.empty()) in.push_back(std::move(f));
    if (!tracePath().isEmpty()) {
        in.push_back(tracePath().toStdString());
        in.push_back(trace::Bookmarks::sidecarPath(tracePath().toStdString()));
    }
    if (!session_.settings().recipePath.empty()) in.push_back(session_.settings().recipePath);
    return in;
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

void MainWindow::exportDialog() {
    QSettings s;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the current view"), s.value("export/last", "immap-view.png").toString(),
        views::ViewExporter::filters());
    if (path.isEmpty()) return;
    if (persist_) s.setValue("export/last", path);
    exportView(path);
}

}  // namespace immap::gui
