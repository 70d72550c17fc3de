#include "trace/EventInterpreter.h"

#include <algorithm>

namespace immap::trace {

using sim::SimEvent;

EventInterpreter::EventInterpreter(const TraceHeader& header, EventListener* listener,
                                   Options options)
    : header_(header), listener_(listener ? listener : &none_), options_(options) {
    if (!options_.trees) return;
    trees_.resize(header_.files.size());
    for (auto& file : trees_)
        for (unsigned t = 0; t < header_.treesPerFile; ++t)
            file.push_back(std::make_unique<itree::IntervalTree>());
}

void EventInterpreter::setTouchObserver(itree::TouchObserver* observer) {
    touch_ = observer;
    for (auto& file : trees_)
        for (auto& t : file)
            t->setObserver(observer);
}

EventInterpreter::Vma* EventInterpreter::liveVma(std::uint32_t id) {
    const auto it = slotOf_.find(id);
    return it == slotOf_.end() ? nullptr : &vmas_[it->second];
}

EventInterpreter::Vma* EventInterpreter::addVma(const VmaRecord& r) {
    const auto [it, fresh] = slotOf_.try_emplace(r.id, 0u);
    if (!fresh) return nullptr;
    if (!freeSlots_.empty()) {
        it->second = freeSlots_.back();
        freeSlots_.pop_back();
    } else {
        it->second = static_cast<std::uint32_t>(vmas_.size());
        vmas_.emplace_back();
    }
    Vma& v = vmas_[it->second];  // Nodes do not copy: the fields are set one by one
    v.id = r.id;
    v.start = r.start;
    v.last = r.last;
    v.file = r.file;
    v.tree = r.tree;
    v.home = r.home;
    v.owner = r.owner;
    return &v;
}

EventInterpreter::Agent& EventInterpreter::agentMut(std::int32_t id) {
    if (isCopy(id) && id < kDenseAgents) {
        if (static_cast<std::size_t>(id) >= copies_.size())
            copies_.resize(static_cast<std::size_t>(id) + 1);
        return copies_[static_cast<std::size_t>(id)];
    }
    return others_[id];
}

const EventInterpreter::Agent& EventInterpreter::agent(std::int32_t id) const {
    static const Agent idle;
    if (isCopy(id) && id < kDenseAgents)
        return static_cast<std::size_t>(id) < copies_.size() ? copies_[static_cast<std::size_t>(id)]
                                                             : idle;
    const auto it = others_.find(id);
    return it == others_.end() ? idle : it->second;
}

std::string EventInterpreter::lockName(int lock) const {
    return "lock \"" + header_.locks[static_cast<std::size_t>(lock)].name + "\"";
}

bool EventInterpreter::treeEvent(const SimEvent& e, std::string& reason) {
    if (!options_.trees) {
        listener_->treeChanged(e);
        return true;
    }
    if (e.file < 0 || static_cast<std::size_t>(e.file) >= trees_.size() || e.tree < 0) {
        reason = "a tree event for file " + std::to_string(e.file) + ", tree " +
                 std::to_string(e.tree) + ", which do not exist";
        return false;
    }
    // Only the header's trees exist (TraceReader refuses an event beyond them): an event
    // must not make replay build trees the header never declared.
    auto& trees = trees_[static_cast<std::size_t>(e.file)];
    if (static_cast<std::size_t>(e.tree) >= trees.size()) {
        reason = "tree " + std::to_string(e.tree) + " is beyond the header's trees_per_file (" +
                 std::to_string(trees.size()) + ")";
        return false;
    }
    itree::IntervalTree& t = *trees[static_cast<std::size_t>(e.tree)];
    if (e.kind == SimEvent::TreeInsert) {
        Vma* v = addVma({e.vma, e.start, e.last, e.file, e.tree, e.home, e.agent});
        if (!v) {
            reason = "VMA " + std::to_string(e.vma) + " is inserted while already in a tree";
            return false;
        }
        listener_->treeOpBegins(e);
        t.insert(v);
    } else {
        const auto it = slotOf_.find(e.vma);
        Vma* live = it == slotOf_.end() ? nullptr : &vmas_[it->second];
        if (!live || live->file != e.file || live->tree != e.tree || live->start != e.start ||
            live->last != e.last) {
            reason = "VMA " + std::to_string(e.vma) + " is removed from a tree it is not in";
            return false;
        }
        listener_->treeOpBegins(e);
        t.remove(live);
        freeSlots_.push_back(it->second);
        slotOf_.erase(it);
    }
    listener_->treeChanged(e);
    return true;
}

bool EventInterpreter::lockEvent(const SimEvent& e, std::string& reason) {
    if (e.lock < 0 || static_cast<std::size_t>(e.lock) >= header_.locks.size()) {
        reason = "lock " + std::to_string(e.lock) + " is not in the header";
        return false;  // nothing to apply it to, however lenient
    }
    Agent& a = agentMut(e.agent);
    const auto held = std::find_if(a.held.begin(), a.held.end(),
                                   [&](const auto& h) { return h.first == e.lock; });
    // Messages are built only for a contradiction: this runs for every lock event.
    auto asksTwice = [&] {
        return "agent " + std::to_string(e.agent) + " asks for " + lockName(e.lock) +
               " while it already holds it or waits for it";
    };
    bool ok = true;
    switch (e.kind) {
        case SimEvent::LockWait:
            if (a.waiting == e.lock || held != a.held.end()) {
                reason = asksTwice();
                ok = false;
                if (!options_.lenient) return false;
            }
            a.waiting = e.lock;
            a.waitRead = e.mode == 1;
            listener_->waitBegan(e);
            break;
        case SimEvent::LockAcquire: {
            const bool afterWait = a.waiting == e.lock;
            if (!afterWait && held != a.held.end()) {
                reason = asksTwice();
                ok = false;
                if (!options_.lenient) return false;
            }
            if (afterWait) a.waiting = -1;
            a.held.emplace_back(e.lock, e.mode == 1);
            listener_->acquired(e, afterWait);
            break;
        }
        case SimEvent::LockSleep:
            if (a.waiting != e.lock) {
                reason = "agent " + std::to_string(e.agent) + " stops spinning for " +
                         lockName(e.lock) + ", which it does not wait for";
                return false;  // nothing to apply, however lenient
            }
            listener_->waitSlept(e);
            break;
        default:  // LockRelease
            if (held == a.held.end()) {
                reason = "agent " + std::to_string(e.agent) + " releases " + lockName(e.lock) +
                         ", which it does not hold";
                ok = false;
                if (!options_.lenient) return false;
            } else {
                a.held.erase(held);
            }
            listener_->released(e, a.held.empty());
            break;
    }
    return ok;
}

bool EventInterpreter::apply(const SimEvent& e, std::string& reason) {
    switch (e.kind) {
        case SimEvent::TreeInsert:
        case SimEvent::TreeRemove:
            return treeEvent(e, reason);
        case SimEvent::LockWait:
        case SimEvent::LockAcquire:
        case SimEvent::LockRelease:
        case SimEvent::LockSleep:
            return lockEvent(e, reason);
        case SimEvent::ExecBegin:
            listener_->execBegan(e);
            break;
        case SimEvent::ExecEnd:
            listener_->execEnded(e);
            break;
        case SimEvent::WalkArrive:
            agentMut(e.agent).arrival = e.time;
            listener_->walkArrived(e);
            break;
        case SimEvent::WalkBegin:
            listener_->walkBegan(e);
            break;
        case SimEvent::WalkGiveUp:
            listener_->walkGaveUp(e);
            break;
        case SimEvent::WalkEnd: {
            const sim::Time arrival = agent(e.agent).arrival;
            if (e.time < arrival) {
                reason = "walker " + std::to_string(e.agent) + " ends its walk at " +
                         std::to_string(e.time) + " ns, before it arrived at " +
                         std::to_string(arrival) + " ns";
                if (options_.lenient) listener_->walkEnded(e, arrival);
                return false;
            }
            listener_->walkEnded(e, arrival);
            break;
        }
        case SimEvent::WindowStart:
            listener_->windowStarted(e);
            break;
        case SimEvent::KernelLockWait:
            listener_->kernelWaitBegan(e);
            break;
        case SimEvent::KernelLockAcquired:
            listener_->kernelAcquired(e);
            break;
    }
    return true;
}

// --- snapshots ----------------------------------------------------------------------------

struct EventInterpreter::Snapshot {
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
    std::vector<VmaRecord> live;
    std::vector<std::vector<Tree>> trees;  // per file, per tree
    std::vector<Agent> copies;
    std::unordered_map<std::int32_t, Agent> others;
};

std::shared_ptr<const EventInterpreter::Snapshot> EventInterpreter::snapshot() const {
    auto s = std::make_shared<Snapshot>();
    auto idOf = [](const itree::Node* n) { return n ? vmaIdOf(n) : Snapshot::kNone; };
    std::vector<itree::IntervalTree::LinkRecord> links;
    for (const auto& file : trees_) {
        auto& trees = s->trees.emplace_back();
        for (const auto& t : file) {
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
    s->copies = copies_;
    s->others = others_;
    return s;
}

void EventInterpreter::restore(const Snapshot& s) {
    vmas_.clear();
    slotOf_.clear();
    freeSlots_.clear();
    for (const VmaRecord& l : s.live)
        addVma(l);
    auto ptr = [&](std::uint32_t id) -> itree::Node* {
        return id == Snapshot::kNone ? nullptr : liveVma(id);
    };
    std::vector<itree::IntervalTree::LinkRecord> links;
    for (std::size_t f = 0; f < trees_.size(); ++f) {
        auto& file = trees_[f];
        while (file.size() < s.trees[f].size()) {
            file.push_back(std::make_unique<itree::IntervalTree>());
            file.back()->setObserver(touch_);
        }
        file.resize(s.trees[f].size());
        for (std::size_t t = 0; t < file.size(); ++t) {
            const Snapshot::Tree& st = s.trees[f][t];
            links.clear();
            for (const Snapshot::Link& l : st.links)
                links.push_back({ptr(l.node), ptr(l.parent), ptr(l.left), ptr(l.right), l.color,
                                 l.subtreeLast});
            file[t]->restore(links, ptr(st.root), ptr(st.leftmost));
        }
    }
    copies_ = s.copies;
    others_ = s.others;
}

}  // namespace immap::trace
