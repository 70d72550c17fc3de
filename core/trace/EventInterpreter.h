#pragma once
// The one reading of a simulator event stream, shared by trace replay, the live contention
// state and the timeline (docs/architecture.md, "Traces: record and replay"): it keeps the
// trees of every file (real itree trees, so they match the simulator's node for node), each
// agent's lock state (the lock it waits for and in which mode, the locks it holds in
// acquisition order, a walker's arrival), and says which events contradict what came before.
// Each applied transition goes to an EventListener, so consumers keep only what they show.
//
// Limits, whatever the stream: only VMAs in trees are kept and any 32-bit id costs one slot (a
// removed VMA's slot is reused), so memory follows the trees, not the ids or the run's length;
// copies are kept by index, other agents (walkers, pids) hashed, so a large id costs one entry.

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "itree/IntervalTree.h"
#include "itree/TouchObserver.h"
#include "sim/Simulator.h"
#include "trace/EventListener.h"
#include "trace/TraceHeader.h"

namespace immap::trace {

class EventInterpreter {
public:
    struct Options {
        // Off: tree events are only reported (the timeline draws them as points), not applied.
        bool trees = true;
        // A contradiction still returns false with its reason, but the event is then applied as
        // far as it can be and reported (a live view or an imported recording goes on); else
        // nothing of it is applied.
        bool lenient = false;
    };
    EventInterpreter(const TraceHeader& header, EventListener* listener, Options options);
    EventInterpreter(const EventInterpreter&) = delete;
    EventInterpreter& operator=(const EventInterpreter&) = delete;

    // False with the reason when the event contradicts what came before (a VMA removed that is
    // not in its tree, a lock released by a non-holder, a walk ending before it arrived, ...).
    bool apply(const sim::SimEvent& e, std::string& reason);

    struct Agent {
        int waiting = -1;  // lock index
        bool waitRead = false;
        std::vector<std::pair<int, bool>> held;  // (lock, read) in acquisition order
        sim::Time arrival = 0;                   // a walker's last WalkArrive
    };
    const Agent& agent(std::int32_t id) const;
    // Whether the agent is one of the header's copies (the rest are walkers or other tasks).
    bool isCopy(std::int32_t id) const {
        return id >= 0 && static_cast<unsigned>(id) < header_.copies;
    }

    std::size_t fileCount() const { return trees_.size(); }
    const std::vector<std::unique_ptr<itree::IntervalTree>>& trees(int file) const {
        return trees_[static_cast<std::size_t>(file)];
    }
    // Sees every node read and write of every tree, those grown later included.
    void setTouchObserver(itree::TouchObserver* observer);
    std::size_t liveVmas() const { return slotOf_.size(); }
    // Slots allocated: at most the most VMAs in trees at once, whatever the ids.
    std::size_t vmaSlots() const { return vmas_.size(); }
    // What a tree node is: its VMA id, home node and the agent that inserted it.
    static std::uint32_t vmaIdOf(const itree::Node* n) { return static_cast<const Vma*>(n)->id; }
    static int homeOf(const itree::Node* n) { return static_cast<const Vma*>(n)->home; }
    static std::int32_t ownerOf(const itree::Node* n) { return static_cast<const Vma*>(n)->owner; }

    // The trees and agents, to come back to later (seeking): the VMAs in trees and their links.
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
    };
    // What a VMA in a tree is, apart from its links: what an insert gives and a snapshot keeps.
    struct VmaRecord {
        std::uint32_t id;
        itree::Index start, last;
        int file, tree, home;
        std::int32_t owner;
    };
    Vma* liveVma(std::uint32_t id);
    // The VMA gets a free slot (or a new one); false if the id is already in a tree.
    Vma* addVma(const VmaRecord& r);
    Agent& agentMut(std::int32_t id);
    bool treeEvent(const sim::SimEvent& e, std::string& reason);
    bool lockEvent(const sim::SimEvent& e, std::string& reason);
    std::string lockName(int lock) const;

    TraceHeader header_;
    EventListener* listener_;
    EventListener none_;  // when there is no listener
    Options options_;
    itree::TouchObserver* touch_ = nullptr;
    std::vector<std::vector<std::unique_ptr<itree::IntervalTree>>> trees_;  // [file][tree]
    std::deque<Vma> vmas_;  // a deque never moves what the trees link to
    std::unordered_map<std::uint32_t, std::uint32_t> slotOf_;
    std::vector<std::uint32_t> freeSlots_;
    std::vector<Agent> copies_;  // by index, up to kDenseAgents
    std::unordered_map<std::int32_t, Agent> others_;
    static constexpr std::int32_t kDenseAgents = 1 << 16;
};

}  // namespace immap::trace
