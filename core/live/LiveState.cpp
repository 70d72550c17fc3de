#include "live/LiveState.h"

#include <algorithm>
#include <stdexcept>

namespace immap::live {

const char* laneStateName(LaneState s) {
    switch (s) {
        case LaneState::Working:
            return "working";
        case LaneState::Waiting:
            return "waiting";
        case LaneState::Holding:
            return "holding";
    }
    return "?";
}

LiveState::LiveState(sim::Time rateWindow) : rateWindow_(std::max<sim::Time>(1, rateWindow)) {}

LiveState::LiveState(const trace::TraceHeader& header, sim::Time rateWindow)
    : LiveState(rateWindow) {
    begin(header);
}

LiveState::~LiveState() = default;

void LiveState::begin(const trace::TraceHeader& header) {
    if (begun_) throw std::logic_error("LiveState::begin called twice");
    header_ = header;
    begun_ = true;
    trees_.clear();
    trees_.resize(header_.files.size());
    locks_.clear();
    for (const trace::TraceLock& l : header_.locks)
        locks_.push_back({l.name, l.file, {}, {}});
    agents_.resize(header_.copies);
    std::vector<sim::SimEvent> pending;
    pending.swap(pending_);
    for (const sim::SimEvent& e : pending)
        apply(e);
}

void LiveState::onEvent(const sim::SimEvent& e) {
    if (!begun_) {
        pending_.push_back(e);
        return;
    }
    apply(e);
}

LiveState::AgentState& LiveState::agentMut(int id) {
    if (id < 0) throw std::out_of_range("agent");
    if (static_cast<std::size_t>(id) < agents_.size()) return agents_[static_cast<std::size_t>(id)];
    return walkers_[id];
}

const LiveState::AgentState& LiveState::agent(int id) const {
    static const AgentState none;
    if (id < 0) return none;
    if (static_cast<std::size_t>(id) < agents_.size()) return agents_[static_cast<std::size_t>(id)];
    const auto it = walkers_.find(id);
    return it == walkers_.end() ? none : it->second;
}

void LiveState::eraseAgent(std::vector<QueueEntry>& v, int agent) {
    auto it =
        std::find_if(v.begin(), v.end(), [agent](const QueueEntry& q) { return q.agent == agent; });
    if (it != v.end()) v.erase(it);
}

void LiveState::treeEvent(const sim::SimEvent& e) {
    auto fail = [&](const std::string& why) {
        if (error_.empty()) error_ = why;
    };
    if (e.file < 0 || static_cast<std::size_t>(e.file) >= trees_.size() || e.tree < 0 ||
        e.tree > 4096)
        return fail("a tree event for file " + std::to_string(e.file) + ", tree " +
                    std::to_string(e.tree) + ", which do not exist");
    auto& trees = trees_[static_cast<std::size_t>(e.file)];
    while (trees.size() <= static_cast<std::size_t>(e.tree))
        trees.push_back(std::make_unique<itree::IntervalTree>());
    itree::IntervalTree& t = *trees[static_cast<std::size_t>(e.tree)];
    if (e.kind == sim::SimEvent::TreeInsert) {
        auto& slot = vmas_[e.vma];
        if (slot) return fail("VMA " + std::to_string(e.vma) + " inserted twice");
        slot = std::make_unique<TreeVma>();
        slot->start = e.start;
        slot->last = e.last;
        slot->id = e.vma;
        slot->file = e.file;
        slot->tree = e.tree;
        slot->home = e.home;
        slot->owner = e.agent;
        t.insert(slot.get());
    } else {
        auto it = vmas_.find(e.vma);
        if (it == vmas_.end() || it->second->file != e.file || it->second->tree != e.tree)
            return fail("VMA " + std::to_string(e.vma) + " removed from a tree it is not in");
        t.remove(it->second.get());
        vmas_.erase(it);
    }
}

std::size_t LiveState::treeCount(int file) const {
    return file >= 0 && static_cast<std::size_t>(file) < trees_.size()
               ? trees_[static_cast<std::size_t>(file)].size()
               : 0;
}

const itree::IntervalTree* LiveState::tree(int file, int tree) const {
    return tree >= 0 && static_cast<std::size_t>(tree) < treeCount(file)
               ? trees_[static_cast<std::size_t>(file)][static_cast<std::size_t>(tree)].get()
               : nullptr;
}

void LiveState::apply(const sim::SimEvent& e) {
    if (firstTime_ < 0) firstTime_ = e.time;
    const bool lockEvent = e.kind == sim::SimEvent::LockWait ||
                           e.kind == sim::SimEvent::LockAcquire ||
                           e.kind == sim::SimEvent::LockRelease;
    if (lockEvent && (e.lock < 0 || static_cast<std::size_t>(e.lock) >= locks_.size())) {
        if (error_.empty()) error_ = "lock index out of range";
        return;
    }
    switch (e.kind) {
        case sim::SimEvent::LockWait: {
            AgentState& a = agentMut(e.agent);
            a.waiting = e.lock;
            a.waitRead = e.mode == 1;
            locks_[static_cast<std::size_t>(e.lock)].waiting.push_back(
                {e.agent, e.cpu, e.mode == 1});
            break;
        }
        case sim::SimEvent::LockAcquire: {
            AgentState& a = agentMut(e.agent);
            LockQueue& q = locks_[static_cast<std::size_t>(e.lock)];
            if (a.waiting == e.lock) {
                eraseAgent(q.waiting, e.agent);
                a.waiting = -1;
            }
            q.holders.push_back({e.agent, e.cpu, e.mode == 1});
            a.held.emplace_back(e.lock, e.mode == 1);
            break;
        }
        case sim::SimEvent::LockRelease: {
            AgentState& a = agentMut(e.agent);
            eraseAgent(locks_[static_cast<std::size_t>(e.lock)].holders, e.agent);
            auto it = std::find_if(a.held.begin(), a.held.end(),
                                   [&](const auto& h) { return h.first == e.lock; });
            if (it != a.held.end()) a.held.erase(it);
            break;
        }
        case sim::SimEvent::ExecEnd:
            ++execs_;
            recentExecs_.push_back(e.time);
            while (!recentExecs_.empty() && recentExecs_.front() <= e.time - rateWindow_)
                recentExecs_.pop_front();
            break;
        case sim::SimEvent::TreeInsert:
        case sim::SimEvent::TreeRemove:
            treeEvent(e);
            if (e.file == treeFile_ && e.tree == treeIndex_) ++treeChanges_;
            break;
        default:
            break;
    }
}

double LiveState::execsPerSecond(sim::Time now) const {
    if (firstTime_ < 0) return 0;
    const sim::Time span = std::min(rateWindow_, now - firstTime_);
    if (span <= 0) return 0;
    std::size_t n = 0;
    for (auto it = recentExecs_.rbegin(); it != recentExecs_.rend() && *it > now - span; ++it)
        if (*it <= now) ++n;
    return static_cast<double>(n) * 1e9 / static_cast<double>(span);
}

Lane LiveState::laneOfCopy(int copy) const {
    Lane l;
    const auto c = static_cast<std::size_t>(copy);
    if (c < header_.copyCpus.size()) l.cpu = header_.copyCpus[c];
    if (c < header_.copyNodes.size()) l.node = header_.copyNodes[c];
    const AgentState& a = agent(copy);
    if (a.waiting >= 0) {
        l.state = LaneState::Waiting;
        l.lock = a.waiting;
        l.read = a.waitRead;
    } else if (!a.held.empty()) {
        l.state = LaneState::Holding;
        l.lock = a.held.back().first;
        l.read = a.held.back().second;
    }
    return l;
}

void LiveState::chooseTree(const std::string& file, int tree) {
    int f = -1;
    for (std::size_t i = 0; i < header_.files.size(); ++i)
        if (header_.files[i] == file) f = static_cast<int>(i);
    if (f != treeFile_ || tree != treeIndex_) {
        treeFile_ = f;
        treeIndex_ = std::max(0, tree);
        ++treeChanges_;
    }
}

RunSnapshot LiveState::snapshot(sim::Time now, bool withTree) {
    RunSnapshot s;
    s.policy = header_.policy;
    s.execs = execs_;
    s.execsPerSecond = execsPerSecond(now);
    s.locks = locks_;
    s.error = error_;
    // One lane per busy CPU, by node then CPU; the most telling state of its copies wins.
    const auto rank = [](LaneState st) {
        return st == LaneState::Holding ? 2 : st == LaneState::Waiting ? 1 : 0;
    };
    std::vector<Lane> lanes;
    for (unsigned c = 0; c < header_.copies; ++c)
        lanes.push_back(laneOfCopy(static_cast<int>(c)));
    std::stable_sort(lanes.begin(), lanes.end(), [](const Lane& a, const Lane& b) {
        return a.node != b.node ? a.node < b.node : a.cpu < b.cpu;
    });
    for (const Lane& l : lanes) {
        if (!s.lanes.empty() && s.lanes.back().cpu == l.cpu) {
            Lane& m = s.lanes.back();
            ++m.copies;
            if (rank(l.state) > rank(m.state)) {
                const int copies = m.copies;
                m = l;
                m.copies = copies;
            }
            continue;
        }
        s.lanes.push_back(l);
    }
    if (const itree::IntervalTree* t = tree(treeFile_, treeIndex_)) {
        if (withTree && (drawnChanges_ != treeChanges_ || !drawn_)) {
            drawn_ = std::make_shared<const session::DrawTree>(
                session::DrawTree::of(*t, [](const itree::Node* n, session::DrawNode& d) {
                    const auto* v = static_cast<const TreeVma*>(n);
                    d.id = static_cast<int>(v->id);
                    d.homeNode = v->home;
                    d.pid = v->owner;
                }));
            drawnChanges_ = treeChanges_;
        }
        s.tree = drawn_;
        s.treeVmas = t->size();
        s.treeTitle = header_.files[static_cast<std::size_t>(treeFile_)] +
                      (header_.treesPerFile > 1 ? ", tree " + std::to_string(treeIndex_)
                                                : std::string(", the single tree"));
    }
    return s;
}

}  // namespace immap::live
