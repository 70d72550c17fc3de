#pragma once
// The simulator's clock and agenda: a binary min-heap of events ordered by (time, sequence).
// The sequence number is the insertion order, so events at equal times come out FIFO and the
// same schedule() calls always give the same pop() order, whatever the heap's internal layout.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/Time.h"

namespace immap::sim {

struct Event {
    Time time = 0;             // set by EventQueue::schedule
    std::uint32_t kind = 0;    // what happens (the simulator's own enumeration)
    std::uint32_t target = 0;  // whom it happens to (a CPU, copy, lock, ...)
    std::uint64_t payload = 0;

    friend bool operator==(const Event&, const Event&) = default;
};

class EventQueue {
public:
    explicit EventQueue(Time start = 0) : now_(start) {}

    // Adds `event` at `time`. Throws std::invalid_argument if `time` is before now(): an event
    // in the past would break causality (and make the run depend on when it was scheduled).
    void schedule(Time time, Event event);

    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }
    // The time of the next event; the queue must not be empty.
    Time nextTime() const { return heap_.front().event.time; }

    // Removes and returns the earliest event (first scheduled among equal times) and advances
    // now() to its time. Throws std::logic_error when empty.
    Event pop();

    // The time of the last popped event (the start time before any pop).
    Time now() const { return now_; }
    // Events scheduled so far; also the next sequence number.
    std::uint64_t scheduledCount() const { return nextSeq_; }

    void reserve(std::size_t n) { heap_.reserve(n); }

private:
    struct Entry {
        Event event;
        std::uint64_t seq;
    };
    // std::push_heap builds a max-heap, so "less" means "later".
    static bool later(const Entry& a, const Entry& b) {
        if (a.event.time != b.event.time) return a.event.time > b.event.time;
        return a.seq > b.seq;
    }

    std::vector<Entry> heap_;
    std::uint64_t nextSeq_ = 0;
    Time now_;
};

}  // namespace immap::sim
