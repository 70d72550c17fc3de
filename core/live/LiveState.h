#pragma once
// The live state of one run, fed event by event (a SimObserver): each copy working, waiting
// (for which lock, read or write) or holding (which lock); each lock's holders and its queue in
// arrival order; execs completed and a running execs/s over a sliding window of simulated time;
// and every file's trees, rebuilt from the same insert and remove events (so they are the
// simulator's trees node for node). The trees and the agents' states are a lenient
// trace::EventInterpreter's (only VMAs in trees are kept: a live run may go on for hours); this
// keeps what the tab shows besides: lock queues, exec counts and rates, the tree drawing.
// Events that come before begin() (the simulator's set-up, emitted while it is being built)
// wait in memory until then.

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "itree/IntervalTree.h"

#include "live/LiveSnapshot.h"
#include "sim/Simulator.h"
#include "trace/EventInterpreter.h"
#include "trace/EventListener.h"
#include "trace/TraceHeader.h"

namespace immap::live {

class LiveState final : public sim::SimObserver, private trace::EventListener {
public:
    // rateWindow: the span of simulated time the running execs/s is taken over.
    explicit LiveState(sim::Time rateWindow = 10'000'000);
    LiveState(const trace::TraceHeader& header, sim::Time rateWindow = 10'000'000);
    ~LiveState() override;
    LiveState(const LiveState&) = delete;
    LiveState& operator=(const LiveState&) = delete;

    // Names the copies' CPUs and nodes, the locks and files; applies what was buffered.
    void begin(const trace::TraceHeader& header);
    void onEvent(const sim::SimEvent& e) override;

    // While on, every applied event is put in words (stepCaptions()); the driver turns it on
    // around a single step. Turning it on clears the last step's captions.
    void captureSteps(bool on);
    void clearStepCaptions() { stepCaptions_.clear(); }
    const std::vector<std::string>& stepCaptions() const { return stepCaptions_; }
    bool warmingUp() const { return !windowStarted_; }

    // Which tree snapshot() draws: a file by name (none when absent) and a tree slot.
    void chooseTree(const std::string& file, int tree);
    // The state at simulated time `now` (which sets the rate window's end). withTree: draw the
    // chosen tree again if it changed since the last snapshot (else the last drawing is reused).
    RunSnapshot snapshot(sim::Time now, bool withTree);

    // Queries, for tests and the snapshot.
    using AgentState = trace::EventInterpreter::Agent;
    const AgentState& agent(int id) const;
    const LockQueue& lock(int index) const { return locks_.at(static_cast<std::size_t>(index)); }
    std::size_t lockCount() const { return locks_.size(); }
    Lane laneOfCopy(int copy) const;
    std::uint64_t execs() const { return execs_; }
    double execsPerSecond(sim::Time now) const;
    std::size_t treeCount(int file) const;
    const itree::IntervalTree* tree(int file, int tree) const;
    std::size_t liveVmas() const { return state_ ? state_->liveVmas() : 0; }
    const trace::TraceHeader& header() const { return header_; }
    const std::string& error() const { return error_; }

private:
    void apply(const sim::SimEvent& e);
    static void eraseAgent(std::vector<QueueEntry>& v, int agent);
    void waitBegan(const sim::SimEvent& e) override;
    void acquired(const sim::SimEvent& e, bool afterWait) override;
    void released(const sim::SimEvent& e, bool lastHeld) override;
    void treeChanged(const sim::SimEvent& e) override;
    void execEnded(const sim::SimEvent& e) override;
    void windowStarted(const sim::SimEvent& e) override;

    trace::TraceHeader header_;
    bool begun_ = false;
    std::vector<sim::SimEvent> pending_;
    std::unique_ptr<trace::EventInterpreter> state_;  // from begin() on
    std::vector<LockQueue> locks_;
    sim::Time rateWindow_;
    sim::Time firstTime_ = -1;
    std::deque<sim::Time> recentExecs_;
    std::uint64_t execs_ = 0;
    int treeFile_ = -1;
    int treeIndex_ = 0;
    std::uint64_t treeChanges_ = 0;
    std::uint64_t drawnChanges_ = ~std::uint64_t{0};
    std::shared_ptr<const session::DrawTree> drawn_;
    std::string error_;
    bool capture_ = false;
    std::vector<std::string> stepCaptions_;
    bool windowStarted_ = false;
};

}  // namespace immap::live
