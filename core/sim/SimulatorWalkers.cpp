#include "sim/SimulatorImpl.h"

#include <algorithm>
#include <cstdio>

// Whole-file walkers (rmap_walk_file's callers: reclaim, migration, KSM): their Poisson
// arrivals, the locks each takes, and what a run does when they outrun a lock: the warm-up's
// bound (warmup_max_ms) and the overload verdict, and a bound on the walks in flight.

namespace immap::sim {

void Simulator::Impl::scheduleWalker(Time after) {
    const double meanNs = 1e9 / cfg.walkersPerSecond;
    queue.schedule(after + std::max<Time>(1, toTime(rng.exponential(meanNs))),
                   {0, kWalkerArrive, 0, 0});
}

// Walkers that take one lock exclusively (sharded's top lock, as the reviewers proposed) are
// served one at a time, so that lock serves at most 1 / (mean hold) walks per second, whatever
// the copies do. Walkers arriving faster than that (walkers_per_s x mean hold >= 1) make its
// FIFO queue grow without bound: there is no steady state to warm up to. The copies' readers
// queue behind ever more walkers, each exec takes longer than the one before, and waiting for
// every copy's warmup_execs would never end (while each simulated second got dearer). So in
// that case the window opens as soon as warmup_ms has passed, and measures the saturation.
bool Simulator::Impl::walkersOverload() const {
    if (walkerHolds == 0) return false;
    const double meanHoldNs = walkerHeldNs / static_cast<double>(walkerHolds);
    return cfg.walkersPerSecond * meanHoldNs >= 1e9;
}

// "1,000 walks/s x 1.52 ms mean hold = 1.52": the walkers' demand on a lock, as measured so far.
std::string Simulator::Impl::walkerDemand(const Lock& l) const {
    if (l.walkerHolds == 0) return "";
    const double holdNs = l.walkerHeldNs / static_cast<double>(l.walkerHolds);
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.0f walks/s x %.4g us mean hold = %.3g", cfg.walkersPerSecond,
                  holdNs / 1e3, cfg.walkersPerSecond * holdNs / 1e9);
    return buf;
}

void Simulator::Impl::walkerArrive(Time t) {
    if (!inWindow && t >= warmup && walkersOverload()) {
        const Lock& top = *locks[static_cast<std::size_t>(
            files[static_cast<std::size_t>(recipe->walkerFile)].topLock)];
        overload = "the walkers saturate " + top.name + ": " + walkerDemand(top) +
                   " >= 1, each holding it alone, so its queue grows without bound: no steady "
                   "state; measured from warmup_ms on";
        startWindow(t);
    }
    if (freeWalkers.empty() && agents.size() - cfg.copies >= kMaxWalksInFlight) {
        ++walksNotStarted;
        if (overload.empty()) {
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          "the walkers outrun the locks: %zu walks in flight at %.1f ms, no "
                          "steady state",
                          kMaxWalksInFlight, static_cast<double>(t) / 1e6);
            overload = buf;
        }
        scheduleWalker(t);
        return;
    }
    std::size_t id;
    if (!freeWalkers.empty()) {
        id = freeWalkers.back();
        freeWalkers.pop_back();
    } else {
        id = agents.size();
        agents.emplace_back();
    }
    Agent& a = agents[id];
    a.copy = false;
    a.active = true;
    a.cpu = puOrder[rng.below(puOrder.size())];
    a.node = nodeOfCpu(a.cpu);
    a.arrival = t;
    emit(SimEvent::WalkArrive, t, static_cast<std::int64_t>(id));
    const FileState& f = files[static_cast<std::size_t>(recipe->walkerFile)];
    const auto span = static_cast<std::uint64_t>(cfg.params.walkerPages);
    a.page = f.pages > span ? rng.below(f.pages - span + 1) : 0;
    a.locks.clear();
    if (f.topLock >= 0) {
        a.locks.push_back({f.topLock, Mode::Write});  // walkers exclude every modifier
    } else if (cfg.policy.kind == Kind::SplitLocks) {
        for (int l : f.treeLock)
            a.locks.push_back({l, Mode::Read});  // every lock, in order
    } else {
        a.locks.push_back({f.treeLock[0], Mode::Read});
    }
    // Reclaim's folio_referenced only tries (rmap_walk_file with rwc->try_lock): when a lock it
    // needs is busy it gives up without waiting. Trying every lock at arrival stands for taking
    // them in order and dropping the taken ones on the first failure.
    // (No draw at 0, so that runs without trylock walkers keep their random streams.)
    const bool tries = cfg.params.walkerTrylock > 0 && rng.uniform() < cfg.params.walkerTrylock;
    if (tries && !std::all_of(a.locks.begin(), a.locks.end(), [&](const LockReq& need) {
            return locks[static_cast<std::size_t>(need.lock)]->sem.wouldGrant(need.mode);
        })) {
        emit(SimEvent::WalkGiveUp, t, static_cast<std::int64_t>(id));
        walkGaveUp(walksSkipped, t, inWindow, end);
        a.active = false;
        freeWalkers.push_back(id);
        scheduleWalker(t);
        return;
    }
    a.next = 0;
    acquireNext(id, t);
    scheduleWalker(t);
}

// warmup_max_ms has passed and some copy has not done its warm-up execs: there is no steady
// state to wait for. Say why, from what the run saw: the lock the stuck copies wait for, and
// the walkers' demand on it (walks/s x their mean hold; at 1 or more a walker holds it at every
// instant on average, Little's law, so the copies' writers find it free ever more rarely).
// Then measure that state for duration_ms, without waiting for window_execs.
void Simulator::Impl::warmupLimit(Time t) {
    if (inWindow) return;
    const auto warmExecs = static_cast<std::uint64_t>(cfg.params.warmupExecs);
    std::size_t stuck = 0;
    std::vector<std::size_t> waiting(locks.size(), 0);
    for (unsigned c = 0; c < cfg.copies; ++c) {
        const Agent& a = agents[c];
        if (a.execsDone >= warmExecs) continue;
        ++stuck;
        if ((a.clock.phase == Phase::Wait || a.clock.phase == Phase::Spin) &&
            a.next < a.locks.size())
            ++waiting[static_cast<std::size_t>(a.locks[a.next].lock)];
    }
    const auto most = std::max_element(waiting.begin(), waiting.end());
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "no steady state: after warmup_max_ms (%g ms) %zu of %u copies had not "
                  "completed warmup_execs (%g execs)",
                  static_cast<double>(t) / 1e6, stuck, cfg.copies, cfg.params.warmupExecs);
    overload = buf;
    if (most != waiting.end() && *most > 0) {
        const Lock& l = *locks[static_cast<std::size_t>(most - waiting.begin())];
        const std::string demand = walkerDemand(l);
        std::snprintf(buf, sizeof buf, "; %zu waited for %s, held %.1f%% of the time", *most,
                      l.name.c_str(), 100.0 * l.sem.utilisation(t));
        overload += buf;
        if (!demand.empty() &&
            cfg.walkersPerSecond * l.walkerHeldNs / static_cast<double>(l.walkerHolds) >= 1e9)
            overload = "the walkers saturate " + l.name + ": " + demand +
                       " >= 1 (a walker holds it at every instant on average), " + overload;
        else if (!demand.empty())
            overload += ", walkers' demand " + demand;
    }
    overload += "; measured for duration_ms from there";
    window = MeasureWindow(cfg.durationMs, 0, cfg.durationMs, cfg.copies, 0);
    startWindow(t);
}

}  // namespace immap::sim
