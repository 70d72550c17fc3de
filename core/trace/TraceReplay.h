#pragma once
// Rebuilds, from a trace's events alone, the trees and the statistics the recorded run
// reported: every tree insert and remove is applied to real itree trees (so tree states match
// the recording node for node), every lock call is replayed into an RwSemModel in the order
// the simulator made it (so lock statistics match exactly), and execs and walks are counted
// with the simulator's own window rules; the cost counters (lock holds, tree operations, nodes
// read per operation) are recounted on the rebuilt trees; each copy's time split follows its
// lock and tree events (a hold's first lock request, its first tree operation, its last release)
// as the simulator's phases do.

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "itree/IntervalTree.h"
#include "itree/TouchObserver.h"
#include "sim/ResultMath.h"
#include "sim/RwSemModel.h"
#include "sim/SimResult.h"
#include "sim/Simulator.h"
#include "trace/TraceHeader.h"

namespace immap::trace {

class TraceReplay {
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
    std::size_t treeCount(int file) const {
        return files_[static_cast<std::size_t>(file)].trees.size();
    }
    const itree::IntervalTree& tree(int file, int tree) const {
        return *files_[static_cast<std::size_t>(file)].trees[static_cast<std::size_t>(tree)];
    }
    std::int64_t now() const { return now_; }
    // VMA slots allocated: at most the most VMAs in trees at once, whatever the ids.
    std::size_t vmaSlots() const { return vmas_.size(); }
    // What a tree node of this replay is: its VMA id, home node and the agent that mapped it.
    static std::uint32_t vmaIdOf(const itree::Node* n) { return static_cast<const Vma*>(n)->id; }
    static int homeOf(const itree::Node* n) { return static_cast<const Vma*>(n)->home; }
    static std::int32_t ownerOf(const itree::Node* n) { return static_cast<const Vma*>(n)->owner; }

    // Everything a replay knows at this point, to come back to it later (seeking). Holds only
    // the VMAs in trees and bounded statistics, so a checkpoint costs what the trees, copies
    // and locks hold, not what the trace held.
    struct Snapshot;
    std::shared_ptr<const Snapshot> snapshot() const;
    void restore(const Snapshot& s);

private:
    struct Vma : itree::Node {
        std::uint32_t id = 0;
        int file = -1;
        int tree = -1;
        int home = 0;
        std::int32_t owner = -1;
        bool inTree = false;
    };
    struct File {
        std::vector<std::unique_ptr<itree::IntervalTree>> trees;
        std::uint64_t inserts = 0;
        std::uint64_t removes = 0;
    };
    struct Agent {
        int waitingOn = -1;
        int held = 0;  // locks held
        sim::PhaseClock clock;
        std::uint64_t execsInWindow = 0;
        std::int64_t firstExecEnd = -1;
        std::int64_t lastExecEnd = -1;
        std::int64_t arrival = 0;
    };
    // The VMA in a tree under this id, or null.
    Vma* liveVma(std::uint32_t id);
    Vma& addVma(std::uint32_t id);
    void dropVma(std::uint32_t id);
    Agent& agent(std::int32_t id);
    void beginWaiting(const sim::SimEvent& e);

    TraceHeader header_;
    std::vector<File> files_;
    // Slots for the VMAs in trees: ids (any 32-bit value a trace gives) map to slots, and a
    // removed VMA's slot is reused, so memory follows the trees, not the ids or the run.
    std::deque<Vma> vmas_;  // a deque never moves what the trees link to
    std::unordered_map<std::uint32_t, std::uint32_t> slotOf_;
    std::vector<std::uint32_t> freeSlots_;
    std::vector<sim::RwSemModel> locks_;
    // Copies (ids below the header's count, up to kDenseAgents) by index; the rest (walkers,
    // pids) hashed, so that a large id costs one entry, not every id below it.
    std::vector<Agent> agentsByIndex_;
    std::unordered_map<std::int32_t, Agent> agents_;
    static constexpr std::int32_t kDenseAgents = 1 << 16;
    bool inWindow_ = false;
    std::int64_t windowStart_ = 0;
    std::int64_t end_ = 0;
    std::int64_t now_ = 0;
    sim::WaitHistogram walkLatencies_;  // bounded: a checkpoint copies its buckets only
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
    std::uint64_t holds_ = 0;
    std::uint64_t treeOps_ = 0;
};

}  // namespace immap::trace
