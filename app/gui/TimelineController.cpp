#include "TimelineController.h"

#include <QStringList>

#include "trace/TraceReader.h"

namespace immap::gui {

using trace::Time;

namespace {

QString fmt(Time t) {
    return QString::fromStdString(trace::formatTime(t));
}

}  // namespace

TimelineController::TimelineController(views::TimelineView* view, views::TimelinePanel* panel,
                                       QObject* parent)
    : QObject(parent), view_(view), panel_(panel) {
    connect(view_, &views::TimelineView::selectionChanged, this, [this](qint64 from, qint64 to) {
        selection_ = std::make_pair(static_cast<Time>(from), static_cast<Time>(to));
        recompute();
    });
    connect(view_, &views::TimelineView::selectionCleared, this, [this] {
        selection_.reset();
        recompute();
    });
    connect(view_, &views::TimelineView::eventClicked, this, &TimelineController::inspect);
    connect(panel_, &views::TimelinePanel::filterToSelectionRequested, this, [this] {
        if (selection_)
            addFilter(trace::FilterItem::timeRange(selection_->first, selection_->second));
    });
    connect(panel_, &views::TimelinePanel::filterRequested, this, [this](int type, int value) {
        addFilter({static_cast<trace::FilterItem::Type>(type), value});
    });
    connect(panel_, &views::TimelinePanel::filterRemoveRequested, this,
            &TimelineController::removeFilter);
    connect(panel_, &views::TimelinePanel::filtersClearRequested, this,
            &TimelineController::clearFilters);
    connect(panel_, &views::TimelinePanel::seekRequested, this,
            [this](qint64 event) { emit seekRequested(event + 1); });
    connect(panel_, &views::TimelinePanel::exportRequested, this,
            &TimelineController::exportRequested);
}

void TimelineController::open(const std::string& path,
                              const std::vector<std::pair<int, int>>& cpuNodes) {
    setTimeline(build(path, cpuNodes));
}

std::shared_ptr<trace::Timeline> TimelineController::build(
    const std::string& path, const std::vector<std::pair<int, int>>& cpuNodes,
    const std::atomic<bool>* cancel) {
    trace::TraceReader reader(path);
    trace::Timeline::Builder b(reader.header());
    b.setCpuNodes(cpuNodes);
    sim::SimEvent e;
    std::uint64_t n = 0;
    while (reader.next(e)) {
        b.add(e);
        if (cancel && (++n & 0xffff) == 0 && *cancel) return nullptr;
    }
    return std::make_shared<trace::Timeline>(b.finish());
}

void TimelineController::setTimeline(std::shared_ptr<trace::Timeline> timeline) {
    timeline_ = std::move(timeline);
    filter_.clear();
    selection_.reset();
    view_->setTimeline(timeline_);
    panel_->setChoices(*timeline_);
    inspect(-1);
    recompute();
}

void TimelineController::setBookmarks(const std::vector<trace::Bookmark>& marks) {
    std::vector<views::TimelineView::Marker> out;
    if (timeline_ && !timeline_->empty())
        for (const trace::Bookmark& b : marks) {
            const std::size_t last =
                std::min<std::size_t>(b.event ? b.event - 1 : 0, timeline_->eventCount() - 1);
            out.push_back({timeline_->event(last).time, QString::fromStdString(b.caption)});
        }
    view_->setBookmarks(std::move(out));
}

void TimelineController::setReplayPosition(std::uint64_t applied) {
    if (!timeline_ || applied == 0 || applied > timeline_->eventCount()) {
        view_->setCursorTime(std::nullopt);
        return;
    }
    view_->setCursorTime(timeline_->event(applied - 1).time);
}

void TimelineController::addFilter(const trace::FilterItem& item) {
    if (filter_.add(item)) recompute();
}

void TimelineController::removeFilter(int row) {
    if (row < 0 || static_cast<std::size_t>(row) >= filter_.items().size()) return;
    filter_.remove(static_cast<std::size_t>(row));
    recompute();
}

void TimelineController::clearFilters() {
    if (filter_.empty()) return;
    filter_.clear();
    recompute();
}

void TimelineController::recompute() {
    if (!timeline_) return;
    const Time from = selection_ ? selection_->first : timeline_->begin();
    const Time to = selection_ ? selection_->second : timeline_->end() + 1;
    stats_ = trace::RangeStats::of(*timeline_, filter_, from, to);
    QString over = selection_
                       ? tr("Statistics over the selection, %1 to %2").arg(fmt(from), fmt(to))
                       : tr("Statistics over the whole trace");
    if (filter_.timeRange()) over += tr(", cut to the time filter");
    panel_->setStats(stats_, over);
    QStringList lines;
    for (const std::string& l : filter_.describe(*timeline_))
        lines << QString::fromStdString(l);
    panel_->setFilters(lines);
    panel_->setSelectionAvailable(selection_.has_value());
}

void TimelineController::inspect(qint64 event) {
    inspected_ =
        timeline_ && event >= 0 && static_cast<std::size_t>(event) < timeline_->eventCount() ? event
                                                                                             : -1;
    panel_->setInspect(describe(inspected_), inspected_);
}

QString TimelineController::describe(qint64 event) const {
    if (!timeline_ || event < 0 || static_cast<std::size_t>(event) >= timeline_->eventCount())
        return {};
    const trace::TimelineEvent& e = timeline_->event(static_cast<std::size_t>(event));
    const auto& locks = timeline_->lockNames();
    QString text =
        tr("Event %L1: %2 at %3\nagent %4, ")
            .arg(event)
            .arg(QString::fromLatin1(sim::simEventName(static_cast<sim::SimEvent::Kind>(e.kind))))
            .arg(fmt(e.time))
            .arg(e.agent);
    text += e.cpu >= 0 ? tr("CPU %1").arg(e.cpu) : tr("no CPU");
    const int node = timeline_->nodeOfCpu(e.cpu);
    if (node >= 0) text += tr(", node %1").arg(node);
    if (e.lock >= 0 && static_cast<std::size_t>(e.lock) < locks.size())
        text += tr("\nlock %1 (%2)")
                    .arg(QString::fromStdString(locks[static_cast<std::size_t>(e.lock)]),
                         e.mode ? tr("read") : tr("write"));
    // The span this event opens, when it was clicked as one.
    if (const auto s = view_->highlightedSpan()) {
        const trace::TimelineSpan& sp = timeline_->span(*s);
        if (sp.open == static_cast<std::uint32_t>(event)) {
            QString what = QString::fromLatin1(trace::spanKindName(sp.kind));
            if (sp.kind == trace::SpanKind::Wait || sp.kind == trace::SpanKind::Hold)
                what += QStringLiteral(" ") +
                        QString::fromStdString(locks[static_cast<std::size_t>(sp.lock)]);
            text +=
                tr("\nspan: %1, %2 to %3 (%4)%5")
                    .arg(what, fmt(sp.start), fmt(sp.end), fmt(sp.duration()),
                         sp.close == trace::kNoEvent ? tr(", never closed")
                                                     : tr(", closed by event %L1").arg(sp.close));
        }
    }
    return text;
}

}  // namespace immap::gui
