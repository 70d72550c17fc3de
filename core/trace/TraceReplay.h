#pragma once
// Rebuilds, from a trace's events alone, the trees and the statistics the recorded run
// reported: every tree insert and remove is applied to real itree trees (so tree states match
// the recording node for node), every lock call is replayed into an RwSemModel in the order
// the simulator made it (so lock statistics match exactly), and execs and walks are counted
// with the simulator's own window rules; the cost counters (lock holds, tree operations, nodes
// read per operation) are recounted on the rebuilt trees; each copy's time split follows its
// lock and tree events (a hold's first lock request, its first tree operation, its last release)
// as the simulator's phases do. The trees, the agents' lock states and the contradictions are
// EventInterpreter's; this keeps only the statistics, counted with sim/ResultMath's rules.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "itree/IntervalTree.h"
#include "itree/TouchObserver.h"
#include "sim/MeasureWindow.h"
#include "sim/ResultMath.h"
#include "sim/RwSemModel.h"
#include "sim/SimResult.h"
#include "sim/Simulator.h"
#include "trace/EventInterpreter.h"
#include "trace/TraceHeader.h"

namespace immap::trace {

class TraceReplay final : private EventListener {
public:
    explicit TraceReplay(const TraceHeader& header);
    TraceReplay(const TraceReplay&) = delete;
    TraceReplay& operator=(const TraceReplay&) = delete;

    // False with the reason when the event contradicts what came before (a VMA removed that
    // is not in its tree, a lock released by a non-holder, ...).
    bool apply(const sim::SimEvent& e, std::string& reason);

    // The recorded run's statistics, as far as the trace carries them (see above).
    sim::SimResult result() const;
    // The trace stops early (TraceReader::complete() is false) after its events up to `time`:
    // the statistics window closes there, not at the header's end, so rates are not diluted
    // over time the recording does not cover.
    void endsEarlyAt(std::int64_t time);

    std::uint64_t events() const { return events_; }
    std::size_t treeCount(int file) const { return state_.trees(file).size(); }
    const itree::IntervalTree& tree(int file, int tree) const {
        return *state_.trees(file)[static_cast<std::size_t>(tree)];
    }
    const EventInterpreter& state() const { return state_; }
    std::int64_t now() const { return now_; }
    std::size_t vmaSlots() const { return state_.vmaSlots(); }
    static std::uint32_t vmaIdOf(const itree::Node* n) { return EventInterpreter::vmaIdOf(n); }
    static int homeOf(const itree::Node* n) { return EventInterpreter::homeOf(n); }
    static std::int32_t ownerOf(const itree::Node* n) { return EventInterpreter::ownerOf(n); }

    // Everything a replay knows at this point, to come back to it later (seeking). Holds only
    // the VMAs in trees and bounded statistics, so a checkpoint costs what the trees, copies
    // and locks hold, not what the trace held.
    struct Snapshot;
    std::shared_ptr<const Snapshot> snapshot() const;
    void restore(const Snapshot& s);

private:
    // What each copy's statistics need (walkers and other agents have none).
    struct Copy {
        sim::PhaseClock clock;
        sim::CopyExecs execs;
    };
    Copy* copy(std::int32_t id);
    void beginWaiting(const sim::SimEvent& e);
    void waitBegan(const sim::SimEvent& e) override;
    void waitSlept(const sim::SimEvent& e) override;
    void acquired(const sim::SimEvent& e, bool afterWait) override;
    void released(const sim::SimEvent& e, bool lastHeld) override;
    void treeOpBegins(const sim::SimEvent& e) override;
    void treeChanged(const sim::SimEvent& e) override;
    void execBegan(const sim::SimEvent& e) override;
    void execEnded(const sim::SimEvent& e) override;
    void walkEnded(const sim::SimEvent& e, sim::Time arrival) override;
    void walkGaveUp(const sim::SimEvent& e) override;
    void windowStarted(const sim::SimEvent& e) override;

    TraceHeader header_;
    EventInterpreter state_;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> fileOps_;  // inserts, removes per file
    std::vector<sim::RwSemModel> locks_;
    // Copies below kDenseCopies by index (a header may claim any count; ids past it are not
    // counted, as before).
    std::vector<Copy> copies_;
    static constexpr std::int32_t kDenseCopies = 1 << 16;
    bool inWindow_ = false;
    std::int64_t windowStart_ = 0;
    std::int64_t end_ = 0;
    sim::MeasureWindow window_;  // the simulator's rule for the window's end
    std::int64_t now_ = 0;
    sim::WaitHistogram walkLatencies_;  // bounded: a checkpoint copies its buckets only
    std::uint64_t walksSkipped_ = 0;
    std::uint64_t events_ = 0;
    // The simulator's cost counters: copies' holds and tree operations once execs have begun.
    struct Reads final : itree::TouchObserver {
        std::uint64_t reads = 0;
        bool on = false;
        void read(const itree::Node*) override {
            if (on) ++reads;
        }
        void write(const itree::Node*) override {}
    } reads_;
    bool started_ = false;
    sim::CostCounters costs_;  // reads live in reads_ until result()
    std::string failure_;      // what the lock models refused during the current event
};

}  // namespace immap::trace
