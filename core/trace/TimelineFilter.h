#pragma once
// What the timeline's statistics count: a list of filter items, each shown to the user as one
// line and removable on its own. Items of one type widen (lock A or lock B); types narrow each
// other (lock A, on node 2). A filter changes statistics only, never what the view shows or
// its zoom: views keep their visible range separately.
//  - lock: lock events (wait, acquire, release, kernel contention) and lock spans only of the
//    chosen locks; events that involve no lock (exec, walk, tree) are not affected;
//  - CPU, node: events on the chosen CPUs / on CPUs of the chosen nodes;
//  - kind: events of the chosen kinds; a span counts when the event opening it does;
//  - time: the statistics' range is cut to [from, to) (one time item at most).

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "trace/Timeline.h"

namespace immap::trace {

struct FilterItem {
    enum Type { Lock, Cpu, Node, Kind, TimeRange };
    Type type = Lock;
    int value = 0;  // lock index, CPU OS index, node, or sim::SimEvent::Kind
    Time from = 0, to = 0;

    static FilterItem lock(int l) { return {Lock, l}; }
    static FilterItem cpu(int c) { return {Cpu, c}; }
    static FilterItem node(int n) { return {Node, n}; }
    static FilterItem kind(int k) { return {Kind, k}; }
    static FilterItem timeRange(Time from, Time to) { return {TimeRange, 0, from, to}; }
    bool operator==(const FilterItem& o) const {
        return type == o.type && value == o.value && from == o.from && to == o.to;
    }
};

class TimelineFilter {
public:
    // The filter as lookup tables for one timeline, for loops over millions of events.
    class Compiled {
    public:
        bool passes(const TimelineEvent& e) const {
            if (all_) return true;
            if (e.lock >= 0 && (static_cast<std::size_t>(e.lock) >= lock_.size() ||
                                !lock_[static_cast<std::size_t>(e.lock)]))
                return false;
            if (!cpu_.empty()) {
                const auto i = static_cast<std::size_t>(e.cpu + 1);
                if (i >= cpu_.size() || !cpu_[i]) return false;
            }
            return kind_[e.kind] != 0;
        }

    private:
        friend class TimelineFilter;
        bool all_ = true;
        std::vector<char> lock_, cpu_;  // cpu_ by CPU + 1, CPU and node items together
        std::array<char, 256> kind_{};
    };
    Compiled compile(const Timeline& t) const;

    // Adds an item (a duplicate is ignored; a time range replaces the previous one). False
    // when nothing changed.
    bool add(const FilterItem& item);
    void remove(std::size_t index);
    void clear() { items_.clear(); }
    bool empty() const { return items_.empty(); }
    const std::vector<FilterItem>& items() const { return items_; }

    bool passes(const Timeline& t, const TimelineEvent& e) const;
    bool passesLock(int lock) const;  // whether the lock's row is shown
    std::optional<std::pair<Time, Time>> timeRange() const;
    // [from, to) cut to the time item, if any (empty when they do not meet: to <= from).
    std::pair<Time, Time> clip(Time from, Time to) const;

    // One line per item, in order: "lock file.so i_mmap", "CPU 3", "node 2", "events: lock
    // wait", "time 1.200 ms to 3.400 ms".
    std::vector<std::string> describe(const Timeline& t) const;

private:
    bool has(FilterItem::Type type) const;
    bool hasValue(FilterItem::Type type, int value) const;
    std::vector<FilterItem> items_;
};

}  // namespace immap::trace
