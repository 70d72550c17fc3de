#include "sim/SimulatorImpl.h"

// What runs on a copy's CPU besides its lock holds: unlocked work (slowed by a busy SMT
// sibling), touches of the lines every exec shares (SharedLines), a no-rmap file's VMA changes,
// and optimistic spinners, which keep their CPU until they stop.

namespace immap::sim {

// Unlocked work runs on the copy's CPU; copies sharing a CPU take turns (FIFO). With the
// other hardware thread of its core busy, it runs at smt_thread_share of its speed.
void Simulator::Impl::startWork(std::size_t id, Time t) {
    Agent& a = agents[id];
    const Action& act = a.plan.actions[a.pc];
    if (act.kind == Action::Lines) {
        a.lineNext = 0;
        touchLines(id, t);
        return;
    }
    double ns = 0;
    if (act.kind == Action::Locked) {
        // no-rmap: the VMAs change in no i_mmap tree and under no i_mmap lock; the hold's
        // other work (the maple tree store, map_count, the anon_vma lock) remains.
        const Hold& h = a.plan.holds[act.index];
        FileState& f = files[static_cast<std::size_t>(h.file)];
        for (std::uint32_t k = 0; k < h.opCount; ++k)
            applyTreeOp(a.plan.ops[h.firstOp + k], *f.unlinked, *a.as);
        if (h.store) ns += cfg.params.splitStoreNs;
        if (h.anonVma) ns += cfg.params.anonVmaLockNs;
        ns = std::max(ns, 1.0);  // time moves on
    } else {
        ns = act.weight * unlockedScale;
        if (cfg.params.smtThreadShare < 1 && siblingBusy(puPos[a.cpu], t))
            ns /= cfg.params.smtThreadShare;
    }
    cache->touchOthers(puPos[a.cpu], static_cast<std::uint64_t>(
                                         std::llround(ns / 1000 * cfg.params.workLinesPerUs)));
    Time& free = cpuFree[static_cast<std::size_t>(puPos[a.cpu])];
    const Time begin = std::max(t, free);
    const Time done = begin + toTime(ns);
    free = done;
    queue.schedule(done, {0, kWorkDone, static_cast<std::uint32_t>(id), 0});
}

bool Simulator::Impl::unlinkedHold(const Agent& a) const {
    const Action& act = a.plan.actions[a.pc];
    return act.kind == Action::Locked &&
           files[static_cast<std::size_t>(a.plan.holds[act.index].file)].unlinked != nullptr;
}

bool Simulator::Impl::siblingBusy(int pos, Time t) const {
    for (int s : siblings[static_cast<std::size_t>(pos)])
        if (cpuFree[static_cast<std::size_t>(s)] > t ||
            cpuSpin[static_cast<std::size_t>(s)].agent >= 0)
            return true;
    return false;
}

// The next shared-line touch before a recipe step, one event each so that every line sees
// its touches in time order. The CPU is busy meanwhile (an atomic waiting for its line, a
// spinlock spinning); if another copy's work holds the CPU, the touch waits for it.
void Simulator::Impl::touchLines(std::size_t id, Time t) {
    Agent& a = agents[id];
    const std::vector<std::uint32_t>& touches = shared->atStep(a.plan.actions[a.pc].index);
    if (a.lineNext == touches.size()) {
        ++a.pc;
        nextAction(id, t);
        return;
    }
    Time& free = cpuFree[static_cast<std::size_t>(puPos[a.cpu])];
    if (free > t) {
        queue.schedule(free, {0, kLineDone, static_cast<std::uint32_t>(id), 0});
        return;
    }
    const Time done = shared->touch(touches[a.lineNext++], puPos[a.cpu], a.node, t, memCost,
                                    cfg.params.lockAtomicNs, inWindow);
    free = done;
    queue.schedule(done, {0, kLineDone, static_cast<std::uint32_t>(id), 0});
}

// rwsem_can_spin_on_owner: no spinning when need_resched is already set, i.e. when another
// copy's work is runnable on this CPU (reserved past now) or another copy spins on it.
bool Simulator::Impl::maySpin(const Agent& a, Time t) {
    return cpuFree[static_cast<std::size_t>(puPos[a.cpu])] <= t && spinOf(a).agent < 0;
}

// The spinner on a's CPU stops at t (it got the lock, or gave up): the work waiting for the
// CPU starts, in the order it asked.
void Simulator::Impl::spinEnded(const Agent& a, Time t) {
    CpuSpin& c = spinOf(a);
    c.agent = -1;
    for (std::uint32_t id : c.queued)
        startWork(id, t);
    c.queued.clear();
}

// need_resched at the spinner's slice end: rwsem_spin_on_owner gives up, and the writer
// sleeps on the wait list (rwsem_down_write_slowpath). Ignored if that spin is over.
void Simulator::Impl::sliceEnd(std::size_t id, std::uint64_t turn, Time t) {
    Agent& a = agents[id];
    const CpuSpin& c = spinOf(a);
    if (c.agent != static_cast<std::int64_t>(id) || c.turn != turn) return;
    const int lock = c.lock;
    locks[static_cast<std::size_t>(lock)]->sem.stopSpinning(t, id);
    emit(SimEvent::LockSleep, t, static_cast<std::int64_t>(id), lock);
    a.spinning = false;
    setPhase(a, Phase::Wait, t);
    spinEnded(a, t);
}

}  // namespace immap::sim
