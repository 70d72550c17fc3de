#include "trace/TimelineFilter.h"

#include <algorithm>

namespace immap::trace {

bool TimelineFilter::add(const FilterItem& item) {
    if (item.type == FilterItem::TimeRange) {
        const auto old = std::find_if(items_.begin(), items_.end(), [](const FilterItem& i) {
            return i.type == FilterItem::TimeRange;
        });
        if (old != items_.end()) {
            if (*old == item) return false;
            *old = item;
            return true;
        }
    } else if (std::find(items_.begin(), items_.end(), item) != items_.end()) {
        return false;
    }
    items_.push_back(item);
    return true;
}

void TimelineFilter::remove(std::size_t index) {
    if (index < items_.size()) items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(index));
}

bool TimelineFilter::has(FilterItem::Type type) const {
    return std::any_of(items_.begin(), items_.end(),
                       [&](const FilterItem& i) { return i.type == type; });
}

bool TimelineFilter::hasValue(FilterItem::Type type, int value) const {
    return std::any_of(items_.begin(), items_.end(),
                       [&](const FilterItem& i) { return i.type == type && i.value == value; });
}

bool TimelineFilter::passesLock(int lock) const {
    return !has(FilterItem::Lock) || hasValue(FilterItem::Lock, lock);
}

bool TimelineFilter::passes(const Timeline& t, const TimelineEvent& e) const {
    if (items_.empty()) return true;
    if (e.lock >= 0 && !passesLock(e.lock)) return false;
    if (has(FilterItem::Cpu) && !hasValue(FilterItem::Cpu, e.cpu)) return false;
    if (has(FilterItem::Node) && !hasValue(FilterItem::Node, t.nodeOfCpu(e.cpu))) return false;
    if (has(FilterItem::Kind) && !hasValue(FilterItem::Kind, e.kind)) return false;
    return true;
}

TimelineFilter::Compiled TimelineFilter::compile(const Timeline& t) const {
    Compiled c;
    c.all_ = items_.empty();
    c.lock_.resize(t.lockNames().size());
    for (std::size_t l = 0; l < c.lock_.size(); ++l)
        c.lock_[l] = passesLock(static_cast<int>(l));
    if (has(FilterItem::Cpu) || has(FilterItem::Node)) {
        int maxCpu = -1;
        for (const TimelineLane& l : t.lanes())
            maxCpu = std::max(maxCpu, l.cpu);
        c.cpu_.assign(static_cast<std::size_t>(maxCpu + 2), 0);
        for (int cpu = -1; cpu <= maxCpu; ++cpu)
            c.cpu_[static_cast<std::size_t>(cpu + 1)] =
                (!has(FilterItem::Cpu) || hasValue(FilterItem::Cpu, cpu)) &&
                (!has(FilterItem::Node) || hasValue(FilterItem::Node, t.nodeOfCpu(cpu)));
    }
    for (std::size_t k = 0; k < c.kind_.size(); ++k)
        c.kind_[k] = !has(FilterItem::Kind) || hasValue(FilterItem::Kind, static_cast<int>(k));
    return c;
}

std::optional<std::pair<Time, Time>> TimelineFilter::timeRange() const {
    for (const FilterItem& i : items_)
        if (i.type == FilterItem::TimeRange) return std::make_pair(i.from, i.to);
    return std::nullopt;
}

std::pair<Time, Time> TimelineFilter::clip(Time from, Time to) const {
    if (const auto r = timeRange()) return {std::max(from, r->first), std::min(to, r->second)};
    return {from, to};
}

std::vector<std::string> TimelineFilter::describe(const Timeline& t) const {
    std::vector<std::string> out;
    for (const FilterItem& i : items_) {
        switch (i.type) {
            case FilterItem::Lock: {
                // Appended: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string&&.
                std::string text = "lock ";
                if (i.value >= 0 && static_cast<std::size_t>(i.value) < t.lockNames().size())
                    text += t.lockNames()[static_cast<std::size_t>(i.value)];
                else
                    text += '#' + std::to_string(i.value);
                out.push_back(std::move(text));
            } break;
            case FilterItem::Cpu:
                out.push_back("CPU " + std::to_string(i.value));
                break;
            case FilterItem::Node:
                out.push_back("node " + std::to_string(i.value));
                break;
            case FilterItem::Kind:
                out.push_back(std::string("events: ") +
                              sim::simEventName(static_cast<sim::SimEvent::Kind>(i.value)));
                break;
            case FilterItem::TimeRange:
                out.push_back("time " + formatTime(i.from) + " to " + formatTime(i.to));
                break;
        }
    }
    return out;
}

}  // namespace immap::trace
