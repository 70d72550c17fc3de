#include "ThroughputPage.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QLabel>
#include <QLocale>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "ErrorText.h"
#include "io/InputError.h"
#include "mapping/Policy.h"
#include "measure/MeasuredCurve.h"
#include "sim/Band.h"
#include "sim/SingleRuns.h"
#include "sim/SweepRow.h"

namespace immap::gui {

ThroughputPage::ThroughputPage(session::Session& session, PageHost& host, views::TopologyView* heat,
                               QWidget* parent)
    : QWidget(parent), session_(session), host_(host), heat_(heat) {
    if (heat_)
        connect(heat_, &views::TopologyView::heatChoiceRequested, this,
                [this](int i) { showHeat(heatRuns_, i); });
    controls_ = new views::SweepControls(this);
    view_ = new views::ThroughputView(this);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("sweepSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setMargin(4);
    summary_->setText(scopeNote());
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(controls_);
    box->addWidget(view_, 1);
    box->addWidget(summary_);
    sweeps_ = new SweepController(this);
    redraw_ = new QTimer(this);
    redraw_->setSingleShot(true);
    // Points finish in bursts (a few ms apart at small copy counts): one redraw per burst.
    connect(redraw_, &QTimer::timeout, this, [this] {
        if (partial_.empty()) return;
        view_->setOverlay({});
        drawRuns(partial_.shown());
    });
    connect(sweeps_, &SweepController::pointDone, this, &ThroughputPage::pointDone);

    connect(controls_, &views::SweepControls::runRequested, this, [this] { startSweep(); });
    auto* run = new QAction(tr("Run sweep"), this);
    run->setShortcut(QKeySequence(tr("Ctrl+R")));
    run->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(run);
    connect(run, &QAction::triggered, this, [this] { startSweep(); });
    connect(controls_, &views::SweepControls::gridEdited, this, [this] { takeGrid(); });
    connect(controls_, &views::SweepControls::cancelRequested, sweeps_, &SweepController::cancel);
    connect(sweeps_, &SweepController::progress, controls_, &views::SweepControls::setProgress);
    connect(sweeps_, &SweepController::progress, this, [this](int done, int total) {
        // Once points are drawn the progress line says how far it is, not a card over them.
        if (partial_.empty()) view_->setOverlay(runningOverlay(done, total));
        if (heat_)
            heat_->setHeatPending(
                tr("PU heat: the sweep is running (%1 of %2 runs); each PU is coloured by its "
                   "lock wait when it ends")
                    .arg(QLocale().toString(done), QLocale().toString(total)));
    });
    connect(sweeps_, &SweepController::finished, this, &ThroughputPage::finished);
    connect(sweeps_, &SweepController::cancelled, this, [this] {
        dropPartial();
        if (heat_) heat_->setHeatPending({});
        controls_->setRunning(false);
        controls_->setMessage(tr("cancelled"));
        if (view_->runs().empty())
            view_->setOverlay(tr("Sweep cancelled.\nRun sweep (Ctrl+R) to start again."));
        else
            view_->setOverlay({});  // the last complete sweep stays
    });
    connect(sweeps_, &SweepController::failed, this, [this](const QString& reason) {
        dropPartial();
        if (heat_) heat_->setHeatPending({});
        controls_->setRunning(false);
        controls_->setMessage(tr("failed"));
        view_->setOverlay(view_->runs().empty() ? idleOverlay() : QString());
        host_.showError(tr("Sweep failed"), reason);
    });
    showGrid();  // the fields start at the session's values, not at their own
    view_->setOverlay(idleOverlay());
}

QString ThroughputPage::idleOverlay() {
    return tr("No sweep yet.\nRun sweep (Ctrl+R) simulates every policy at every copy count.");
}

QString ThroughputPage::runningOverlay(int done, int total) {
    const QLocale loc;
    return tr("Simulating: %1 of %2 runs (%3%)")
        .arg(loc.toString(done))
        .arg(loc.toString(total))
        .arg(total > 0 ? 100 * done / total : 0);
}

void ThroughputPage::pointDone(const sim::SweepUpdate& update) {
    if (!sweeps_->running()) return;  // a cancelled sweep's last points
    partial_.update(update);
    const session::SimSettings& s = session_.settings();
    controls_->setMessage(QString::fromStdString(partial_.progress().text()));
    summary_->setText(streamingNote(partial_, s.seeds, s.bands));
    // A new point changes the curves' shape: soon. Once every point is drawn, seeds and bands
    // move them less, and a redraw costs a core's time the runs could use: once a second.
    const sim::SweepProgress& p = partial_.progress();
    if (!redraw_->isActive()) redraw_->start(p.drawn < p.points ? 150 : 1000);
}

QString ThroughputPage::streamingNote(const sim::SweepPartial& partial, unsigned seeds,
                                      unsigned bands) {
    QStringList lines;
    lines << tr("Sweep running: %1.").arg(QString::fromStdString(partial.progress().text()));
    QStringList lacks;
    const auto points = [](std::size_t n) {
        return n == 1 ? tr("1 point") : tr("%1 points").arg(n);
    };
    if (const std::size_t n = partial.pointsShort(); n > 0)
        lacks << tr("%1 drawn at the mean of fewer seeds than %2 (the error bar spans the seeds "
                    "finished)")
                     .arg(points(n))
                     .arg(seeds);
    if (const std::size_t n = partial.bandsMissing(); n > 0)
        lacks << tr("%1 without a band yet (a point's band is shaded once its %2 parameter sets "
                    "have finished)")
                     .arg(points(n))
                     .arg(bands);
    if (!lacks.isEmpty()) lines << tr("Not final: %1.").arg(lacks.join(QStringLiteral("; ")));
    return lines.join(QLatin1Char('\n'));
}

void ThroughputPage::drawRuns(const std::vector<sim::SimResult>& runs) {
    const auto& topo = *session_.host().topology;
    view_->setRuns(runs, views::ThroughputView::machineName(topo),
                   static_cast<int>(topo.pus().size()));
}

void ThroughputPage::dropPartial() {
    redraw_->stop();
    const bool drawn = !partial_.empty();
    partial_ = {};
    if (!drawn) return;
    drawRuns(session_.sweepResults());
    showSummary();
}

void ThroughputPage::finished(const std::vector<sim::SimResult>& runs) {
    redraw_->stop();
    partial_ = {};
    session_.setSweepResults(runs);
    view_->setOverlay({});
    drawRuns(runs);
    controls_->setRunning(false);
    const std::size_t seeds =
        runs.empty() ? 1 : std::max<std::size_t>(1, runs.front().seedRates.size());
    controls_->setMessage(seeds > 1 ? tr("%1 points x %2 seeds").arg(runs.size()).arg(seeds)
                                    : tr("%1 runs").arg(runs.size()));
    showSummary();
    showHeat(runs);
    showMeasured();
    const std::size_t sets = runs.empty() ? 0 : runs.front().bandRates.size();
    host_.showStatus(tr("Sweep done: %1 runs.").arg(runs.size() * (seeds + sets)), 5000);
}

// The topology view's heat: each CPU's share of time waiting for i_mmap locks in the biggest
// run of one policy (the first swept unless a chip chose another), at the lowest walker rate
// (without walkers when the sweep ran them side by side).
void ThroughputPage::showHeat(const std::vector<sim::SimResult>& runs, int policy) {
    if (!heat_) return;
    heat_->setHeatPending({});
    if (&runs != &heatRuns_) heatRuns_ = runs;
    QStringList policies;
    for (const sim::SimResult& r : heatRuns_)
        if (!policies.contains(QString::fromStdString(r.policy)))
            policies << QString::fromStdString(r.policy);
    if (policies.isEmpty()) {
        heat_->clearHeat();
        heat_->setHeatChoices({}, -1);
        return;
    }
    policy = std::clamp(policy, 0, static_cast<int>(policies.size()) - 1);
    const std::string chosen = policies[policy].toStdString();
    const sim::SimResult* big = nullptr;
    for (const sim::SimResult& r : heatRuns_)
        if (r.policy == chosen &&
            (!big || r.walkersPerSecond < big->walkersPerSecond ||
             (r.walkersPerSecond == big->walkersPerSecond && r.copies > big->copies)))
            big = &r;
    std::vector<std::pair<unsigned, double>> heat;
    for (const sim::CpuResult& c : big->cpus)
        heat.push_back({c.cpu, c.waitShare()});
    heat_->setHeat(
        heat, tr("share of time waiting for i_mmap locks, %1 at %2 copies%3")
                  .arg(QString::fromStdString(big->policy))
                  .arg(big->copies)
                  .arg(big->walkersPerSecond > 0 ? tr(", %1 walks/s").arg(big->walkersPerSecond)
                                                 : QString()));
    heat_->setHeatChoices(policies, policy);
}

QString ThroughputPage::summarise(const std::vector<sim::SimResult>& runs, bool slide) {
    if (runs.empty()) return slide ? slideScopeNote() : scopeNote();
    // The ratios and what the model holds close every summary; a slide has the ratios first
    // (after the heading line) and the scope in one line.
    // A slide keeps only the heading line, not the per-copies figures: the plot and its quoted
    // points carry them, and four lines of large type hold no more.
    // A point without a steady state says so first, with the run's own reason: its execs/s is
    // a measurement of the saturation, not a throughput.
    QString overloaded;
    std::size_t overloads = 0;
    for (const sim::SimResult& r : runs) {
        if (r.overload.empty()) continue;
        if (overloads++ == 0)
            overloaded = tr("No steady state: %1 at %2 copies, %3 walks/s: %4")
                             .arg(QString::fromStdString(r.policy))
                             .arg(r.copies)
                             .arg(r.walkersPerSecond)
                             .arg(QString::fromStdString(r.overload));
    }
    if (overloads > 1) overloaded += tr(" (and %1 more points)").arg(overloads - 1);
    auto close = [&](QStringList& lines, qsizetype headings) {
        if (slide) {
            lines = lines.mid(0, headings);
            lines << bandLine(runs);
        } else {
            lines << bandLine(runs);
        }
        if (!overloaded.isEmpty()) lines.prepend(overloaded);
        lines << (slide ? slideScopeNote() : scopeNote());
        lines.removeAll(QString());
        return lines.join(QLatin1Char('\n'));
    };
    unsigned low = runs.front().copies, high = runs.front().copies;
    std::vector<double> rates;          // ascending
    std::vector<std::string> policies;  // in sweep order
    for (const sim::SimResult& r : runs) {
        low = std::min(low, r.copies);
        high = std::max(high, r.copies);
        if (std::find(rates.begin(), rates.end(), r.walkersPerSecond) == rates.end())
            rates.push_back(r.walkersPerSecond);
        if (std::find(policies.begin(), policies.end(), r.policy) == policies.end())
            policies.push_back(r.policy);
    }
    std::sort(rates.begin(), rates.end());
    const QLocale loc;
    auto seedRange = [&](const sim::SimResult& r) {
        if (r.seedRates.size() < 2) return QString();
        const auto [lo, hi] = std::minmax_element(r.seedRates.begin(), r.seedRates.end());
        return tr(" (%1 seeds: %2-%3)")
            .arg(r.seedRates.size())
            .arg(loc.toString(*lo, 'f', 0), loc.toString(*hi, 'f', 0));
    };
    // No walk completed in the window: no latency to give (not a latency of 0).
    auto walk = [&](const sim::SimResult& r) {
        return r.walks > 0 ? tr("%1 µs").arg(loc.toString(r.walkerLatencyMeanNs / 1e3, 'f', 1))
                           : tr("(none completed)");
    };
    auto find = [&](const std::string& policy, unsigned copies,
                    double rate) -> const sim::SimResult* {
        for (const sim::SimResult& r : runs)
            if (r.policy == policy && r.copies == copies && r.walkersPerSecond == rate) return &r;
        return nullptr;
    };
    QStringList lines;
    if (rates.size() > 1) {
        // Side by side, compact (the plot above shows the seeds' ranges): each policy's execs/s
        // at each rate, "without / with", and its walks' mean latency at each rate above 0; the
        // largest copy count first, where the policies differ; memory per inode once, since it
        // depends on the policy alone.
        QStringList shown, memory;
        for (double rate : rates)
            if (rate > 0) shown << loc.toString(rate, 'f', 0);
        for (const std::string& policy : policies)
            for (const sim::SimResult& r : runs)
                if (r.policy == policy) {
                    memory << tr("%1 %2 B")
                                  .arg(QString::fromStdString(policy))
                                  .arg(r.memoryPerInodeBytes);
                    break;
                }
        lines << (rates.front() == 0
                      ? tr("Without / with %1 whole-file walks/s (memory per inode: %2):")
                      : tr("With %1 whole-file walks/s (memory per inode: %2):"))
                     .arg(shown.join(QStringLiteral(" / ")), memory.join(QStringLiteral(" · ")));
        for (unsigned copies : {high, low}) {
            QStringList parts;
            for (const std::string& policy : policies) {
                QStringList execs, walks;
                for (double rate : rates) {
                    const sim::SimResult* r = find(policy, copies, rate);
                    execs << (r ? loc.toString(r->execsPerSecond, 'f', 0) : QStringLiteral("-"));
                    if (rate > 0) walks << (r ? walk(*r) : QStringLiteral("-"));
                }
                parts << tr("%1 %2 execs/s, walk %3")
                             .arg(QString::fromStdString(policy), execs.join(QStringLiteral(" / ")),
                                  walks.join(QStringLiteral(" / ")));
            }
            lines << (copies == 1 ? tr("1 copy: ") : tr("%1 copies: ").arg(copies)) +
                         parts.join(QStringLiteral(" · "));
            if (low == high) break;
        }
        return close(lines, 1);
    }
    for (unsigned copies : {low, high}) {
        QStringList parts;
        for (const sim::SimResult& r : runs) {
            if (r.copies != copies) continue;
            QString s = QStringLiteral("%1 %2 execs/s")
                            .arg(QString::fromStdString(r.policy))
                            .arg(loc.toString(r.execsPerSecond, 'f', 0));
            s += seedRange(r);
            if (r.walkersPerSecond > 0)
                s += tr(", walk %1 µs").arg(loc.toString(r.walkerLatencyMeanNs / 1e3, 'f', 1));
            s += tr(", %1 B/inode").arg(r.memoryPerInodeBytes);
            // The B-tree's cost is per VMA, not per inode (the rbtree's is 32 B).
            if (mapping::Policy::namesBTree(r.policy))
                s += tr(", %1 B/VMA").arg(loc.toString(r.linkBytesPerVma, 'f', 1));
            parts << s;
        }
        lines << (copies == 1 ? tr("1 copy: ") : tr("%1 copies: ").arg(copies)) +
                     parts.join(QStringLiteral(" · "));
        if (low == high) break;
    }
    const double walkers = runs.front().walkersPerSecond;
    if (walkers > 0)
        lines.prepend(tr("With %1 whole-file walks/s:").arg(loc.toString(walkers, 'f', 0)));
    return close(lines, walkers > 0 ? 1 : 0);
}

// Each policy over single at the largest copy count with its band, as `immap sweep --bands`
// prints it ("split-locks/single at 384: 10.6x [3.94, 9.67]"), at the lowest walker rate;
// empty without bands.
QString ThroughputPage::bandLine(const std::vector<sim::SimResult>& runs) {
    unsigned high = 0;
    double rate = std::numeric_limits<double>::infinity();
    for (const sim::SimResult& r : runs) {
        high = std::max(high, r.copies);
        rate = std::min(rate, r.walkersPerSecond);
    }
    QStringList parts;
    std::size_t sets = 0;
    const sim::SingleRuns singles(runs);
    for (const sim::SimResult& r : runs) {
        if (r.copies != high || r.walkersPerSecond != rate || r.policy == "single") continue;
        const sim::Band b = singles.band(r);
        if (!b.valid) continue;
        sets = r.bandRates.size();
        parts << tr("%1/single %2x [%3, %4]")
                     .arg(QString::fromStdString(r.policy))
                     .arg(singles.speedup(r), 0, 'f', 2)
                     .arg(b.p10, 0, 'f', 2)
                     .arg(b.p90, 0, 'f', 2);
    }
    if (parts.isEmpty()) return {};
    return tr("At %1 copies, the point at the default parameters and [the 10-90% band over %2 "
              "parameter sets]: %3")
        .arg(high)
        .arg(sets)
        .arg(parts.join(QStringLiteral(" · ")));
}

// What the model includes, under every result: without it a split policy's curve reads as a
// forecast.
void ThroughputPage::setSlideMode(bool on) {
    slideMode_ = on;
    // A slide has no use for the grid's fields (Ctrl+R still runs the sweep); the plot takes
    // their row.
    controls_->setVisible(!on);
    view_->setCompact(on);
    showSummary();
}

QString ThroughputPage::slideScopeNote() {
    return tr(
        "Modelled: the i_mmap locks and trees and the lines every exec shares; not the "
        "slab, the scheduler or memory bandwidth.");
}

void ThroughputPage::showSummary() {
    const QString text = summarise(session_.sweepResults(), slideMode_);
    summary_->setText(text);
    // The application's type, which the label takes (workshop mode sets it just before).
    summary_->setMaximumHeight(
        slideMode_ ? QFontMetrics(QApplication::font()).lineSpacing() * 4 + 14 : QWIDGETSIZE_MAX);
}

QString ThroughputPage::scopeNote() {
    // The walker figures are the defaults' own, so the note cannot drift from them.
    const double trying = sim::CostParams{}.walkerTrylock;
    return tr("The model holds the i_mmap locks and trees (cache-state pricing, the rwsem's "
              "OSQ, stealing and handoff) and the other lines every exec shares: the per-CPU "
              "allocator's lock, percpu_counters_lock, pgd_lock, binfmt_lock, i_writecount, "
              "dentry lockrefs, page-cache folios, v2's vma_count, loops over every CPU, SMT. "
              "Not modelled: the slab's per-node locks, the scheduler, memory bandwidth "
              "(Help > Validation compares it with every published figure). Split-locks' "
              "author measured about 5x. Dashed: with "
              "whole-file walkers (default %1/s, the rate measured on a host under memory "
              "pressure; %2% are reclaim's, which give up on a busy lock).")
        .arg(QLocale().toString(session::SimSettings::kDefaultWalkersPerSecond, 'f', 0))
        .arg(QLocale().toString(100 * trying, 'f', 0));
}

QString ThroughputPage::takeGrid() {
    session::SimSettings& s = session_.settings();
    std::vector<mapping::Policy> policies;
    std::vector<unsigned> copies;
    std::string why;
    if (!sim::Sweep::parsePolicies(controls_->policies().toStdString(), policies, why) ||
        !sim::Sweep::parseCopies(controls_->copies().toStdString(), copies, why)) {
        controls_->setMessage(QString::fromStdString(why));
        return QString::fromStdString(why);
    }
    s.policies = std::move(policies);
    // The machine's own default counts stay "the default", so they follow the next topology.
    const bool defaults =
        session_.loaded() && copies == sim::Sweep::defaultCopies(static_cast<unsigned>(
                                           session_.host().topology->pus().size()));
    s.copies = defaults ? std::vector<unsigned>{} : std::move(copies);
    s.durationMs = controls_->durationMs();
    s.walkersPerSecond = controls_->walkersPerSecond();
    s.walkersSideBySide = controls_->sideBySide();
    s.bands = static_cast<unsigned>(controls_->bands());
    return {};
}

void ThroughputPage::showGrid() {
    const session::SimSettings& s = session_.settings();
    controls_->setPolicies(QString::fromStdString(s.policiesText()));
    if (session_.loaded()) {
        QStringList copies;
        for (unsigned n : s.copiesOn(*session_.host().topology))
            copies << QString::number(n);
        controls_->setCopies(copies.join(QLatin1Char(',')));
    }
    controls_->setDurationMs(static_cast<int>(s.durationMs));
    controls_->setWalkersPerSecond(s.walkersPerSecond);
    controls_->setSideBySide(s.walkersSideBySide);
    controls_->setBands(static_cast<int>(s.bands));
}

void ThroughputPage::reset() {
    if (sweeps_->running()) {
        sweeps_->cancel();
        sweeps_->wait();
        QCoreApplication::processEvents();
    }
    // Nothing of the scenario before stays on screen, nor in the session.
    session_.setSweepResults({});
    showSummary();
    view_->setMarks({});
    view_->setRuns({}, {}, 0);
    view_->setOverlay(idleOverlay());
    showHeat({});
    measured_ = {};  // measurements opened over the scenario before go with it
    showMeasured();
}

bool ThroughputPage::startSweep() {
    if (!session_.loaded() || sweeps_->running()) return false;
    if (const QString why = takeGrid(); !why.isEmpty()) {
        host_.showError(tr("Cannot run the sweep"), why);
        return false;
    }
    const session::SimSettings& s = session_.settings();
    const auto& topo = *session_.host().topology;
    controls_->setRunning(true);
    // One step per run: every walker rate, policy, copy count and seed.
    const std::size_t points = s.walkerRates().size() * s.policies.size() * s.copiesOn(topo).size();
    const int total = static_cast<int>(points * (s.seeds + s.bands));
    controls_->setProgress(0, total);
    partial_ = sim::SweepPartial(points, s.seeds, s.bands);
    view_->setOverlay(runningOverlay(0, total));
    if (heat_)
        heat_->setHeatPending(
            tr("PU heat: the sweep is running; each PU is coloured by its lock "
               "wait when it ends"));
    controls_->setMessage(tr("running on %1").arg(QString::fromStdString(topo.spec())));
    return sweeps_->start(topo, s);
}

bool ThroughputPage::openMeasurements(const QString& path) {
    try {
        measured_ = measure::MeasuredCurve::fromFile(path.toStdString());
    } catch (const io::InputError& e) {
        host_.showError(tr("Cannot open the measurements"), ErrorText::of(e));
        return false;
    } catch (const std::exception& e) {
        host_.showError(tr("Cannot open the measurements"), QString::fromUtf8(e.what()));
        return false;
    }
    measuredPath_ = path;
    showMeasured();
    return true;
}

void ThroughputPage::showMeasured() {
    std::vector<views::ThroughputView::Measured> points;
    for (const measure::MeasuredPoint& p : measured_.points)
        points.push_back({p.copies, p.execsPerSecond, p.stddev});
    const QString host = QString::fromStdString(measured_.host);
    const QString note =
        points.empty() || !session_.loaded()
            ? QString()
            : shapeNote(host, measured_.pus, measured_.nodes, *session_.host().topology);
    view_->setMeasured(points,
                       tr("measured on %1 (%2 runs each, load %3)%4")
                           .arg(host)
                           .arg(measured_.repeat)
                           .arg(measured_.loadAverage, 0, 'f', 1)
                           .arg(note.isEmpty() ? QString() : tr(", another machine")),
                       note);
}

QString ThroughputPage::shapeNote(const QString& host, unsigned pus, unsigned nodes,
                                  const topology::Topology& plotted) {
    const unsigned plottedPus = static_cast<unsigned>(plotted.pus().size());
    const unsigned plottedNodes = static_cast<unsigned>(plotted.nodeCount());
    if (pus == plottedPus && nodes == plottedNodes) return {};
    auto shape = [](unsigned p, unsigned n) {
        if (p == 0) return tr("shape not recorded");
        n = std::max(1u, n);
        return (p == 1 ? tr("1 PU") : tr("%L1 PUs").arg(p)) + QStringLiteral(", ") +
               (n == 1 ? tr("1 NUMA node") : tr("%1 NUMA nodes").arg(n));
    };
    return tr("Measured points: %1 (%2).\nCurves: simulated on another machine (%3).\n"
              "Compare the shapes of the curves, not their values.")
        .arg(host.isEmpty() ? tr("an unnamed host") : host, shape(pus, nodes),
             shape(plottedPus, plottedNodes));
}

}  // namespace immap::gui
