#pragma once
// The simulator's clock and agenda: a 4-ary min-heap of events ordered by (time, sequence)
// (half the levels of a binary heap, and a node's four children in two host cache lines).
// The sequence number is the insertion order, so events at equal times come out FIFO and the
// same schedule() calls always give the same pop() order, whatever the heap's internal layout.

#include <algorithm>
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
    void schedule(Time time, Event event) {
        if (time < now_) pastTime(time);
        event.time = time;
        siftUp({event, nextSeq_++});
    }

    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }
    // The time of the next event; the queue must not be empty.
    Time nextTime() const { return heap_.front().event.time; }

    // Removes and returns the earliest event (first scheduled among equal times) and advances
    // now() to its time. Throws std::logic_error when empty.
    Event pop() {
        if (heap_.empty()) emptyPop();
        const Event e = heap_.front().event;
        const Entry last = heap_.back();
        heap_.pop_back();
        if (!heap_.empty()) siftDown(last);
        now_ = e.time;
        return e;
    }

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
    static constexpr std::size_t kArity = 4;
    static bool earlier(const Entry& a, const Entry& b) {
        return a.event.time != b.event.time ? a.event.time < b.event.time : a.seq < b.seq;
    }
    // `e` goes in at the end and moves up past every later parent.
    void siftUp(const Entry& e) {
        std::size_t i = heap_.size();
        heap_.push_back(e);
        while (i > 0) {
            const std::size_t parent = (i - 1) / kArity;
            if (!earlier(e, heap_[parent])) break;
            heap_[i] = heap_[parent];
            i = parent;
        }
        heap_[i] = e;
    }
    // `e` goes in at the root's place (the root has left) and moves down past every earlier
    // child.
    void siftDown(const Entry& e) {
        const std::size_t n = heap_.size();
        std::size_t i = 0;
        for (;;) {
            const std::size_t first = i * kArity + 1;
            if (first >= n) break;
            std::size_t best = first;
            const std::size_t end = std::min(first + kArity, n);
            for (std::size_t c = first + 1; c < end; ++c)
                if (earlier(heap_[c], heap_[best])) best = c;
            if (!earlier(heap_[best], e)) break;
            heap_[i] = heap_[best];
            i = best;
        }
        heap_[i] = e;
    }
    [[noreturn]] void pastTime(Time time) const;
    [[noreturn]] static void emptyPop();

    std::vector<Entry> heap_;
    std::uint64_t nextSeq_ = 0;
    Time now_;
};

}  // namespace immap::sim
