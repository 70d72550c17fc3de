#pragma once
// Simulator's private state, shared by its source files: Simulator.cpp (the event engine
// and the public API), SimulatorCpu.cpp (what runs on a copy's CPU besides its holds) and
// SimulatorSetUp.cpp (building the initial state, and reading the results off it). Not part of
// core/sim's interface.

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "itree/IntervalQuery.h"
#include "itree/IntervalTree.h"
#include "limits/InputLimits.h"
#include "limits/LimitError.h"
#include "mapping/TreePlacement.h"
#include "sim/AddressSpace.h"
#include "sim/CacheModel.h"
#include "sim/EventQueue.h"
#include "sim/FileTree.h"
#include "sim/MeasureWindow.h"
#include "sim/Pricer.h"
#include "sim/Random.h"
#include "sim/ResultMath.h"
#include "sim/RwSemModel.h"
#include "sim/SharedLines.h"
#include "topology/Topology.h"

#include "sim/Simulator.h"

namespace immap::sim {

namespace detail {

using Mode = RwSemModel::Mode;
using Kind = mapping::Policy::Kind;

enum EventKind : std::uint32_t {
    kExecStart,
    kWorkDone,
    kAcquireDone,
    kCriticalDone,
    kRelease,
    kWalkerArrive,
    kWindowStart,
    kSliceEnd,     // a spinner's slice ends: it stops if it still spins (payload: its turn)
    kLineDone,     // a copy's touch of a shared line (or its wait for its CPU) is over
    kWarmupLimit,  // warmup_max_ms: a warm-up still running has no steady state to reach
};

using Phase = PhaseClock::Phase;

struct Lock {
    RwSemModel sem;
    std::string name;
    int file = -1;
    // The lock word's cache line: touches are served one at a time (a line is in one place),
    // each paying the transfer from whoever touched it last.
    Time lineFree = 0;
    int lastCpu = -1;
    int lastNode = 0;
    std::uint64_t windowTransfers = 0;  // transfers of that line since the window opened
    // Whole-file walks that held it, and for how long in all (from their last grant to this
    // lock's release): the walkers' demand on it is walkers_per_s x the mean.
    double walkerHeldNs = 0;
    std::uint64_t walkerHolds = 0;
    // Writers optimistically spinning on it are the sem's OSQ, in arrival order (an MCS queue):
    // only its head spins on the lock's own line (owner, count); the others spin on their own
    // per-CPU nodes and put nothing on it (osq_lock, kernel/locking/osq_lock.c).
};

// A CPU with a copy optimistically spinning on it. The spin runs with preemption off
// (rwsem_optimistic_spin), so the CPU runs nothing else until the spinner gets the lock or
// gives up at need_resched.
struct CpuSpin {
    std::int64_t agent = -1;  // the spinner, or -1
    int lock = -1;
    Time since = 0;          // when it began spinning: its slices count from here
    std::uint64_t turn = 0;  // numbers the spins, so that a slice end for an older one is ignored
    std::vector<std::uint32_t> queued;  // copies whose unlocked work waits for the CPU, in order
};

struct FileState {
    std::string name;
    std::vector<std::unique_ptr<FileTree>> trees;  // the policy's structure
    std::vector<int> treeLock;                     // the lock guarding each tree
    int topLock = -1;                              // sharded: the top-level rwsem
    std::uint64_t inserts = 0;
    std::uint64_t removes = 0;
    std::uint64_t pages = 1;  // file size in pages (for walkers)
    int recipeFile = -1;      // the recipe's file it is (several for a per_copy file)
    // no-rmap and marked rmap_exclude: its VMAs are kept here, in no i_mmap tree, under no
    // lock; walkers never see them.
    std::unique_ptr<itree::IntervalTree> unlinked;
};

struct LockReq {
    int lock;
    Mode mode;
};

struct Agent {
    bool copy = true;
    bool active = false;  // walkers: slot in use
    unsigned cpu = 0;
    int node = 0;
    // Acquisition in progress.
    std::vector<LockReq> locks;
    std::size_t next = 0;
    bool spinning = false;
    // Copies.
    std::unique_ptr<AddressSpace> as;
    Plan plan;
    std::size_t pc = 0;
    std::size_t lineNext = 0;  // a Lines action: the next touch
    Time execStart = 0;
    std::uint64_t execsDone = 0;
    CopyExecs execs;  // in the window
    PhaseClock clock;
    // Walkers.
    Time arrival = 0;
    std::uint64_t page = 0;
    Time heldSince = 0;  // when its last lock was granted
};

inline Time toTime(double ns) {
    return static_cast<Time>(std::llround(ns));
}

}  // namespace detail

using namespace detail;

struct Simulator::Impl {
    SimConfig cfg;
    const Recipe* recipe;
    const topology::Topology& topo;
    mapping::TreePlacement placement;  // how many trees a file has, and which a VMA joins
    std::vector<unsigned> puOrder;     // OS indexes in logical order
    std::vector<std::vector<double>> memCost;
    std::vector<unsigned> copyCpu;
    std::vector<Time> cpuFree;               // by position in puOrder
    std::vector<CpuSpin> cpuSpin;            // by position in puOrder
    std::vector<int> puPos;                  // OS index -> position
    std::vector<std::vector<int>> siblings;  // by position: the other PUs of its core

    std::vector<FileState> files;
    std::vector<std::unique_ptr<Lock>> locks;
    std::vector<Agent> agents;  // copies first, then walker slots
    std::vector<std::size_t> freeWalkers;
    std::vector<std::unique_ptr<AddressSpace>> background;
    BatchRule batch;

    EventQueue queue;
    Rng rng;
    Pricer pricer;
    std::unique_ptr<CacheModel> cache;    // the tree nodes' lines (the lock words keep their own)
    std::unique_ptr<SharedLines> shared;  // the lines an exec shares besides i_mmap
    std::uint64_t lockLineTransfers = 0;  // touches of a lock word last touched by another CPU
    SimObserver* observer = nullptr;
    Time warmup = 0;
    Time end = std::numeric_limits<Time>::max() / 2;  // set when the window starts
    unsigned warmCopies = 0;                          // copies that have done their warm-up execs
    Time windowStart = 0;
    bool inWindow = false;
    MeasureWindow window;  // fixes `end` once the window has enough execs of every copy
    std::string overload;  // SimResult::overload: why the run has no steady state, or empty
    double unlockedScale = 0;
    // The guard against a clock that stopped (handle()): the instant of the last event and
    // how many events it has seen.
    static constexpr std::size_t kEventsPerInstant = 1'000'000;
    Time instant = -1;
    std::size_t atInstant = 0;

    std::uint64_t holds = 0, treeOps = 0;
    // Walkers that take a lock exclusively (sharded's top lock): how long they held it, in all.
    double walkerHeldNs = 0;
    std::uint64_t walkerHolds = 0;
    std::uint64_t walksSkipped = 0;  // trylock walkers that gave up, in the window
    std::uint64_t walkVmasFound = 0, walksStarted = 0;  // in the window
    std::uint32_t nextVmaId = 1;
    WaitHistogram walkLatencies;  // bounded: memory does not grow with the run

    explicit Impl(const SimConfig& c)
        : cfg(c),
          recipe(c.recipe ? c.recipe : &Recipe::builtinDefault()),
          topo(*c.topology),
          placement(c.policy, *c.topology),
          rng(c.seed),
          observer(c.observer) {}

    unsigned nodeCount() const { return static_cast<unsigned>(topo.nodeCount()); }
    int nodeOfCpu(unsigned os) const { return std::max(0, topo.nodeOfPu(os)); }

    void emit(SimEvent::Kind k, Time t, std::int64_t agent, int lock = -1,
              const SimVma* v = nullptr, Mode mode = Mode::Write, bool spin = false) {
        if (!observer) return;
        SimEvent e;
        e.time = t;
        e.kind = k;
        e.agent = static_cast<std::int32_t>(agent);
        e.cpu = agent >= 0 ? static_cast<std::int32_t>(agents[static_cast<std::size_t>(agent)].cpu)
                           : -1;
        e.lock = lock;
        e.mode = mode == Mode::Read ? 1 : 0;
        e.spin = spin;
        if (lock >= 0) e.file = locks[static_cast<std::size_t>(lock)]->file;
        if (lock >= 0 && agent >= 0) e.purpose = purposeOf(agents[static_cast<std::size_t>(agent)]);
        if (v) {
            e.file = v->file;
            e.tree = v->tree;
            e.home = v->home;
            e.start = v->start;
            e.last = v->last;
            e.vma = v->id;
        }
        observer->onEvent(e);
    }

    // What the agent's lock is for: its current hold's kind, or a walk.
    static Purpose purposeOf(const Agent& a) {
        if (!a.copy) return Purpose::Walk;
        if (a.pc >= a.plan.actions.size() || a.plan.actions[a.pc].kind != Action::Locked)
            return Purpose::Unknown;
        switch (a.plan.holds[a.plan.actions[a.pc].index].kind) {
            case Hold::Map:
                return Purpose::Map;
            case Hold::Split:
                return Purpose::Split;
            case Hold::Unlink:
                return Purpose::Unlink;
            case Hold::Expand:
                return Purpose::Expand;
        }
        return Purpose::Unknown;
    }

    // --- set-up ---------------------------------------------------------------------------
    void setUp();
    int treeFor(int file, unsigned cpu, int node) const;
    std::vector<std::int32_t> treesFor(unsigned cpu, int node) const;
    void executeNow(Agent* owner, AddressSpace& as, Plan& plan);
    void applyOp(const TreeOp& op, FileState& f, FileTree& tree, AddressSpace& as, Time t,
                 std::int64_t agent);

    // --- the engine -----------------------------------------------------------------------
    void setPhase(Agent& a, Phase p, Time t);
    void startExec(std::size_t id, Time t);
    void nextAction(std::size_t id, Time t);
    void startWork(std::size_t id, Time t);
    void touchLines(std::size_t id, Time t);
    bool unlinkedHold(const Agent& a) const;
    bool siblingBusy(int pos, Time t) const;
    CpuSpin& spinOf(const Agent& a) { return cpuSpin[static_cast<std::size_t>(puPos[a.cpu])]; }
    bool maySpin(const Agent& a, Time t);
    void spinEnded(const Agent& a, Time t);
    void sliceEnd(std::size_t id, std::uint64_t turn, Time t);
    void beginLocked(std::size_t id, Time t);
    void acquireNext(std::size_t id, Time t);
    Time touchLine(Lock& l, const Agent& a, Time t, int atomics = 1);
    void enterCritical(std::size_t id, Time t);
    void criticalDone(std::size_t id, Time t);
    void release(std::size_t id, int lock, Time t);
    void granted(std::size_t id, Time at);
    void afterRelease(std::size_t id, Time t);
    void walkerArrive(Time t);
    void scheduleWalker(Time after);
    bool walkersOverload() const;
    std::string walkerDemand(const Lock& l) const;
    void warmupLimit(Time t);
    void handle(const Event& e);
    void startWindow(Time t);
    SimResult result(Time at) const;
};

}  // namespace immap::sim
