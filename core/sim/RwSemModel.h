#pragma once
// One i_mmap_rwsem as the simulator sees it: who holds it, who waits, and what that costs in
// simulated time. The caller drives it with the event queue's time (`now` is passed in; the
// model never reads a clock) and schedules the releases itself.
//
// Semantics (kernel/locking/rwsem.c as docs/kernel.md, "4. The rwsem", sums it up; simplified):
// - writers are exclusive, readers share;
// - a writer arriving at a free lock takes it; otherwise it queues;
// - a reader takes the lock at once only if no writer holds it and nobody waits (the fast
//   path fails once the WAITERS bit is set); otherwise it queues;
// - waiters queue FIFO; when the last holder leaves, the first waiter decides (rwsem_mark_wake):
//   a writer is granted alone; a reader is granted together with every queued reader anywhere
//   in the queue, up to kMaxReadersWakeup (256) in queue order, and writers keep their places;
// - grants are direct hand-offs at the release time.
// Left out (the cost model adds them on top, or later versions will): optimistic spinning and
// the osq queue, writer lock stealing between wake-up and running, the HANDOFF bit and its
// ~4 ms timeout, reader lock stealing in the slow path, wake-up latency, and RT priority.
// Neither mode is recursive: a requester may hold or wait for the lock once at a time.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sim/Time.h"
#include "sim/WaitHistogram.h"

namespace immap::sim {

class RwSemModel {
public:
    using RequesterId = std::uint64_t;
    enum class Mode : std::uint8_t { Read, Write };

    // MAX_READERS_WAKEUP in rwsem.c.
    static constexpr std::size_t kMaxReadersWakeup = 256;

    struct Grant {
        RequesterId requester = 0;
        Mode mode = Mode::Write;
        Time waited = 0;  // grant time minus arrival time

        friend bool operator==(const Grant&, const Grant&) = default;
    };

    // Over the measurement window [windowStart, at]. Counts and waits cover the acquisitions
    // that *arrived* in the window: a wait is recorded when it is granted, a hold when it is
    // released, so acquisitions still waiting or holding at `at` count as arrivals only.
    // Time integrals (utilisation, queue length) cover exactly the window.
    struct Stats {
        Time windowStart = 0;
        Time window = 0;             // ns
        double utilisation = 0;      // fraction of the window anyone held it (0..1)
        std::uint64_t arrivals = 0;  // acquire() calls
        double arrivalsPerSecond = 0;
        double meanQueueLength = 0;  // time-averaged number of waiters (holders excluded)
        std::size_t maxQueueLength = 0;
        std::uint64_t grants = 0;  // arrivals granted so far, immediately or after waiting
        std::uint64_t immediateGrants = 0;
        double meanWait = 0;  // ns, over grants, immediate ones counting as 0
        // ns, nearest-rank percentiles over grants, within 1/128 of the exact value (exact
        // below 128 ns; WaitHistogram states the bound).
        Time p50Wait = 0;
        Time p99Wait = 0;
        Time maxWait = 0;
        std::uint64_t holds = 0;  // completed holds (released)
        double meanHold = 0;      // ns

        friend bool operator==(const Stats&, const Stats&) = default;
    };

    explicit RwSemModel(Time start = 0) : last_(start), windowStart_(start) {}

    // `requester` asks for the lock at `now`. Returns true if granted at once; otherwise the
    // requester is queued and will appear in a later release()'s grants. Throws
    // std::logic_error if it already holds or waits, std::invalid_argument if time runs back.
    bool acquire(Time now, RequesterId requester, Mode mode);

    // `requester` (a holder) lets go at `now`. Returns whom the lock passes to, in queue order
    // (empty while other readers still hold it, or when nobody waits). Throws std::logic_error
    // if `requester` does not hold the lock.
    std::vector<Grant> release(Time now, RequesterId requester);

    // Starts a new measurement window at `now` (e.g. after warm-up), forgetting earlier stats.
    void resetStats(Time now);
    // Statistics for the window up to `at` (>= the last acquire/release time). Reads the
    // percentiles off the wait histogram: O(its buckets), whatever the number of waits.
    Stats stats(Time at) const;
    // Just the utilisation over the window up to `at`, in O(1), for checks during a run.
    double utilisation(Time at) const;

    bool writeLocked() const { return writerHeld_; }
    std::size_t holders() const { return holders_.size(); }
    std::size_t readers() const { return writerHeld_ ? 0 : holders_.size(); }
    std::size_t waiters() const { return queue_.size(); }
    bool holds(RequesterId requester) const { return holders_.count(requester) != 0; }

private:
    struct Waiter {
        RequesterId requester;
        Mode mode;
        Time arrived;
    };
    struct Holder {
        Mode mode;
        Time granted;
        bool counted;  // arrived inside the current window
    };

    // Throws std::invalid_argument if `at` is before the last acquire/release.
    void checkNotBefore(Time at, const char* what) const;
    // Accumulates the time integrals from last_ to now.
    void advance(Time now);
    void grant(Time now, const Waiter& w, std::vector<Grant>& out);
    // rwsem_mark_wake: hands the free lock to the first waiter (and its fellow readers).
    void wake(Time now, std::vector<Grant>& out);

    std::unordered_map<RequesterId, Holder> holders_;
    bool writerHeld_ = false;
    std::deque<Waiter> queue_;
    // The requesters in queue_, so that acquire() checks "already waiting" in O(1): a scan of
    // the queue made every arrival O(queue), and a run whose queue grows quadratic.
    std::unordered_set<RequesterId> waiting_;

    Time last_;
    Time windowStart_;
    // Window accumulators.
    Time busyTime_ = 0;
    Time queueArea_ = 0;  // integral of queue length, waiter-ns (fits: 2^63 ns-waiters)
    std::size_t maxQueue_ = 0;
    std::uint64_t arrivals_ = 0;
    std::uint64_t immediate_ = 0;
    // Bounded, so that memory (and a replay checkpoint's copy) does not grow with the run.
    WaitHistogram waits_;
    std::uint64_t holdsDone_ = 0;
    Time holdTime_ = 0;
};

}  // namespace immap::sim
