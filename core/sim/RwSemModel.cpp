#include "sim/RwSemModel.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace immap::sim {

RwSemModel::RwSemModel(Time start, Time handoffTimeout)
    : handoffTimeout_(handoffTimeout), last_(start), windowStart_(start) {
    if (handoffTimeout < 0)
        throw std::invalid_argument("RwSemModel: handoff timeout " +
                                    std::to_string(handoffTimeout) + " ns is negative");
}

void RwSemModel::advance(Time now) {
    checkNotBefore(now, "acquire/release");
    const Time dt = now - last_;
    if (!holders_.empty()) busyTime_ += dt;
    queueArea_ += static_cast<Time>(waiters()) * dt;
    last_ = now;
}

bool RwSemModel::acquire(Time now, RequesterId requester, Mode mode, bool spin) {
    if (holders_.count(requester) != 0)
        throw std::logic_error("RwSemModel::acquire: requester " + std::to_string(requester) +
                               " already holds the lock");
    if (waiting_.count(requester) != 0)
        throw std::logic_error("RwSemModel::acquire: requester " + std::to_string(requester) +
                               " is already waiting");
    if (spin && mode == Mode::Read)
        throw std::invalid_argument("RwSemModel::acquire: readers do not spin (requester " +
                                    std::to_string(requester) + ")");
    advance(now);
    ++arrivals_;
    // Writers: only a free lock. Readers: no writer and nobody asleep (the WAITERS bit makes
    // the reader fast path fail, so a reader stream cannot starve a sleeping writer; spinners
    // do not set it).
    const bool granted = wouldGrant(mode);
    if (granted) {
        holders_.emplace(requester, Holder{mode, now, true});
        writerHeld_ = mode == Mode::Write;
        ++immediate_;
        waits_.record(0);
    } else {
        (spin ? osq_ : queue_).push_back({requester, mode, now, now});
        waiting_.insert(requester);
        maxQueue_ = std::max(maxQueue_, waiters());
    }
    return granted;
}

void RwSemModel::stopSpinning(Time now, RequesterId requester) {
    const auto it = std::find_if(osq_.begin(), osq_.end(),
                                 [&](const Waiter& w) { return w.requester == requester; });
    if (it == osq_.end())
        throw std::logic_error("RwSemModel::stopSpinning: requester " + std::to_string(requester) +
                               " is not spinning");
    advance(now);
    // rwsem_down_write_slowpath after a failed spin: the waiter's timeout starts as it joins
    // the wait list.
    Waiter w = *it;
    w.queued = now;
    osq_.erase(it);
    queue_.push_back(w);
}

const std::vector<RwSemModel::Grant>& RwSemModel::release(Time now, RequesterId requester) {
    const auto it = holders_.find(requester);
    if (it == holders_.end())
        throw std::logic_error("RwSemModel::release: requester " + std::to_string(requester) +
                               " does not hold the lock");
    advance(now);
    if (it->second.counted) {
        ++holdsDone_;
        holdTime_ += now - it->second.granted;
    }
    holders_.erase(it);
    writerHeld_ = false;  // a writer was the only holder; readers never set it
    granted_.clear();
    if (holders_.empty()) wake(now, granted_);
    return granted_;
}

void RwSemModel::grant(Time now, const Waiter& w, bool slept, std::vector<Grant>& out) {
    const bool counted = w.arrived >= windowStart_;
    holders_.emplace(w.requester, Holder{w.mode, now, counted});
    waiting_.erase(w.requester);
    if (counted) waits_.record(now - w.arrived);
    out.push_back({w.requester, w.mode, now - w.arrived, slept});
}

void RwSemModel::wake(Time now, std::vector<Grant>& out) {
    // HANDOFF: the first sleeper has waited long enough; spinners may not take the lock.
    const bool handoff = !queue_.empty() && now - queue_.front().queued >= handoffTimeout_;
    if (!handoff && !osq_.empty()) {
        // The OSQ's head is on the lock's line and wins the free lock's cmpxchg
        // (rwsem_try_write_lock_unqueued) before a sleeper can run.
        grant(now, osq_.front(), false, out);
        writerHeld_ = true;
        osq_.pop_front();
        return;
    }
    wakeSleepers(now, out);
}

void RwSemModel::wakeSleepers(Time now, std::vector<Grant>& out) {
    if (queue_.empty()) return;
    if (queue_.front().mode == Mode::Write) {
        grant(now, queue_.front(), true, out);
        writerHeld_ = true;
        queue_.pop_front();
        return;
    }
    // Reader batch: every queued reader up to the cap, in queue order; writers stay queued in
    // their original order (stable partition of the queue).
    std::deque<Waiter> remaining;
    std::size_t woken = 0;
    for (const Waiter& w : queue_) {
        if (w.mode == Mode::Read && woken < kMaxReadersWakeup) {
            grant(now, w, true, out);
            ++woken;
        } else {
            remaining.push_back(w);
        }
    }
    queue_.swap(remaining);
}

void RwSemModel::resetStats(Time now) {
    advance(now);
    windowStart_ = now;
    busyTime_ = 0;
    queueArea_ = 0;
    maxQueue_ = waiters();
    arrivals_ = 0;
    immediate_ = 0;
    waits_.clear();
    holdsDone_ = 0;
    holdTime_ = 0;
    // Acquisitions already in flight arrived before the window: not counted.
    for (auto& [id, h] : holders_)
        h.counted = false;
}

void RwSemModel::checkNotBefore(Time at, const char* what) const {
    if (at < last_)
        throw std::invalid_argument(std::string("RwSemModel::") + what + ": time " +
                                    std::to_string(at) + " is before the last event at " +
                                    std::to_string(last_));
}

double RwSemModel::utilisation(Time at) const {
    checkNotBefore(at, "utilisation");
    if (at == windowStart_) return 0;
    const Time busy = busyTime_ + (holders_.empty() ? 0 : at - last_);
    return static_cast<double>(busy) / static_cast<double>(at - windowStart_);
}

RwSemModel::Stats RwSemModel::stats(Time at) const {
    checkNotBefore(at, "stats");
    Stats s;
    s.windowStart = windowStart_;
    s.window = at - windowStart_;
    const Time dt = at - last_;
    const Time area = queueArea_ + static_cast<Time>(waiters()) * dt;
    const double window = static_cast<double>(s.window);
    if (s.window > 0) {
        s.utilisation = utilisation(at);
        s.arrivalsPerSecond =
            static_cast<double>(arrivals_) * static_cast<double>(kNsPerSecond) / window;
        s.meanQueueLength = static_cast<double>(area) / window;
    }
    s.arrivals = arrivals_;
    s.maxQueueLength = maxQueue_;
    s.grants = waits_.count();
    s.immediateGrants = immediate_;
    s.meanWait = waits_.mean();
    s.p50Wait = waits_.percentile(50);
    s.p99Wait = waits_.percentile(99);
    s.maxWait = waits_.max();
    s.holds = holdsDone_;
    if (holdsDone_ > 0)
        s.meanHold = static_cast<double>(holdTime_) / static_cast<double>(holdsDone_);
    return s;
}

}  // namespace immap::sim
