#include "SourceLoader.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QMenu>
#include <QPushButton>
#include <QSettings>

#include "BusyTask.h"
#include "ErrorText.h"
#include "PageHost.h"
#include "SourceArg.h"
#include "io/InputError.h"
#include "limits/Cancelled.h"
#include "limits/UserReason.h"
#include "session/DefaultScenario.h"
#include "session/Session.h"

namespace immap::gui {

namespace {
constexpr int kMaxRecent = 8;
}

SourceLoader::SourceLoader(session::Session& session, PageHost& host, QWidget* window)
    : QObject(window), session_(session), host_(host), window_(window) {}

void SourceLoader::setRecentMenu(QMenu* menu) {
    recentMenu_ = menu;
    if (host_.persists()) rebuildRecentMenu();  // tests and screenshots leave the settings be
}

bool SourceLoader::guarded(const QString& what, const std::function<void()>& load) {
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
    host_.showError(tr("Cannot open"), tr("Cannot open %1.\n\n%2").arg(what, error));
    return false;
}

bool SourceLoader::loadInBackground(const QString& what, const std::string& source,
                                    const std::string& topology, const std::string& file) {
    bool cancelled = false;
    const bool ok = guarded(what, [&] {
        // A million-process host takes seconds to read and build: on a worker, with progress
        // and Cancel; the window shows the old host until the new one is whole.
        session::Session::Staged staged;
        const mapping::Policy split = session_.splitPolicy();
        cancelled = !BusyTask::run(
            window_, tr("Loading %1...").arg(what),
            [&](const std::atomic<bool>& cancel) {
                try {
                    staged = session::Session::stage(source, topology, file, split, &cancel);
                } catch (const limits::Cancelled&) {
                }
            },
            host_.interactive());
        if (!cancelled) session_.commit(std::move(staged));
    });
    if (ok && cancelled)
        host_.showStatus(tr("Loading %1 cancelled; nothing changed.").arg(what), 6000);
    return ok && !cancelled;
}

bool SourceLoader::openSource(const QString& spec, const QString& topology, const QString& file) {
    if (!loadInBackground(spec, spec.toStdString(), topology.toStdString(), file.toStdString()))
        return false;
    emit loaded();
    reportSkipped(spec);
    if (spec != QLatin1String(session::kDefaultSource))
        addRecent(topology.isEmpty() ? spec : spec + QStringLiteral("|") + topology);
    return true;
}

// A snapshot whose processes had broken files loads the rest; say which were left out and why
// (FILE:LINE: reason), as the CLI does, and what loaded but may be cut short (the snapshot's
// warnings, the CLI's "warning:" lines). On the live host processes vanish all the time: the
// status bar is enough there.
void SourceLoader::reportSkipped(const QString& spec) {
    const auto& skipped = session_.host().mappings.skipped();
    const auto& warnings = session_.host().snapshot.warnings;
    if (skipped.empty() && warnings.empty()) return;
    if (spec == QLatin1String("live")) {
        host_.showStatus(skipped.empty() ? tr("%n file(s) may be cut short.", nullptr,
                                              static_cast<int>(warnings.size()))
                                         : tr("%n process(es) could not be read and were skipped.",
                                              nullptr, static_cast<int>(skipped.size())),
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
    host_.showError(
        skipped.empty() ? tr("The snapshot may be cut short") : tr("Some processes were skipped"),
        text);
}

bool SourceLoader::openTopology(const QString& spec) {
    // The current source again, placed on the new topology (Session::setTopology's rule).
    const std::string source =
        session_.loaded() ? session_.host().source : std::string(session::kDefaultSource);
    const std::string file = session_.loaded() ? session_.file().path : std::string();
    if (!loadInBackground(spec, source, spec.toStdString(), file)) return false;
    emit loaded();
    return true;
}

bool SourceLoader::openPath(const QString& path) {
    const SourceArg a = classifySource(path);
    if (a.kind == SourceArg::Kind::Topology) return openTopology(a.spec);
    return openSource(a.spec);
}

void SourceLoader::loadDefault() {
    openSource(QString::fromLatin1(session::kDefaultSource),
               QString::fromLatin1(session::kDefaultTopology));
}

void SourceLoader::openDialog() {
    QFileDialog d(window_, tr("Open a maps file, snapshot archive or topology XML"));
    d.setFileMode(QFileDialog::ExistingFile);
    d.setOption(QFileDialog::DontUseNativeDialog);
    d.setNameFilters({tr("All sources (*)"), tr("Snapshot archives (*.tar *.tar.gz *.tgz)"),
                      tr("Topology XML (*.xml)")});
    // A snapshot directory is a directory: offer a button for it too.
    auto* dirButton = new QPushButton(tr("Open snapshot &directory…"), &d);
    connect(dirButton, &QPushButton::clicked, &d, [this, &d] {
        d.reject();
        const QString dir = QFileDialog::getExistingDirectory(window_, tr("Snapshot directory"));
        if (!dir.isEmpty()) openPath(dir);
    });
    if (auto* box = d.findChild<QDialogButtonBox*>())
        box->addButton(dirButton, QDialogButtonBox::ActionRole);
    if (d.exec() == QDialog::Accepted && !d.selectedFiles().isEmpty())
        openPath(d.selectedFiles().first());
}

void SourceLoader::addRecent(const QString& entry) {
    if (!host_.persists()) return;
    QSettings s;
    QStringList list = s.value("recentFiles").toStringList();
    list.removeAll(entry);
    list.prepend(entry);
    while (list.size() > kMaxRecent)
        list.removeLast();
    s.setValue("recentFiles", list);
    rebuildRecentMenu();
}

void SourceLoader::rebuildRecentMenu() {
    if (!recentMenu_) return;
    recentMenu_->clear();
    const QStringList list = QSettings().value("recentFiles").toStringList();
    for (const QString& entry : list) {
        const QStringList parts = entry.split(QLatin1Char('|'));
        recentMenu_->addAction(entry, this,
                               [this, parts] { openSource(parts.value(0), parts.value(1)); });
    }
    recentMenu_->setEnabled(!list.isEmpty());
}

}  // namespace immap::gui
