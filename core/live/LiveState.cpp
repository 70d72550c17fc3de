#include "live/LiveState.h"

#include "live/EventCaption.h"

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
    // Lenient: a contradiction is reported once (error()) and the view goes on.
    trace::EventListener* self = this;  // a private base: converted here, where it is visible
    state_ = std::make_unique<trace::EventInterpreter>(
        header_, self, trace::EventInterpreter::Options{true, true});
    locks_.clear();
    for (const trace::TraceLock& l : header_.locks)
        locks_.push_back({l.name, l.file, {}, {}});
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

const LiveState::AgentState& LiveState::agent(int id) const {
    static const AgentState none;
    return state_ ? state_->agent(id) : none;
}

void LiveState::eraseAgent(std::vector<QueueEntry>& v, int agent) {
    auto it =
        std::find_if(v.begin(), v.end(), [agent](const QueueEntry& q) { return q.agent == agent; });
    if (it != v.end()) v.erase(it);
}

std::size_t LiveState::treeCount(int file) const {
    return state_ && file >= 0 && static_cast<std::size_t>(file) < state_->fileCount()
               ? state_->trees(file).size()
               : 0;
}

const itree::IntervalTree* LiveState::tree(int file, int tree) const {
    return tree >= 0 && static_cast<std::size_t>(tree) < treeCount(file)
               ? state_->trees(file)[static_cast<std::size_t>(tree)].get()
               : nullptr;
}

void LiveState::apply(const sim::SimEvent& e) {
    if (firstTime_ < 0) firstTime_ = e.time;
    std::string reason;
    if (!state_->apply(e, reason) && error_.empty()) error_ = reason;
    if (capture_)
        stepCaptions_.push_back(
            eventCaption(e, header_,
                         e.lock >= 0 && static_cast<std::size_t>(e.lock) < locks_.size()
                             ? &locks_[static_cast<std::size_t>(e.lock)]
                             : nullptr));
}

void LiveState::captureSteps(bool on) {
    if (on) stepCaptions_.clear();
    capture_ = on;
}

void LiveState::windowStarted(const sim::SimEvent&) {
    windowStarted_ = true;
}

void LiveState::waitBegan(const sim::SimEvent& e) {
    locks_[static_cast<std::size_t>(e.lock)].waiting.push_back({e.agent, e.cpu, e.mode == 1});
}

void LiveState::acquired(const sim::SimEvent& e, bool afterWait) {
    LockQueue& q = locks_[static_cast<std::size_t>(e.lock)];
    if (afterWait) eraseAgent(q.waiting, e.agent);
    q.holders.push_back({e.agent, e.cpu, e.mode == 1});
}

void LiveState::released(const sim::SimEvent& e, bool) {
    eraseAgent(locks_[static_cast<std::size_t>(e.lock)].holders, e.agent);
}

void LiveState::treeChanged(const sim::SimEvent& e) {
    if (e.file == treeFile_ && e.tree == treeIndex_) ++treeChanges_;
}

void LiveState::execEnded(const sim::SimEvent& e) {
    ++execs_;
    recentExecs_.push_back(e.time);
    while (!recentExecs_.empty() && recentExecs_.front() <= e.time - rateWindow_)
        recentExecs_.pop_front();
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
    s.warmingUp = !windowStarted_;
    s.stepped = stepCaptions_;
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
                    d.id = static_cast<int>(trace::EventInterpreter::vmaIdOf(n));
                    d.homeNode = trace::EventInterpreter::homeOf(n);
                    d.pid = trace::EventInterpreter::ownerOf(n);
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
