#pragma once
// What the contention view shows at one moment: immutable once built, so a worker thread can
// hand it to the GUI thread whole (docs/architecture.md, "Live contention").

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "session/DrawTree.h"
#include "sim/Time.h"

namespace immap::live {

enum class LaneState : std::uint8_t { Working, Waiting, Holding };

// One busy CPU. With several copies on one CPU the most telling state wins: holding, then
// waiting, then working.
struct Lane {
    unsigned cpu = 0;  // OS index
    int node = 0;
    LaneState state = LaneState::Working;
    int lock = -1;      // waiting for or holding (the last acquired); -1 when working
    bool read = false;  // the mode of that request
    int copies = 1;     // copies placed on this CPU
};

struct QueueEntry {
    std::int32_t agent = 0;  // copy index, or copies + walker slot
    std::int32_t cpu = -1;
    bool read = false;
};

struct LockQueue {
    std::string name;
    int file = -1;
    std::vector<QueueEntry> holders;
    std::vector<QueueEntry> waiting;  // in arrival order
};

struct RunSnapshot {
    std::string policy;
    sim::Time now = 0;  // the run's own clock (its last handled event)
    bool finished = false;
    std::vector<Lane> lanes;  // by node, then CPU
    std::vector<LockQueue> locks;
    std::uint64_t execs = 0;    // completed since the start
    double execsPerSecond = 0;  // over the sliding window of simulated time
    std::uint64_t events = 0;   // simulator events handled
    // Before the simulator's measured window (its warm-up): the running execs/s is not the
    // run's steady rate yet.
    bool warmingUp = true;
    // What the last single step of this run did, one caption per event (EventCaption); empty
    // when another run stepped or the clock has moved on since.
    std::vector<std::string> stepped;
    std::shared_ptr<const session::DrawTree> tree;  // the chosen file's chosen tree
    std::string treeTitle;
    std::size_t treeVmas = 0;
    std::string error;  // the first event the state could not apply (never expected)
};

struct LiveSnapshot {
    sim::Time now = 0;             // the shared simulated clock
    double slowdown = 1;           // asked for
    double effectiveSlowdown = 0;  // achieved (wall / simulated), when the caller measures it
    bool paused = false;
    bool finished = false;
    bool cancelled = false;
    std::uint64_t serial = 0;
    std::vector<RunSnapshot> runs;
};

const char* laneStateName(LaneState s);

}  // namespace immap::live
