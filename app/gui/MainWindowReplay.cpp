// MainWindow's replay tab: a native trace scrubbed event by event (core/trace's TraceCursor,
// checkpointed, so any position is a short replay away), the chosen file's tree drawn as the
// trace left it, bookmarks with captions beside the trace, and recording a simulation.
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>
#include <cstdio>
#include <cstring>

#include "BusyTask.h"
#include "MainWindow.h"

#include "ErrorText.h"
#include "io/OutputTarget.h"
#include "limits/UserReason.h"
#include "sim/Simulator.h"
#include "trace/TraceError.h"
#include "trace/TraceWriter.h"

namespace immap::gui {

namespace {

QString describe(const trace::TraceHeader& h, const sim::SimEvent& e) {
    if (e.time == 0 && e.kind == sim::SimEvent::ExecBegin && e.agent == 0 && e.cpu == 0) return {};
    QString what = QString::fromLatin1(sim::simEventName(e.kind));
    if (e.lock >= 0 && static_cast<std::size_t>(e.lock) < h.locks.size())
        what += QStringLiteral(" ") +
                QString::fromStdString(h.locks[static_cast<std::size_t>(e.lock)].name);
    if (e.kind == sim::SimEvent::TreeInsert || e.kind == sim::SimEvent::TreeRemove)
        what += QStringLiteral(" [0x%1, 0x%2] tree %3 (node %4)")
                    .arg(e.start, 0, 16)
                    .arg(e.last, 0, 16)
                    .arg(e.tree)
                    .arg(e.home);
    return QObject::tr("t = %L1 ns, agent %2 on CPU %3: %4%5")
        .arg(e.time)
        .arg(e.agent)
        .arg(e.cpu)
        .arg(what)
        .arg(e.inferred ? QObject::tr(" (inferred)") : QString());
}

}  // namespace

void MainWindow::buildReplayTab() {
    replayPage_ = new QWidget(tabs_);
    replayControls_ = new views::ReplayControls(replayPage_);
    replayTree_ = new views::TreeView(replayPage_);
    auto* box = new QVBoxLayout(replayPage_);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(replayControls_);
    auto* split = new QSplitter(Qt::Vertical, replayPage_);
    split->addWidget(replayTree_);
    split->addWidget(buildTimeline(split));
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    box->addWidget(split, 1);
    tabs_->addTab(replayPage_, tr("Replay"));
    replayTimer_ = new QTimer(this);
    replayTimer_->setInterval(40);

    connect(replayControls_, &views::ReplayControls::seek, this, &MainWindow::replaySeek);
    connect(replayControls_, &views::ReplayControls::stepForward, this, [this] {
        replaySeek(session_.replay().cursor
                       ? static_cast<qint64>(session_.replay().cursor->position()) + 1
                       : 0);
    });
    connect(replayControls_, &views::ReplayControls::stepBack, this, [this] {
        if (session_.replay().cursor && session_.replay().cursor->position() > 0)
            replaySeek(static_cast<qint64>(session_.replay().cursor->position()) - 1);
    });
    connect(replayControls_, &views::ReplayControls::playToggled, this, [this] {
        if (replayTimer_->isActive()) {
            replayTimer_->stop();
        } else if (session_.replay().cursor) {
            replayTimer_->start();
        }
        replayControls_->setPlaying(replayTimer_->isActive());
    });
    connect(replayTimer_, &QTimer::timeout, this, [this] {
        // About 1% of the trace per second of play, at least one event per frame.
        if (!session_.replay().cursor ||
            session_.replay().cursor->position() >= session_.replay().cursor->events()) {
            replayTimer_->stop();
            replayControls_->setPlaying(false);
            return;
        }
        const auto stepSize = std::max<std::uint64_t>(1, session_.replay().cursor->events() / 2500);
        replaySeek(static_cast<qint64>(session_.replay().cursor->position() + stepSize));
    });
    connect(replayControls_, &views::ReplayControls::fileChosen, this, [this](int i) {
        replayFile_ = std::max(0, i);
        refreshReplay();
    });
    connect(replayControls_, &views::ReplayControls::treeChosen, this, [this](int i) {
        replayTreeIndex_ = std::max(0, i);
        refreshReplay();
    });
    connect(replayControls_, &views::ReplayControls::bookmarkRequested, this, [this] {
        if (!session_.replay().cursor) return;
        bool ok = false;
        const QString caption = QInputDialog::getText(
            this, tr("Bookmark"),
            tr("Caption for event %L1:").arg(session_.replay().cursor->position()),
            QLineEdit::Normal, QString(), &ok);
        if (ok) addBookmark(caption);
    });
    connect(replayControls_, &views::ReplayControls::bookmarkRemoveRequested, this,
            [this](int row) {
                if (row < 0 || static_cast<std::size_t>(row) >= session_.replay().bookmarks.size())
                    return;
                session_.replay().bookmarks.erase(session_.replay().bookmarks.begin() + row);
                saveBookmarks();
            });
    connect(replayControls_, &views::ReplayControls::bookmarkChosen, this, [this](int row) {
        if (row >= 0 && static_cast<std::size_t>(row) < session_.replay().bookmarks.size())
            replaySeek(static_cast<qint64>(
                session_.replay().bookmarks[static_cast<std::size_t>(row)].event));
    });
}

bool MainWindow::openTrace(const QString& path) {
    std::unique_ptr<trace::TraceCursor> cursor;
    std::vector<trace::Bookmark> marks;
    std::shared_ptr<trace::Timeline> timeline;
    QString timelineError;
    // Reading a trace of millions of events takes seconds: on a worker, with a Cancel button.
    bool finished = false;
    try {
        finished = BusyTask::run(
            this, tr("Reading the trace %1...").arg(QFileInfo(path).fileName()),
            [&](const std::atomic<bool>& cancel) {
                cursor = std::make_unique<trace::TraceCursor>(path.toStdString());
                marks = trace::Bookmarks::load(trace::Bookmarks::sidecarPath(path.toStdString()));
                if (cancel) return;
                try {
                    timeline = TimelineController::build(
                        path.toStdString(), traceCpuNodes(cursor->header().topology), &cancel);
                } catch (const trace::TraceError& e) {
                    // The replay still works without its timeline.
                    timelineError = ErrorText::of(e);
                }
            },
            !headless_);
    } catch (const trace::TraceError& e) {
        showError(tr("Cannot open the trace"), ErrorText::of(e));
        return false;
    } catch (...) {
        showError(tr("Cannot open the trace"),
                  QString::fromStdString(limits::UserReason::of(std::current_exception(),
                                                                "opening " + path.toStdString())));
        return false;
    }
    if (!finished) {
        statusBar()->showMessage(tr("Opening %1 cancelled.").arg(path), 6000);
        return false;
    }
    replayTimer_->stop();
    session_.replay().cursor = std::move(cursor);
    session_.replay().path = path.toStdString();
    session_.replay().bookmarks = std::move(marks);
    replayFile_ = 0;
    replayTreeIndex_ = 0;
    if (timeline)
        timeline_->setTimeline(std::move(timeline));
    else
        showError(tr("Cannot build the timeline"), timelineError);
    QStringList files, trees;
    for (const std::string& f : session_.replay().cursor->header().files)
        files << QString::fromStdString(f);
    for (unsigned t = 0; t < session_.replay().cursor->header().treesPerFile; ++t)
        trees << (session_.replay().cursor->header().treesPerFile == 1 ? tr("the single tree")
                                                                       : tr("tree %1").arg(t));
    replayControls_->setChoices(files, trees);
    tabs_->setCurrentWidget(replayPage_);
    if (!session_.replay().cursor->error().empty())
        showError(tr("The trace stops early"),
                  tr("%1\nEverything before that line is shown.")
                      .arg(QString::fromStdString(session_.replay().cursor->error())));
    replaySeek(static_cast<qint64>(session_.replay().cursor->events()));
    saveBookmarks();
    statusBar()->showMessage(
        tr("Trace %1: %L2 events (%3).")
            .arg(QFileInfo(path).fileName())
            .arg(session_.replay().cursor->events())
            .arg(QString::fromStdString(session_.replay().cursor->header().source)),
        6000);
    return true;
}

void MainWindow::replaySeek(qint64 position) {
    if (!session_.replay().cursor) return;
    try {
        session_.replay().cursor->seek(static_cast<std::uint64_t>(std::max<qint64>(0, position)));
    } catch (const trace::TraceError& e) {
        replayTimer_->stop();
        showError(tr("Cannot replay the trace"), ErrorText::of(e));
        return;
    }
    refreshReplay();
}

void MainWindow::refreshReplay() {
    if (!session_.replay().cursor) return;
    const auto& h = session_.replay().cursor->header();
    const int file = std::min<int>(replayFile_, static_cast<int>(h.files.size()) - 1);
    const int tree = std::min<int>(
        replayTreeIndex_, static_cast<int>(session_.replay().cursor->replay().treeCount(file)) - 1);
    const itree::IntervalTree& t = session_.replay().cursor->replay().tree(file, tree);
    replayTree_->setTree(session::DrawTree::of(t, [](const itree::Node* n, session::DrawNode& d) {
        d.id = static_cast<int>(trace::TraceReplay::vmaIdOf(n));
        d.homeNode = trace::TraceReplay::homeOf(n);
        d.pid = trace::TraceReplay::ownerOf(n);
    }));
    replayTree_->setTitle(tr("%1, %2 at event %L3")
                              .arg(QString::fromStdString(h.files[static_cast<std::size_t>(file)]))
                              .arg(replayControls_->trees()->currentText())
                              .arg(session_.replay().cursor->position()),
                          tr("%L1 VMAs · %2 · %3")
                              .arg(t.size())
                              .arg(QString::fromStdString(h.policy))
                              .arg(QString::fromStdString(h.source)));
    replayControls_->setPosition(static_cast<qint64>(session_.replay().cursor->position()),
                                 static_cast<qint64>(session_.replay().cursor->events()));
    replayControls_->setEventText(describe(h, session_.replay().cursor->lastEvent()));
    QStringList marks;
    for (const trace::Bookmark& b : session_.replay().bookmarks)
        marks << tr("%L1: %2").arg(b.event).arg(QString::fromStdString(b.caption));
    replayControls_->setBookmarks(marks);
    timeline_->setBookmarks(session_.replay().bookmarks);
    timeline_->setReplayPosition(session_.replay().cursor->position());
}

void MainWindow::addBookmark(const QString& caption) {
    if (!session_.replay().cursor) return;
    session_.replay().bookmarks.push_back(
        {session_.replay().cursor->position(), caption.toStdString()});
    std::stable_sort(
        session_.replay().bookmarks.begin(), session_.replay().bookmarks.end(),
        [](const trace::Bookmark& a, const trace::Bookmark& b) { return a.event < b.event; });
    saveBookmarks();
}

void MainWindow::saveBookmarks() {
    if (tracePath().isEmpty()) return;
    const std::string path = trace::Bookmarks::sidecarPath(tracePath().toStdString());
    try {
        if (!session_.replay().bookmarks.empty() || QFileInfo::exists(QString::fromStdString(path)))
            trace::Bookmarks::save(path, session_.replay().bookmarks);
    } catch (const trace::TraceError& e) {
        showError(tr("Cannot save the bookmarks"), ErrorText::of(e));
    }
    refreshReplay();
}

bool MainWindow::recordTrace(const QString& path, const QString& policy, int copies,
                             int durationMs) {
    if (!session_.loaded()) return false;
    mapping::Policy p;
    std::string error;
    if (!mapping::Policy::parse(policy.toStdString(), p, error)) {
        showError(tr("Cannot record"), QString::fromStdString(error));
        return false;
    }
    // The session's settings (recipe, walkers, parameters, seed), with the dialog's policy,
    // copies and length. The recipe is held here for the worker's sake.
    const std::shared_ptr<const sim::Recipe> recipe = session_.settings().recipe;
    sim::SimConfig c = session_.simConfig(p, static_cast<unsigned>(std::max(1, copies)));
    c.durationMs = std::max(1, durationMs);
    // recordRun writes beside the target under a temporary name and renames it over the target
    // at the end (TraceWriter): a recording that fails, is cancelled or killed leaves the file
    // that was there as it was. A device or a directory it must not replace.
    // The open trace may be recorded over (the window opens the new one); its other inputs not.
    std::vector<std::string> inputs = windowInputs();
    if (!tracePath().isEmpty()) std::erase(inputs, tracePath().toStdString());
    if (const std::string why = io::OutputTarget::check(path.toStdString(), inputs); !why.empty()) {
        showError(tr("Cannot record"), QString::fromStdString(why));
        return false;
    }
    try {
        // Simulating hundreds of copies takes seconds: on a worker, in slices so that Cancel
        // stops it (the old file then stays as it was).
        const bool finished = BusyTask::run(
            this, tr("Recording %1 copies under %2...").arg(c.copies).arg(policy),
            [&](const std::atomic<bool>& cancel) {
                trace::recordRun(c, path.toStdString(), &cancel);
            },
            !headless_);
        if (!finished) {
            statusBar()->showMessage(tr("Recording cancelled; %1 is unchanged.").arg(path), 6000);
            return false;
        }
    } catch (const io::InputError& e) {
        showError(tr("Cannot record"), ErrorText::of(e));
        return false;
    } catch (const std::exception& e) {
        showError(tr("Cannot record"), QString::fromUtf8(e.what()));
        return false;
    }
    return openTrace(path);
}

void MainWindow::recordDialog() {
    bool ok = false;
    const QString policy = QInputDialog::getItem(
        this, tr("Record a simulation"), tr("Policy:"),
        {"single", "split-trees", "split-locks", "sharded:32"}, 0, false, &ok);
    if (!ok) return;
    const int copies = QInputDialog::getInt(
        this, tr("Record a simulation"), tr("Copies (execl -c N):"),
        static_cast<int>(session_.host().topology->pus().size()), 1, 100000, 1, &ok);
    if (!ok) return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Record to"), QStringLiteral("run.trace"), tr("immap traces (*.trace)"));
    if (!path.isEmpty()) recordTrace(path, policy, copies, 20);
}

}  // namespace immap::gui
