#include "trace/TraceReplay.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "mapping/Policy.h"
#include "sim/ResultMath.h"

namespace immap::trace {

using sim::SimEvent;

TraceReplay::TraceReplay(const TraceHeader& header) : header_(header) {
    files_.resize(header.files.size());
    for (File& f : files_) {
        for (unsigned t = 0; t < header.treesPerFile; ++t) {
            f.trees.push_back(std::make_unique<itree::IntervalTree>());
            f.trees.back()->setObserver(&reads_);
        }
    }
    locks_.reserve(header.locks.size());
    for (std::size_t i = 0; i < header.locks.size(); ++i)
        locks_.emplace_back(0);
    end_ = std::numeric_limits<std::int64_t>::max() / 2;
}

TraceReplay::Vma* TraceReplay::liveVma(std::uint32_t id) {
    const auto it = slotOf_.find(id);
    return it == slotOf_.end() ? nullptr : &vmas_[it->second];
}

TraceReplay::Vma& TraceReplay::addVma(std::uint32_t id) {
    std::uint32_t slot;
    if (!freeSlots_.empty()) {
        slot = freeSlots_.back();
        freeSlots_.pop_back();
        vmas_[slot].owner = -1;  // the rest is set by whoever adds it (Nodes do not copy)
    } else {
        slot = static_cast<std::uint32_t>(vmas_.size());
        vmas_.emplace_back();
    }
    slotOf_.emplace(id, slot);
    Vma& v = vmas_[slot];
    v.id = id;
    return v;
}

void TraceReplay::dropVma(std::uint32_t id) {
    const auto it = slotOf_.find(id);
    vmas_[it->second].inTree = false;
    freeSlots_.push_back(it->second);
    slotOf_.erase(it);
}

struct TraceReplay::Snapshot {
    struct Live {
        std::uint32_t id;
        itree::Index start, last;
        int file, tree, home;
        std::int32_t owner;
    };
    struct Link {
        std::uint32_t node, parent, left, right;
        itree::Color color;
        itree::Index subtreeLast;
    };
    struct Tree {
        std::vector<Link> links;
        std::uint32_t root = kNone, leftmost = kNone;
    };
    static constexpr std::uint32_t kNone = ~0u;
    std::vector<Live> live;
    std::vector<std::vector<Tree>> trees;  // per file, per tree
    std::vector<std::pair<std::uint64_t, std::uint64_t>> counts;
    std::vector<sim::RwSemModel> locks;
    std::vector<Agent> agentsByIndex;
    std::unordered_map<std::int32_t, Agent> agents;
    bool inWindow = false, started = false;
    std::int64_t windowStart = 0, end = 0, now = 0;
    sim::WaitHistogram walkLatencies;
    std::uint64_t events = 0, reads = 0, holds = 0, treeOps = 0;
};

std::shared_ptr<const TraceReplay::Snapshot> TraceReplay::snapshot() const {
    auto s = std::make_shared<Snapshot>();
    auto idOf = [](const itree::Node* n) {
        return n ? static_cast<const Vma*>(n)->id : Snapshot::kNone;
    };
    std::vector<itree::IntervalTree::LinkRecord> links;
    for (const File& f : files_) {
        s->counts.push_back({f.inserts, f.removes});
        auto& trees = s->trees.emplace_back();
        for (const auto& t : f.trees) {
            Snapshot::Tree& st = trees.emplace_back();
            t->capture(links);
            for (const auto& l : links) {
                st.links.push_back({idOf(l.node), idOf(l.parent), idOf(l.left), idOf(l.right),
                                    l.color, l.subtreeLast});
                const Vma& v = *static_cast<const Vma*>(l.node);
                s->live.push_back({v.id, v.start, v.last, v.file, v.tree, v.home, v.owner});
            }
            st.root = idOf(t->root());
            st.leftmost = idOf(t->leftmost());
        }
    }
    s->locks = locks_;
    s->agents = agents_;
    s->agentsByIndex = agentsByIndex_;
    s->inWindow = inWindow_;
    s->started = started_;
    s->windowStart = windowStart_;
    s->end = end_;
    s->now = now_;
    s->walkLatencies = walkLatencies_;
    s->events = events_;
    s->reads = reads_.reads;
    s->holds = holds_;
    s->treeOps = treeOps_;
    return s;
}

void TraceReplay::restore(const Snapshot& s) {
    vmas_.clear();
    slotOf_.clear();
    freeSlots_.clear();
    for (const Snapshot::Live& l : s.live) {
        Vma& v = addVma(l.id);
        v.start = l.start;
        v.last = l.last;
        v.file = l.file;
        v.tree = l.tree;
        v.home = l.home;
        v.owner = l.owner;
        v.inTree = true;
    }
    auto ptr = [&](std::uint32_t id) -> itree::Node* {
        return id == Snapshot::kNone ? nullptr : liveVma(id);
    };
    std::vector<itree::IntervalTree::LinkRecord> links;
    for (std::size_t f = 0; f < files_.size(); ++f) {
        files_[f].inserts = s.counts[f].first;
        files_[f].removes = s.counts[f].second;
        for (std::size_t t = 0; t < files_[f].trees.size(); ++t) {
            const Snapshot::Tree& st = s.trees[f][t];
            links.clear();
            for (const Snapshot::Link& l : st.links)
                links.push_back({ptr(l.node), ptr(l.parent), ptr(l.left), ptr(l.right), l.color,
                                 l.subtreeLast});
            files_[f].trees[t]->restore(links, ptr(st.root), ptr(st.leftmost));
        }
    }
    locks_ = s.locks;
    agents_ = s.agents;
    agentsByIndex_ = s.agentsByIndex;
    inWindow_ = s.inWindow;
    started_ = s.started;
    windowStart_ = s.windowStart;
    end_ = s.end;
    now_ = s.now;
    walkLatencies_ = s.walkLatencies;
    events_ = s.events;
    reads_.reads = s.reads;
    holds_ = s.holds;
    treeOps_ = s.treeOps;
}

// A copy asking for the first lock of a hold starts waiting (the simulator's beginLocked).
void TraceReplay::beginWaiting(const SimEvent& e) {
    if (e.agent < 0 || static_cast<unsigned>(e.agent) >= header_.copies) return;
    Agent& a = agent(e.agent);
    if (a.clock.phase == sim::PhaseClock::Phase::Work ||
        a.clock.phase == sim::PhaseClock::Phase::Idle)
        a.clock.set(sim::PhaseClock::Phase::Wait, e.time, inWindow_, windowStart_);
}

TraceReplay::Agent& TraceReplay::agent(std::int32_t id) {
    if (id >= 0 && id < kDenseAgents && static_cast<unsigned>(id) < header_.copies) {
        if (static_cast<std::size_t>(id) >= agentsByIndex_.size())
            agentsByIndex_.resize(static_cast<std::size_t>(id) + 1);
        return agentsByIndex_[static_cast<std::size_t>(id)];
    }
    return agents_[id];
}

bool TraceReplay::apply(const SimEvent& e, std::string& reason) {
    ++events_;
    now_ = std::max(now_, e.time);
    using Mode = sim::RwSemModel::Mode;
    const bool lockEvent = e.kind == SimEvent::LockWait || e.kind == SimEvent::LockAcquire ||
                           e.kind == SimEvent::LockRelease;
    // The window's statistics end at end_: a lock event past it means the header's duration
    // does not belong to these events (the simulator records nothing after its window).
    if (lockEvent && inWindow_ && e.time > end_) {
        reason = "a lock event at " + std::to_string(e.time) +
                 " ns comes after the measured window's end at " + std::to_string(end_) +
                 " ns: the header's duration_ms (" + std::to_string(header_.durationMs) +
                 ") is shorter than the recording";
        return false;
    }
    try {
        switch (e.kind) {
            case SimEvent::TreeInsert:
            case SimEvent::TreeRemove: {
                File& f = files_[static_cast<std::size_t>(e.file)];
                if (static_cast<std::size_t>(e.tree) >= f.trees.size()) {
                    if (e.tree > 4096) {
                        reason =
                            "tree " + std::to_string(e.tree) + " is beyond 4096 trees per file";
                        return false;
                    }
                    while (f.trees.size() <= static_cast<std::size_t>(e.tree)) {
                        f.trees.push_back(std::make_unique<itree::IntervalTree>());
                        f.trees.back()->setObserver(&reads_);
                    }
                }
                Vma* live = liveVma(e.vma);
                itree::IntervalTree& t = *f.trees[static_cast<std::size_t>(e.tree)];
                const bool copy = e.agent >= 0 && static_cast<unsigned>(e.agent) < header_.copies;
                const bool counted = started_ && copy;
                if (copy) {
                    // A hold's first tree operation: its critical section has begun.
                    Agent& a = agent(e.agent);
                    if (a.clock.phase == sim::PhaseClock::Phase::Wait)
                        a.clock.set(sim::PhaseClock::Phase::Hold, e.time, inWindow_, windowStart_);
                }
                reads_.on = counted;
                if (counted) ++treeOps_;
                if (e.kind == SimEvent::TreeInsert) {
                    if (live) {
                        reason =
                            "VMA " + std::to_string(e.vma) + " is inserted while already in a tree";
                        return false;
                    }
                    Vma& v = addVma(e.vma);
                    v.start = e.start;
                    v.last = e.last;
                    v.file = e.file;
                    v.tree = e.tree;
                    v.home = e.home;
                    v.inTree = true;
                    t.insert(&v);
                    ++f.inserts;
                } else {
                    if (!live || live->file != e.file || live->tree != e.tree ||
                        live->start != e.start || live->last != e.last) {
                        reason =
                            "VMA " + std::to_string(e.vma) + " is removed from a tree it is not in";
                        return false;
                    }
                    t.remove(live);
                    dropVma(e.vma);
                    ++f.removes;
                }
                break;
            }
            case SimEvent::LockWait: {
                beginWaiting(e);
                auto& l = locks_[static_cast<std::size_t>(e.lock)];
                if (l.acquire(e.time,
                              static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.agent)),
                              e.mode ? Mode::Read : Mode::Write)) {
                    reason = "a wait for a lock that was free";
                    return false;
                }
                agent(e.agent).waitingOn = e.lock;
                break;
            }
            case SimEvent::LockAcquire: {
                Agent& a = agent(e.agent);
                // Every copy hold has exactly one write lock, and its critical section starts as
                // that lock is granted: count holds there, as the simulator does.
                if (!e.mode && started_ && e.agent >= 0 &&
                    static_cast<unsigned>(e.agent) < header_.copies)
                    ++holds_;
                ++a.held;
                if (a.waitingOn == e.lock) {
                    a.waitingOn = -1;  // granted by the release just replayed
                    break;
                }
                beginWaiting(e);
                auto& l = locks_[static_cast<std::size_t>(e.lock)];
                if (!l.acquire(e.time,
                               static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.agent)),
                               e.mode ? Mode::Read : Mode::Write)) {
                    reason = "an acquisition of a lock that was not free";
                    return false;
                }
                break;
            }
            case SimEvent::LockRelease: {
                // The hold's last lock let go: the copy is back to unlocked work.
                Agent& holder = agent(e.agent);
                if (--holder.held == 0 && e.agent >= 0 &&
                    static_cast<unsigned>(e.agent) < header_.copies)
                    holder.clock.set(sim::PhaseClock::Phase::Work, e.time, inWindow_, windowStart_);
                locks_[static_cast<std::size_t>(e.lock)].release(
                    e.time, static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.agent)));
                break;
            }
            case SimEvent::ExecBegin:
                started_ = true;
                break;
            case SimEvent::WindowStart:
                inWindow_ = true;
                windowStart_ = e.time;
                end_ = e.time + static_cast<std::int64_t>(std::llround(header_.durationMs * 1e6));
                for (auto& l : locks_)
                    l.resetStats(e.time);
                for (unsigned c = 0; c < header_.copies && c < agentsByIndex_.size(); ++c)
                    agentsByIndex_[c].clock.windowOpened(e.time);
                break;
            case SimEvent::ExecEnd: {
                Agent& a = agent(e.agent);
                if (inWindow_ && e.time <= end_) {
                    ++a.execsInWindow;
                    if (a.firstExecEnd < 0) a.firstExecEnd = e.time;
                    a.lastExecEnd = e.time;
                }
                break;
            }
            case SimEvent::WalkArrive:
                agent(e.agent).arrival = e.time;
                break;
            case SimEvent::WalkEnd: {
                const Agent& a = agent(e.agent);
                if (e.time < a.arrival) {
                    reason = "walker " + std::to_string(e.agent) + " ends its walk at " +
                             std::to_string(e.time) + " ns, before it arrived at " +
                             std::to_string(a.arrival) + " ns";
                    return false;
                }
                if (inWindow_ && a.arrival >= windowStart_ && e.time <= end_)
                    walkLatencies_.record(e.time - a.arrival);
                break;
            }
            default:
                break;
        }
    } catch (const std::invalid_argument&) {  // the lock model refuses what cannot happen
        reason = "the event's time goes back before the lock's previous event";
        return false;
    } catch (const std::logic_error&) {
        const std::string who = "agent " + std::to_string(e.agent);
        const std::string lock =
            e.lock >= 0 && static_cast<std::size_t>(e.lock) < header_.locks.size()
                ? "lock \"" + header_.locks[static_cast<std::size_t>(e.lock)].name + "\""
                : "its lock";
        reason = e.kind == SimEvent::LockRelease
                     ? who + " releases " + lock + ", which it does not hold"
                     : who + " asks for " + lock + " while it already holds it or waits for it";
        return false;
    }
    return true;
}

void TraceReplay::endsEarlyAt(std::int64_t time) {
    if (inWindow_) end_ = std::clamp(time, windowStart_, end_);
}

sim::SimResult TraceReplay::result() const {
    sim::SimResult r;
    r.policy = header_.policy;
    r.topology = header_.topology;
    r.recipe = header_.recipe;
    r.copies = header_.copies;
    r.seed = header_.seed;
    r.walkersPerSecond = header_.walkersPerSecond;
    std::string ignored;  // a parameter this build does not know keeps its default
    for (const auto& [name, value] : header_.params)
        r.params.set(name, value, ignored);
    // A recorded run ends at its window's end (its last events may come a little before).
    const std::int64_t at = inWindow_ ? end_ : now_;
    const std::int64_t from = inWindow_ ? windowStart_ : at;
    r.durationMs = static_cast<double>(at - from) / 1e6;
    r.warmupMs = static_cast<double>(from) / 1e6;
    // The simulator's estimator, over the copies (agents 0..copies-1).
    std::vector<sim::CopyExecs> copies;
    for (unsigned c = 0; c < header_.copies && c < agentsByIndex_.size(); ++c) {
        const Agent& a = agentsByIndex_[c];
        r.execs += a.execsInWindow;
        copies.push_back({a.execsInWindow, a.firstExecEnd, a.lastExecEnd});
    }
    r.execsPerSecond = sim::execsPerSecond(copies, from, at);
    if (header_.copyCpus.size() == header_.copies) {
        static const sim::PhaseClock idle;
        std::vector<sim::CopyPlace> places;
        for (unsigned c = 0; c < header_.copies; ++c)
            places.push_back({header_.copyCpus[c], header_.copyNodes[c],
                              c < agentsByIndex_.size() ? &agentsByIndex_[c].clock : &idle});
        r.cpus = sim::cpuSplit(places, at, from, inWindow_);
    }
    for (std::size_t i = 0; i < locks_.size(); ++i)
        r.locks.push_back(
            {header_.locks[i].name, header_.locks[i].file, locks_[i].stats(std::max(at, from))});
    std::size_t trees = 1;
    for (std::size_t f = 0; f < files_.size(); ++f) {
        trees = std::max(trees, files_[f].trees.size());
        r.files.push_back(sim::summarizeFile(header_.files[f], files_[f].trees, files_[f].inserts,
                                             files_[f].removes));
    }
    mapping::Policy policy;
    std::string error;
    if (mapping::Policy::parse(header_.policy, policy, error))
        r.memoryPerInodeBytes = policy.memoryPerInodeBytes(trees);
    r.lockHolds = holds_;
    r.treeOps = treeOps_;
    r.nodesPerTreeOp =
        treeOps_ ? static_cast<double>(reads_.reads) / static_cast<double>(treeOps_) : 0;
    r.walks = walkLatencies_.count();
    sim::latencyStats(walkLatencies_, r.walkerLatencyMeanNs, r.walkerLatencyP99Ns);
    return r;
}

}  // namespace immap::trace
