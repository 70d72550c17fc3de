#pragma once
// One i_mmap_rwsem as the simulator sees it: who holds it, who waits, and what that costs in
// simulated time. The caller drives it with the event queue's time (`now` is passed in; the
// model never reads a clock) and schedules the releases itself.
//
// Semantics (kernel/locking/rwsem.c as docs/kernel.md, "4. The rwsem", sums it up; simplified):
// - writers are exclusive, readers share;
// - a writer arriving at a free lock takes it; otherwise it waits, either spinning or asleep,
//   as the caller says (the caller knows need_resched: rwsem_can_spin_on_owner);
// - spinners (writers only, rwsem_optimistic_spin) wait in the OSQ, in arrival order, and are
//   not on the wait list; sleepers queue FIFO on the wait list (rwsem_down_write_slowpath,
//   rwsem_down_read_slowpath), each with a handoff deadline RWSEM_WAIT_TIMEOUT after it joined;
// - a reader takes the lock at once only if no writer holds it and nobody sleeps (the fast
//   path fails once the WAITERS bit is set, and only sleepers set it); otherwise it sleeps;
// - when the last holder leaves: if the first sleeper has waited at least the handoff timeout
//   (the HANDOFF bit: rwsem_try_write_lock for a writer, rwsem_mark_wake for a reader), it gets
//   the lock and no spinner can steal it; else, if anyone spins, the OSQ's head takes it (writer
//   lock stealing: rwsem_try_write_lock_unqueued, while rwsem_wake has yet to take wait_lock and
//   the woken task to run); else the first sleeper does;
// - a sleeper granted the lock is a writer alone, or a reader together with every sleeping
//   reader anywhere in the queue, up to kMaxReadersWakeup (256) in queue order, writers keeping
//   their places (rwsem_mark_wake); spinners stay in the OSQ through a reader phase;
// - a spinner that gives up (stopSpinning: need_resched) joins the wait list's tail then, its
//   handoff deadline counting from then (its wait, for the statistics, from its arrival);
// - grants are direct hand-offs at the release time.
// Left out: the wake-up latency (the caller adds it to sleepers' grants), the line traffic
// (the caller's), a sleeper's handoff taking effect only once it runs again (here the release
// after its deadline hands over at once, where the kernel's woken waiter sets HANDOFF and the
// grant follows one release later at most), jiffy granularity (the deadline is exact), the
// time limit on spinning at a reader-owned lock (rwsem_rspin_threshold: here spinners outlast
// reader phases), spinners stopping for an owner that is not running, reader lock stealing in
// the slow path, and RT priority. Neither mode is recursive: a requester may hold or wait for
// the lock once at a time.

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
    // RWSEM_WAIT_TIMEOUT, DIV_ROUND_UP(HZ, 250) jiffies: 4 ms at HZ=250 or 1000.
    static constexpr Time kDefaultHandoffTimeout = 4'000'000;

    struct Grant {
        RequesterId requester = 0;
        Mode mode = Mode::Write;
        Time waited = 0;     // grant time minus arrival time
        bool slept = false;  // off the wait list: asleep, it has yet to wake up (else it spun)

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

    // `handoffTimeout`: how long the first sleeper waits before the lock is handed to it
    // (>= 0; throws std::invalid_argument otherwise).
    explicit RwSemModel(Time start = 0, Time handoffTimeout = kDefaultHandoffTimeout);

    // `requester` asks for the lock at `now`. Returns true if granted at once; otherwise it
    // waits, spinning in the OSQ if `spin` (writers only), else asleep on the wait list, and
    // will appear in a later release()'s grants. Throws std::logic_error if it already holds
    // or waits, std::invalid_argument if time runs back or a reader asks to spin.
    bool acquire(Time now, RequesterId requester, Mode mode, bool spin = false);

    // Spinning `requester` gives up at `now` (need_resched) and sleeps: it leaves the OSQ for
    // the wait list's tail. Throws std::logic_error if it is not spinning,
    // std::invalid_argument if time runs back.
    void stopSpinning(Time now, RequesterId requester);

    // `requester` (a holder) lets go at `now`. Returns whom the lock passes to, in queue order
    // (empty while other readers still hold it, or when nobody waits). Throws std::logic_error
    // if `requester` does not hold the lock.
    // The list is the model's own, valid until the next release() (no allocation per release).
    const std::vector<Grant>& release(Time now, RequesterId requester);

    // Starts a new measurement window at `now` (e.g. after warm-up), forgetting earlier stats.
    void resetStats(Time now);
    // Statistics for the window up to `at` (>= the last acquire/release time). Reads the
    // percentiles off the wait histogram: O(its buckets), whatever the number of waits.
    Stats stats(Time at) const;
    // Just the utilisation over the window up to `at`, in O(1), for checks during a run.
    double utilisation(Time at) const;

    bool writeLocked() const { return writerHeld_; }
    // Whether a trylock in `mode` would take the lock now: down_read_trylock fails while a
    // writer holds it or anyone sleeps on its wait list (the WAITERS bit), as acquire()'s fast
    // path; down_write_trylock only on a free lock.
    bool wouldGrant(Mode mode) const {
        return mode == Mode::Write ? holders_.empty() : (!writerHeld_ && queue_.empty());
    }
    std::size_t holders() const { return holders_.size(); }
    std::size_t readers() const { return writerHeld_ ? 0 : holders_.size(); }
    std::size_t waiters() const { return queue_.size() + osq_.size(); }  // both kinds
    std::size_t sleepers() const { return queue_.size(); }
    std::size_t spinners() const { return osq_.size(); }
    // The OSQ's head, the one spinner on the lock's own line; spinners() must be > 0.
    RequesterId osqHead() const { return osq_.front().requester; }
    bool holds(RequesterId requester) const { return holders_.count(requester) != 0; }
    Time handoffTimeout() const { return handoffTimeout_; }

private:
    struct Waiter {
        RequesterId requester;
        Mode mode;
        Time arrived;  // acquire(): waits count from here
        Time queued;   // joined the wait list: the handoff deadline counts from here
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
    void grant(Time now, const Waiter& w, bool slept, std::vector<Grant>& out);
    // rwsem_mark_wake: hands the free lock to the first sleeper (and its fellow readers).
    void wakeSleepers(Time now, std::vector<Grant>& out);
    // The lock is free: to a sleeper past its deadline, else the OSQ's head, else a sleeper.
    void wake(Time now, std::vector<Grant>& out);

    std::unordered_map<RequesterId, Holder> holders_;
    bool writerHeld_ = false;
    std::deque<Waiter> queue_;  // the wait list: sleepers, FIFO
    std::deque<Waiter> osq_;    // spinners, in arrival order (writers only)
    // The requesters in queue_ and osq_, so that acquire() checks "already waiting" in O(1): a
    // scan of the queue made every arrival O(queue), and a run whose queue grows quadratic.
    std::unordered_set<RequesterId> waiting_;
    std::vector<Grant> granted_;  // release()'s answer
    Time handoffTimeout_;

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
