#include "sim/SimulatorImpl.h"

#include <algorithm>
#include <cstdio>

// Simulator's event engine: copies looping over their exec plans, lock acquisition and
// release, critical sections on the real trees, the measured window; and the public API.
// Walkers and the warm-up's bound are in SimulatorWalkers.cpp.

namespace immap::sim {

const char* purposeText(Purpose p) {
    switch (p) {
        case Purpose::Map:
            return "to map a new VMA (vma_link_file)";
        case Purpose::Split:
            return "for a split (__split_vma: vma_prepare)";
        case Purpose::Unlink:
            return "to unlink VMAs (unlink_file_vma_batch_process)";
        case Purpose::Expand:
            return "for a merge (commit_merge: vma_prepare)";
        case Purpose::Walk:
            return "for an rmap walk (rmap_walk_file)";
        case Purpose::Unknown:
            break;
    }
    return "";
}

const char* simEventName(SimEvent::Kind k) {
    switch (k) {
        case SimEvent::ExecBegin:
            return "exec_begin";
        case SimEvent::ExecEnd:
            return "exec_end";
        case SimEvent::LockWait:
            return "lock_wait";
        case SimEvent::LockAcquire:
            return "lock_acquire";
        case SimEvent::LockRelease:
            return "lock_release";
        case SimEvent::TreeInsert:
            return "tree_insert";
        case SimEvent::TreeRemove:
            return "tree_remove";
        case SimEvent::WalkBegin:
            return "walk_begin";
        case SimEvent::WalkEnd:
            return "walk_end";
        case SimEvent::WalkArrive:
            return "walk_arrive";
        case SimEvent::WindowStart:
            return "window_start";
        case SimEvent::KernelLockWait:
            return "kernel_lock_wait";
        case SimEvent::KernelLockAcquired:
            return "kernel_lock_acquired";
        case SimEvent::LockSleep:
            return "lock_sleep";
        case SimEvent::WalkGiveUp:
            return "walk_give_up";
    }
    return "?";
}

void Simulator::Impl::setPhase(Agent& a, Phase ph, Time t) {
    a.clock.set(ph, t, inWindow, windowStart);
}

void Simulator::Impl::startExec(std::size_t id, Time t) {
    Agent& a = agents[id];
    a.plan.clear();
    a.as->planSteps(*recipe, batch, a.plan, &shared->stepMask());
    a.pc = 0;
    a.execStart = t;
    emit(SimEvent::ExecBegin, t, static_cast<std::int64_t>(id));
    nextAction(id, t);
}

void Simulator::Impl::nextAction(std::size_t id, Time t) {
    Agent& a = agents[id];
    if (a.pc == a.plan.actions.size()) {
        // Warm-up ends when every copy has done its warm-up execs and warmup_ms has passed.
        // The window may open right here; this exec then counts in it, so a trace says
        // "window start" first and a replay counts the same.
        if (++a.execsDone == static_cast<std::uint64_t>(cfg.params.warmupExecs) &&
            ++warmCopies == cfg.copies && !inWindow) {  // open already if walkersOverload()
            if (t >= warmup)
                startWindow(t);
            else
                queue.schedule(warmup, {0, kWindowStart, 0, 0});
        }
        emit(SimEvent::ExecEnd, t, static_cast<std::int64_t>(id));
        a.execs.ended(t, inWindow, end);
        if (inWindow && t <= end) end = window.counted(a.execs.count, t);
        startExec(id, t);
        return;
    }
    const Action& act = a.plan.actions[a.pc];
    // Work, touching shared lines, or a no-rmap file's VMA changes: the CPU runs it alone.
    if (act.kind != Action::Locked || unlinkedHold(a)) {
        setPhase(a, Phase::Work, t);
        CpuSpin& c = spinOf(a);
        if (c.agent >= 0) {
            // Another copy spins here: this work waits until it stops, and the first to wait
            // sets need_resched for the end of the spinner's current slice (the tick sees it
            // used up; RUN_TO_PARITY lets it run that long).
            if (c.queued.empty()) {
                const Time slice = std::max<Time>(1, toTime(cfg.params.schedSliceNs));
                const Time slices = std::max<Time>(1, (t - c.since + slice - 1) / slice);
                queue.schedule(c.since + slices * slice,
                               {0, kSliceEnd, static_cast<std::uint32_t>(c.agent), c.turn});
            }
            c.queued.push_back(static_cast<std::uint32_t>(id));
            return;
        }
        startWork(id, t);
        return;
    }
    beginLocked(id, t);
}

void Simulator::Impl::beginLocked(std::size_t id, Time t) {
    Agent& a = agents[id];
    const Hold& h = a.plan.holds[a.plan.actions[a.pc].index];
    const FileState& f = files[static_cast<std::size_t>(h.file)];
    const int tree = a.plan.ops[h.firstOp].vma->tree;
    a.locks.clear();
    if (f.topLock >= 0) a.locks.push_back({f.topLock, Mode::Read});  // modifiers share the top
    a.locks.push_back({f.treeLock[static_cast<std::size_t>(tree)], Mode::Write});
    a.next = 0;
    setPhase(a, Phase::Wait, t);
    acquireNext(id, t);
}

Time Simulator::Impl::touchLine(Lock& l, const Agent& a, Time t, int atomics) {
    double ns = atomics * cfg.params.lockAtomicNs;
    if (l.lastCpu >= 0 && l.lastCpu != static_cast<int>(a.cpu)) {
        ns += memCost[static_cast<std::size_t>(l.lastNode)][static_cast<std::size_t>(a.node)];
        ++lockLineTransfers;
        ++l.windowTransfers;
    }
    const Time begin = std::max(t, l.lineFree);
    l.lineFree = begin + toTime(ns);
    l.lastCpu = static_cast<int>(a.cpu);
    l.lastNode = a.node;
    return l.lineFree;
}

void Simulator::Impl::acquireNext(std::size_t id, Time t) {
    Agent& a = agents[id];
    if (a.next == a.locks.size()) {
        enterCritical(id, t);
        return;
    }
    const LockReq req = a.locks[a.next];
    Lock& l = *locks[static_cast<std::size_t>(req.lock)];
    a.spinning = a.copy && req.mode == Mode::Write && maySpin(a, t);
    if (l.sem.acquire(t, id, req.mode, a.spinning)) {
        a.spinning = false;
        emit(SimEvent::LockAcquire, t, static_cast<std::int64_t>(id), req.lock, nullptr, req.mode);
        a.heldSince = t;
        ++a.next;
        granted(id, touchLine(l, a, t));
        return;
    }
    // Writers spin optimistically (rwsem_optimistic_spin) unless need_resched is set; readers,
    // and those writers, go to sleep. An arriving spinner's failed cmpxchg on the count and its
    // xchg of osq->tail (both on the lock's line) bring the line here once; after that it
    // spins on its own OSQ node, so more waiters put no more traffic on the line. It keeps
    // its CPU meanwhile.
    emit(SimEvent::LockWait, t, static_cast<std::int64_t>(id), req.lock, nullptr, req.mode,
         a.spinning);
    if (a.spinning) {
        setPhase(a, Phase::Spin, t);
        touchLine(l, a, t, 2);
        CpuSpin& c = spinOf(a);
        c.agent = static_cast<std::int64_t>(id);
        c.lock = req.lock;
        c.since = t;
        ++c.turn;
    } else if (a.clock.phase == Phase::Spin) {
        setPhase(a, Phase::Wait, t);  // granted after a spin, now asleep on the next lock
    }
}

void Simulator::Impl::enterCritical(std::size_t id, Time t) {
    Agent& a = agents[id];
    const CostParams& p = cfg.params;
    double ns = 0;
    const int cpu = puPos[a.cpu];
    if (a.copy) {
        setPhase(a, Phase::Hold, t);
        const Hold& h = a.plan.holds[a.plan.actions[a.pc].index];
        FileState& f = files[static_cast<std::size_t>(h.file)];
        // split-locks: v2's vma_count, one line per file, bumped by every link and unlink
        // inside the hold (its touches are reserved from the hold's start, in turn).
        const int vmaCount = shared->vmaCountKind(f.recipeFile);
        Time counted = t;
        for (std::uint32_t k = 0; k < h.opCount; ++k) {
            const TreeOp& op = a.plan.ops[h.firstOp + k];
            FileTree& tree = *f.trees[static_cast<std::size_t>(op.vma->tree)];
            pricer.start(cpu);
            applyOp(op, f, tree, *a.as, t, static_cast<std::int64_t>(id));
            ns += p.treeOpNs + pricer.cost;
            ++treeOps;
            if (vmaCount >= 0)
                counted = shared->touch(static_cast<std::uint32_t>(vmaCount), cpu, a.node, counted,
                                        memCost, p.lockAtomicNs, inWindow);
        }
        ns += static_cast<double>(counted - t);
        // vma_iter_store and map_count++ (split, expand); anon_vma_lock_write and the
        // anon_vma tree updates for a VMA with an anon_vma: inside the hold, whatever the policy.
        if (h.store) ns += p.splitStoreNs;
        if (h.anonVma) ns += p.anonVmaLockNs;
        ++holds;
    } else {
        // A whole-file walk: every tree of the file, the kernel's pruned overlap query, and
        // the per-VMA work for each VMA mapping the pages.
        emit(SimEvent::WalkBegin, t, static_cast<std::int64_t>(id));
        const FileState& f = files[static_cast<std::size_t>(recipe->walkerFile)];
        const std::uint64_t first = a.page;
        const std::uint64_t last = a.page + static_cast<std::uint64_t>(p.walkerPages) - 1;
        double touch = 0;
        auto read = [&](const SimVma* v) { touch += cache->read(v->line, cpu, v->home); };
        std::uint64_t found = 0;
        // The B-tree's node lines are priced by the pricer (its reads are not an update's).
        const std::uint64_t updateReads = pricer.reads;
        pricer.start(cpu);
        for (const auto& tree : f.trees) {
            touch += p.memLocalNs;  // the tree's root pointer
            tree->query(first, last, read, [&](const SimVma* v) {
                // The walk reads each VMA it acts on; the rbtree's visit has read it already.
                if (tree->isBTree()) read(v);
                ns += p.walkerVmaNs;
                ++found;
            });
        }
        ns += touch + pricer.cost;
        pricer.reads = updateReads;
        // What the walk could act on: under no-rmap a marked file's VMAs are in no tree, so
        // reclaim cannot unmap its pages nor migration move them.
        if (inWindow) {
            walkVmasFound += found;
            ++walksStarted;
        }
    }
    // The releases are their own event: spinners arriving meanwhile touch the lock's line
    // first, and the release pays for bringing it back.
    queue.schedule(t + toTime(ns), {0, kCriticalDone, static_cast<std::uint32_t>(id), 0});
}

void Simulator::Impl::criticalDone(std::size_t id, Time t) {
    Agent& a = agents[id];
    Time at = t;
    for (std::size_t i = a.locks.size(); i-- > 0;) {
        const int lock = a.locks[i].lock;
        Lock& l = *locks[static_cast<std::size_t>(lock)];
        // The OSQ's head has been reading owner and count through the hold: the release's
        // write takes the line back from it (rwsem_spin_on_owner).
        if (l.sem.spinners() > 0) {
            const Agent& head = agents[l.sem.osqHead()];
            l.lastCpu = static_cast<int>(head.cpu);
            l.lastNode = head.node;
        }
        at = touchLine(l, a, at);
        queue.schedule(
            at, {0, kRelease, static_cast<std::uint32_t>(id), static_cast<std::uint64_t>(lock)});
    }
}

void Simulator::Impl::release(std::size_t id, int lockIndex, Time t) {
    Lock& l = *locks[static_cast<std::size_t>(lockIndex)];
    emit(SimEvent::LockRelease, t, static_cast<std::int64_t>(id), lockIndex);
    for (const RwSemModel::Grant& g : l.sem.release(t, id)) {
        Agent& w = agents[g.requester];
        Time at = t;
        if (g.slept)
            at += toTime(cfg.params.wakeupNs);  // spinners are already running
        else
            spinEnded(w, t);  // its CPU is free for other work (its hold is not charged)
        w.spinning = false;
        emit(SimEvent::LockAcquire, t, static_cast<std::int64_t>(g.requester), lockIndex, nullptr,
             g.mode);
        w.heldSince = t;
        ++w.next;
        granted(g.requester, touchLine(l, w, at));
    }
    // The agent lets go of its locks last to first; after the first one it moves on.
    Agent& a = agents[id];
    if (!a.copy) {
        l.walkerHeldNs += static_cast<double>(t - a.heldSince);
        ++l.walkerHolds;
    }
    if (!a.copy && a.locks.size() == 1 && a.locks.front().mode == Mode::Write) {
        walkerHeldNs += static_cast<double>(t - a.heldSince);
        ++walkerHolds;
    }
    if (!a.locks.empty() && a.locks.front().lock == lockIndex) afterRelease(id, t);
}

// A lock is ours once its word has arrived, at `at`. With every lock held the critical section
// starts; its tree updates run now, which is safe because nobody else can touch those trees
// before `at`. Otherwise the next acquisition waits for its own event, so that every lock
// model sees its calls in time order.
void Simulator::Impl::granted(std::size_t id, Time at) {
    Agent& a = agents[id];
    if (a.next == a.locks.size()) {
        enterCritical(id, at);
    } else {
        queue.schedule(at, {0, kAcquireDone, static_cast<std::uint32_t>(id), 0});
    }
}

void Simulator::Impl::afterRelease(std::size_t id, Time t) {
    Agent& a = agents[id];
    if (a.copy) {
        ++a.pc;
        nextAction(id, t);
        return;
    }
    emit(SimEvent::WalkEnd, t, static_cast<std::int64_t>(id));
    walkEnded(walkLatencies, a.arrival, t, inWindow, windowStart, end);
    a.active = false;
    freeWalkers.push_back(id);
}

// The measured window opens: statistics start afresh and the run's end is fixed.
void Simulator::Impl::startWindow(Time t) {
    inWindow = true;
    windowStart = t;
    end = window.open(t);
    emit(SimEvent::WindowStart, t, -1);
    for (auto& l : locks) {
        l->sem.resetStats(t);
        l->windowTransfers = 0;
    }
    for (Agent& a : agents)
        if (a.copy) a.clock.windowOpened(t);
}

void Simulator::Impl::handle(const Event& e) {
    const Time t = e.time;
    // Every exec costs some simulated time, so only a bounded number of events can share one
    // instant; past that the clock has stopped (costs below its 1 ns resolution) and the run
    // would loop forever, its statistics growing without bound.
    if (t != instant) {
        instant = t;
        atInstant = 0;
    } else if (++atInstant > kEventsPerInstant + 1000 * agents.size()) {
        throw limits::LimitError(
            "the simulation stopped advancing: more than " +
            std::to_string(kEventsPerInstant + 1000 * agents.size()) +
            " events at simulated time " + std::to_string(t) +
            " ns without the clock moving on; the costs in an exec's path (unlocked_ns_per_exec, "
            "mem_local_ns, tree_op_ns, lock_atomic_ns, the recipe's weights) round to 0 ns");
    }
    const std::size_t id = e.target;
    switch (e.kind) {
        case kExecStart:
            startExec(id, t);
            break;
        case kWorkDone:
            ++agents[id].pc;
            nextAction(id, t);
            break;
        case kAcquireDone:
            acquireNext(id, t);
            break;
        case kCriticalDone:
            criticalDone(id, t);
            break;
        case kRelease:
            release(id, static_cast<int>(e.payload), t);
            break;
        case kWalkerArrive:
            walkerArrive(t);
            break;
        case kWindowStart:
            if (!inWindow) startWindow(t);
            break;
        case kSliceEnd:
            sliceEnd(id, e.payload, t);
            break;
        case kLineDone:
            touchLines(id, t);
            break;
        case kWarmupLimit:
            warmupLimit(t);
            break;
    }
}

Simulator::Simulator(const SimConfig& config) {
    if (!config.topology) throw std::invalid_argument("simulate: no topology");
    checkConfig(config);
    d_ = std::make_unique<Impl>(config);
    d_->setUp();
}

void Simulator::checkConfig(const SimConfig& config) {
    using limits::InputLimits;
    std::string error;
    if (!InputLimits::check("copies", config.copies, error) ||
        !InputLimits::check("duration_ms", config.durationMs, error, "the measured duration") ||
        !InputLimits::check("walkers_per_s", config.walkersPerSecond, error, "walkers"))
        throw limits::LimitError(error);
    if (config.unlinkBatch < 1 || config.unlinkBatch > 64)
        throw limits::LimitError("the unlink batch must be from 1 to 64 VMAs per hold, not " +
                                 std::to_string(config.unlinkBatch));
    for (const CostParams::Info& i : CostParams::table()) {
        CostParams check;
        if (!check.set(i.name, config.params.*(i.field), error)) throw limits::LimitError(error);
    }
    // The least time one exec of a copy takes, from every cost that adds to it: the unlocked
    // work and the shared lines' atomics run on the copy's CPU, which copies sharing it take in
    // turns; each lock hold's atomics (acquire, release), tree_op_ns per operation,
    // split_store_ns and anon_vma_lock_ns add to the copy's own exec. A window or a warm-up
    // shorter than that (or than warmup_execs of them) could never end by its counts.
    const std::size_t pus = config.topology ? config.topology->pus().size() : 0;
    if (pus == 0) return;
    const ExecFloor floor = execFloor(config);
    const double perCpu = std::ceil(static_cast<double>(config.copies) / static_cast<double>(pus));
    const double cpuNs = floor.unlockedNs + floor.linesNs;
    const double execNs = std::max(perCpu * cpuNs, cpuNs + floor.holdsNs);
    auto refuse = [&](const char* what, double ms, double needNs, const char* raise) {
        char buf[900];
        std::snprintf(buf, sizeof buf,
                      "%s of %g ms is too short for %u copies on %zu CPUs: each exec takes at "
                      "least %.4g ms (%.0f copies per CPU taking turns at unlocked_ns_per_exec "
                      "%.4g ns and %.4g ns of shared-line atomics (the recipe's mapped_pages x "
                      "folio_touches_per_page, ...), plus %.4g ns of lock holds: %.0f holds' "
                      "atomics, tree_op_ns, split_store_ns, anon_vma_lock_ns), so it would hold "
                      "less than %s; allow at least %.4g ms (%s)",
                      what, ms, config.copies, pus, execNs / 1e6, perCpu, floor.unlockedNs,
                      floor.linesNs, floor.holdsNs, floor.holds,
                      needNs > execNs ? "warmup_execs execs per copy" : "one exec per copy",
                      std::ceil(needNs / 1e6), raise);
        throw limits::LimitError(buf);
    };
    // A window that waits for window_execs lasts up to window_max_ms.
    const double windowMs = config.params.windowExecs >= 1
                                ? std::max(config.durationMs, config.params.windowMaxMs)
                                : config.durationMs;
    if (windowMs * 1e6 < execNs)
        refuse("a measured window", windowMs, execNs,
               "duration_ms, or window_max_ms when the window waits for window_execs");
    const double warmupMs = std::max(config.params.warmupMs, config.params.warmupMaxMs);
    const double warmupNs = std::ceil(config.params.warmupExecs) * execNs;
    if (config.params.warmupExecs >= 1 && warmupMs * 1e6 < warmupNs)
        refuse("a warm-up", warmupMs, warmupNs, "warmup_max_ms");
    // Each walk reads every VMA that maps its pages (rmap_walk_file's interval query): at least
    // one per process mapping the file, since libc's segments tile it. A saturated run walks for
    // its whole bound, so the walks' reads over it are at most walkers_per_s x that bound x the
    // processes; past kMaxWalkVisits no run here ends in minutes (1e6 walks/s over 1,000
    // processes, 1e10, takes 30-50 s on this VM's core).
    const double visits = config.walkersPerSecond * (warmupMs + windowMs) / 1e3 *
                          (config.params.backgroundProcesses + config.copies);
    if (visits > kMaxWalkVisits) {
        char buf[500];
        std::snprintf(buf, sizeof buf,
                      "the walkers would read up to %.3g VMAs within the run's bound "
                      "(walkers_per_s %g x (warmup_max_ms + window) %g ms x %g processes mapping "
                      "the file), over the %.0e the model finishes; lower walkers_per_s or "
                      "background_processes",
                      visits, config.walkersPerSecond, warmupMs + windowMs,
                      config.params.backgroundProcesses + config.copies, kMaxWalkVisits);
        throw limits::LimitError(buf);
    }
}

Simulator::ExecFloor Simulator::execFloor(const SimConfig& config) {
    const CostParams& p = config.params;
    const Recipe& recipe = config.recipe ? *config.recipe : Recipe::builtinDefault();
    const bool splitLocks = config.policy.kind == mapping::Policy::Kind::SplitLocks;
    ExecFloor f;
    f.unlockedNs = p.unlockedNsPerExec;
    // Lines as the run builds them, but for the per-CPU loops (they need the machine's
    // distances; microseconds): a floor.
    f.linesNs = SharedLines(p, recipe, 1, splitLocks, {}, config.extraSharedLines)
                    .leastNsPerExec(p.lockAtomicNs);
    // The holds of a copy's second exec (the first has no old image to tear down).
    AddressSpace as(0, 0);
    std::uint32_t ids = 1;
    as.setIdSource(&ids);
    BatchRule batch;
    batch.maxPerHold = config.unlinkBatch;
    batch.perVma = splitLocks;
    batch.splitTwoHolds = splitLocks;
    Plan plan;
    as.planSteps(recipe, batch, plan);
    plan.clear();
    as.planSteps(recipe, batch, plan);
    for (const Hold& h : plan.holds) {
        f.holdsNs += 2 * p.lockAtomicNs + h.opCount * p.treeOpNs + (h.store ? p.splitStoreNs : 0) +
                     (h.anonVma ? p.anonVmaLockNs : 0);
        ++f.holds;
    }
    return f;
}

Simulator::~Simulator() = default;

std::vector<std::string> Simulator::lockNames() const {
    std::vector<std::string> names;
    for (const auto& l : d_->locks)
        names.push_back(l->name);
    return names;
}

std::vector<std::string> Simulator::fileNames() const {
    std::vector<std::string> names;
    for (const auto& f : d_->files)
        names.push_back(f.name);
    return names;
}

std::size_t Simulator::treesPerFile() const {
    return d_->files.empty() ? 1 : d_->files.front().trees.size();
}

std::vector<int> Simulator::lockFiles() const {
    std::vector<int> files;
    for (const auto& l : d_->locks)
        files.push_back(l->file);
    return files;
}

void Simulator::setObserver(SimObserver* observer) {
    d_->observer = observer;
}

bool Simulator::runUntil(Time until) {
    // d_->end is only known once the warm-up is over, so it is read again after every event.
    while (!d_->queue.empty() && d_->queue.nextTime() <= std::min(until, d_->end))
        d_->handle(d_->queue.pop());
    return until < d_->end;
}

Time Simulator::nextEventTime() const {
    return d_->queue.empty() ? d_->end : std::min(d_->queue.nextTime(), d_->end);
}

bool Simulator::step() {
    if (d_->queue.empty() || d_->queue.nextTime() > d_->end) return false;
    d_->handle(d_->queue.pop());
    return true;
}

std::uint64_t Simulator::eventsHandled() const {
    return d_->queue.scheduledCount() - d_->queue.size();
}

SimResult Simulator::run() {
    runUntil(std::numeric_limits<Time>::max() / 4);
    return d_->result(d_->end);
}

Time Simulator::now() const {
    return d_->queue.now();
}

Time Simulator::endTime() const {
    return d_->end;
}

SimResult Simulator::result() const {
    return d_->result(std::max(d_->queue.now(), d_->windowStart));
}

const std::vector<unsigned>& Simulator::copyCpus() const {
    return d_->copyCpu;
}

}  // namespace immap::sim
