#include "ReplayPage.h"

#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>
#include <cstdio>
#include <cstring>

#include "BusyTask.h"
#include "ErrorText.h"
#include "io/OutputTarget.h"
#include "limits/UserReason.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"
#include "trace/TraceError.h"
#include "trace/TraceWriter.h"
#include "views/ViewExporter.h"

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

ReplayPage::ReplayPage(session::Session& session, PageHost& host, QWidget* parent)
    : QWidget(parent), session_(session), host_(host) {
    controls_ = new views::ReplayControls(this);
    tree_ = new views::TreeView(this);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(controls_);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(tree_);
    split->addWidget(buildTimeline(split));
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    box->addWidget(split, 1);
    timer_ = new QTimer(this);
    timer_->setInterval(views::ReplayControls::kFrameMs);

    connect(controls_, &views::ReplayControls::seek, this, &ReplayPage::seek);
    connect(controls_, &views::ReplayControls::stepForward, this, [this] {
        seek(session_.replay().cursor
                 ? static_cast<qint64>(session_.replay().cursor->position()) + 1
                 : 0);
    });
    connect(controls_, &views::ReplayControls::stepBack, this, [this] {
        if (session_.replay().cursor && session_.replay().cursor->position() > 0)
            seek(static_cast<qint64>(session_.replay().cursor->position()) - 1);
    });
    connect(controls_, &views::ReplayControls::playToggled, this, [this] {
        if (timer_->isActive()) {
            timer_->stop();
        } else if (session_.replay().cursor) {
            timer_->start();
        }
        controls_->setPlaying(timer_->isActive());
    });
    connect(timer_, &QTimer::timeout, this, [this] {
        // The chosen speed: one event per frame, or a share of the trace per second.
        if (!session_.replay().cursor ||
            session_.replay().cursor->position() >= session_.replay().cursor->events()) {
            timer_->stop();
            controls_->setPlaying(false);
            return;
        }
        const std::uint64_t stepSize = views::ReplayControls::stepPerFrame(
            controls_->speed()->currentIndex(), session_.replay().cursor->events());
        seek(static_cast<qint64>(session_.replay().cursor->position() + stepSize));
    });
    connect(controls_, &views::ReplayControls::fileChosen, this, [this](int i) {
        file_ = std::max(0, i);
        refresh();
    });
    connect(controls_, &views::ReplayControls::treeChosen, this, [this](int i) {
        treeIndex_ = std::max(0, i);
        refresh();
    });
    connect(controls_, &views::ReplayControls::bookmarkRequested, this, [this] {
        if (!session_.replay().cursor) return;
        bool ok = false;
        const QString caption = QInputDialog::getText(
            this, tr("Bookmark"),
            tr("Caption for event %L1:").arg(session_.replay().cursor->position()),
            QLineEdit::Normal, QString(), &ok);
        if (ok) addBookmark(caption);
    });
    connect(controls_, &views::ReplayControls::bookmarkRemoveRequested, this, [this](int row) {
        if (row < 0 || static_cast<std::size_t>(row) >= session_.replay().bookmarks.size()) return;
        session_.replay().bookmarks.erase(session_.replay().bookmarks.begin() + row);
        saveBookmarks();
    });
    connect(controls_, &views::ReplayControls::bookmarkChosen, this, [this](int row) {
        if (row >= 0 && static_cast<std::size_t>(row) < session_.replay().bookmarks.size())
            seek(static_cast<qint64>(
                session_.replay().bookmarks[static_cast<std::size_t>(row)].event));
    });
}

bool ReplayPage::openTrace(const QString& path) {
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
            host_.interactive());
    } catch (const trace::TraceError& e) {
        host_.showError(tr("Cannot open the trace"), ErrorText::of(e));
        return false;
    } catch (...) {
        host_.showError(tr("Cannot open the trace"),
                        QString::fromStdString(limits::UserReason::of(
                            std::current_exception(), "opening " + path.toStdString())));
        return false;
    }
    if (!finished) {
        host_.showStatus(tr("Opening %1 cancelled.").arg(path), 6000);
        return false;
    }
    timer_->stop();
    session_.replay().cursor = std::move(cursor);
    session_.replay().path = path.toStdString();
    session_.replay().bookmarks = std::move(marks);
    file_ = 0;
    treeIndex_ = 0;
    if (timeline)
        timeline_->setTimeline(std::move(timeline));
    else
        host_.showError(tr("Cannot build the timeline"), timelineError);
    QStringList files, trees;
    for (const std::string& f : session_.replay().cursor->header().files)
        files << QString::fromStdString(f);
    for (unsigned t = 0; t < session_.replay().cursor->header().treesPerFile; ++t)
        trees << (session_.replay().cursor->header().treesPerFile == 1 ? tr("the single tree")
                                                                       : tr("tree %1").arg(t));
    controls_->setChoices(files, trees);
    host_.showPage(this);
    if (!session_.replay().cursor->error().empty())
        host_.showError(tr("The trace stops early"),
                        tr("%1\nEverything before that line is shown.")
                            .arg(QString::fromStdString(session_.replay().cursor->error())));
    seek(static_cast<qint64>(session_.replay().cursor->events()));
    saveBookmarks();
    host_.showStatus(tr("Trace %1: %L2 events (%3).")
                         .arg(QFileInfo(path).fileName())
                         .arg(session_.replay().cursor->events())
                         .arg(QString::fromStdString(session_.replay().cursor->header().source)),
                     6000);
    return true;
}

void ReplayPage::seek(qint64 position) {
    if (!session_.replay().cursor) return;
    try {
        session_.replay().cursor->seek(static_cast<std::uint64_t>(std::max<qint64>(0, position)));
    } catch (const trace::TraceError& e) {
        timer_->stop();
        host_.showError(tr("Cannot replay the trace"), ErrorText::of(e));
        return;
    }
    refresh();
}

void ReplayPage::refresh() {
    if (!session_.replay().cursor) return;
    const auto& h = session_.replay().cursor->header();
    const int file = std::min<int>(file_, static_cast<int>(h.files.size()) - 1);
    const int tree = std::min<int>(
        treeIndex_, static_cast<int>(session_.replay().cursor->replay().treeCount(file)) - 1);
    const itree::IntervalTree& t = session_.replay().cursor->replay().tree(file, tree);
    tree_->setTree(session::DrawTree::of(t, [](const itree::Node* n, session::DrawNode& d) {
        d.id = static_cast<int>(trace::TraceReplay::vmaIdOf(n));
        d.homeNode = trace::TraceReplay::homeOf(n);
        d.pid = trace::TraceReplay::ownerOf(n);
    }));
    tree_->setTitle(tr("%1, %2 at event %L3")
                        .arg(QString::fromStdString(h.files[static_cast<std::size_t>(file)]))
                        .arg(controls_->trees()->currentText())
                        .arg(session_.replay().cursor->position()),
                    tr("%L1 VMAs · %2 · %3")
                        .arg(t.size())
                        .arg(QString::fromStdString(h.policy))
                        .arg(QString::fromStdString(h.source)));
    controls_->setPosition(static_cast<qint64>(session_.replay().cursor->position()),
                           static_cast<qint64>(session_.replay().cursor->events()));
    controls_->setEventText(describe(h, session_.replay().cursor->lastEvent()));
    QStringList marks;
    for (const trace::Bookmark& b : session_.replay().bookmarks)
        marks << tr("%L1: %2").arg(b.event).arg(QString::fromStdString(b.caption));
    controls_->setBookmarks(marks);
    timeline_->setBookmarks(session_.replay().bookmarks);
    timeline_->setReplayPosition(session_.replay().cursor->position());
}

void ReplayPage::addBookmark(const QString& caption) {
    if (!session_.replay().cursor) return;
    session_.replay().bookmarks.push_back(
        {session_.replay().cursor->position(), caption.toStdString()});
    std::stable_sort(
        session_.replay().bookmarks.begin(), session_.replay().bookmarks.end(),
        [](const trace::Bookmark& a, const trace::Bookmark& b) { return a.event < b.event; });
    saveBookmarks();
}

void ReplayPage::saveBookmarks() {
    if (QString::fromStdString(session_.replay().path).isEmpty()) return;
    const std::string path =
        trace::Bookmarks::sidecarPath(QString::fromStdString(session_.replay().path).toStdString());
    try {
        if (!session_.replay().bookmarks.empty() || QFileInfo::exists(QString::fromStdString(path)))
            trace::Bookmarks::save(path, session_.replay().bookmarks);
    } catch (const trace::TraceError& e) {
        host_.showError(tr("Cannot save the bookmarks"), ErrorText::of(e));
    }
    refresh();
}

bool ReplayPage::recordTrace(const QString& path, const QString& policy, int copies,
                             int durationMs) {
    RecordRequest r;
    r.path = path;
    r.policy = policy;
    r.copies = copies;
    r.durationMs = durationMs;
    r.seed = session_.settings().seed;
    r.walkersPerSecond = session_.settings().walkersPerSecond;
    return record(r);
}

RecordRequest ReplayPage::recordDefaults() const {
    RecordRequest r;
    const session::SimSettings& s = session_.settings();
    r.policy = s.policies.empty() ? QStringLiteral("single")
                                  : QString::fromStdString(s.policies.front().name());
    if (session_.loaded()) {
        const std::vector<unsigned> copies = s.copiesOn(*session_.host().topology);
        if (!copies.empty()) r.copies = static_cast<int>(copies.back());
    }
    r.durationMs = s.durationMs;
    r.seed = s.seed;
    r.walkersPerSecond = s.walkersPerSecond;
    r.path = QStringLiteral("run.trace");
    return r;
}

bool ReplayPage::record(const RecordRequest& request) {
    if (!session_.loaded()) return false;
    const QString& path = request.path;
    const QString& policy = request.policy;
    mapping::Policy p;
    std::string error;
    if (!mapping::Policy::parse(policy.toStdString(), p, error)) {
        host_.showError(tr("Cannot record"), QString::fromStdString(error));
        return false;
    }
    // The session's settings (recipe, parameters), with the request's policy, copies, window,
    // seed and walkers. The recipe is held here for the worker's sake.
    const std::shared_ptr<const sim::Recipe> recipe = session_.settings().recipe;
    sim::SimConfig c = session_.simConfig(p, static_cast<unsigned>(std::max(1, request.copies)));
    c.durationMs = std::max(1.0, request.durationMs);
    c.seed = request.seed;
    c.walkersPerSecond = std::max(0.0, request.walkersPerSecond);
    // recordRun writes beside the target under a temporary name and renames it over the target
    // at the end (TraceWriter): a recording that fails, is cancelled or killed leaves the file
    // that was there as it was. A device or a directory it must not replace.
    // Nothing the window has read, the open trace included (its bookmarks count its events).
    if (const std::string why = io::OutputTarget::check(path.toStdString(), host_.windowInputs());
        !why.empty()) {
        host_.showError(tr("Cannot record"), QString::fromStdString(why));
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
            host_.interactive());
        if (!finished) {
            host_.showStatus(tr("Recording cancelled; %1 is unchanged.").arg(path), 6000);
            return false;
        }
    } catch (const io::InputError& e) {
        host_.showError(tr("Cannot record"), ErrorText::of(e));
        return false;
    } catch (const std::exception& e) {
        host_.showError(tr("Cannot record"), QString::fromUtf8(e.what()));
        return false;
    }
    return openTrace(path);
}

void ReplayPage::recordDialog() {
    if (!session_.loaded()) return;
    QStringList policies;
    for (const mapping::Policy& p : session_.settings().policies)
        policies << QString::fromStdString(p.name());
    QSettings s;
    RecordRequest defaults = recordDefaults();
    defaults.path = s.value("record/path", defaults.path).toString();
    RecordDialog d(policies, defaults, this);
    if (d.exec() != QDialog::Accepted) return;
    if (host_.persists()) s.setValue("record/path", d.request().path);
    record(d.request());
}

QWidget* ReplayPage::buildTimeline(QWidget* parent) {
    auto* split = new QSplitter(Qt::Horizontal, parent);
    timelineView_ = new views::TimelineView(split);
    // The panel scrolls, so that it never sets the window's minimum height.
    auto* scroll = new QScrollArea(split);
    timelinePanel_ = new views::TimelinePanel(scroll);
    scroll->setWidget(timelinePanel_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumHeight(80);
    scroll->setMinimumWidth(400);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    split->addWidget(timelineView_);
    split->addWidget(scroll);
    // 3:2, so that at 1280 px the statistics' seven columns fit whole beside the lanes.
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    timeline_ = new TimelineController(timelineView_, timelinePanel_, this);
    connect(timeline_, &TimelineController::seekRequested, this, &ReplayPage::seek);
    connect(timeline_, &TimelineController::exportRequested, this, [this] {
        QSettings s;
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export the timeline"),
            s.value("export/timeline", "immap-timeline.png").toString(),
            views::ViewExporter::filters());
        if (path.isEmpty()) return;
        if (host_.persists()) s.setValue("export/timeline", path);
        exportTimeline(path);
    });
    return split;
}

std::vector<std::pair<int, int>> ReplayPage::traceCpuNodes(const std::string& spec) {
    // CPUs the copies do not sit on (walkers run anywhere) get their node from the trace's
    // topology when it can be loaded without the live host. Runs on the loading thread.
    std::vector<std::pair<int, int>> cpuNodes;
    if (!spec.empty() && spec.rfind("host", 0) != 0) {
        try {
            const topology::Topology topo = topology::Topology::fromSpec(spec);
            for (const topology::Pu& pu : topo.pus())
                cpuNodes.push_back({static_cast<int>(pu.osIndex), topo.nodeOfPu(pu.osIndex)});
        } catch (const std::exception&) {
            // The header's copy placement is enough to draw; unknown CPUs go under "node ?".
        }
    }
    return cpuNodes;
}

bool ReplayPage::exportTimeline(const QString& path) {
    const QString error = views::ViewExporter::save(timelineView_, path, host_.windowInputs());
    if (!error.isEmpty()) {
        host_.showError(tr("Export failed"), error);
        return false;
    }
    host_.showStatus(tr("Exported the timeline to %1").arg(path), 5000);
    return true;
}

}  // namespace immap::gui
