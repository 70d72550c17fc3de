#pragma once
// The contention simulator (docs/simulator.md): N execl copies placed on a topology's CPUs,
// each looping over the exec recipe; every lock hold runs real insert/remove operations on
// the file's real itree trees, priced by the NUMA distance of every node the update touches;
// locks are RwSemModel rwsems with cache-line handoff, optimistic spinners that keep their CPUs
// and steal from sleepers until the handoff timeout, and sleeping readers; whole-file walkers
// arrive as readers. Deterministic: a seed, no wall clock.
// Steppable (runUntil) so that the GUI can animate it; run() goes to the end.

#include <cstdint>
#include <memory>

#include "mapping/Policy.h"
#include "sim/CostParams.h"
#include "sim/Recipe.h"
#include "sim/SharedLines.h"
#include "sim/SimResult.h"
#include "sim/Time.h"

namespace immap::topology {
class Topology;
}

namespace immap::sim {

class SimObserver;

struct SimConfig {
    const topology::Topology* topology = nullptr;  // required
    mapping::Policy policy;
    unsigned copies = 1;
    // The measured window's floor, after params.warmupMs; it then waits for window_execs and
    // window_total_execs (MeasureWindow).
    double durationMs = 20;
    std::uint64_t seed = 1;
    const Recipe* recipe = nullptr;  // nullptr: Recipe::builtinDefault()
    double walkersPerSecond = 0;     // whole-file walkers on the recipe's walker file
    CostParams params;
    // VMAs of one file unlinked per lock hold when a range is torn down (unlink_file_vma_batch,
    // mm/memory.c free_pgtables; Mateusz Guzik's 2024 batching): 8 since then, 1 before it
    // (one hold per VMA), for comparing the two kernels. From 1 to 64.
    unsigned unlinkBatch = 8;
    // Shared lines beyond the built-in catalogue (SharedLines), each with where it is touched.
    std::vector<ExtraSharedLine> extraSharedLines;
    // Sees every event from the first set-up insert on (see setObserver for later starts).
    SimObserver* observer = nullptr;
};

// The event stream, for traces and animation. Off unless an observer is set.
// Why an agent takes an i_mmap lock, by the kernel call that takes it.
enum class Purpose : std::uint8_t { Unknown, Map, Split, Unlink, Expand, Walk };

struct SimEvent {
    enum Kind : std::uint8_t {
        ExecBegin,
        ExecEnd,
        LockWait,
        LockAcquire,
        LockRelease,
        TreeInsert,
        TreeRemove,
        WalkBegin,
        WalkEnd,
        WalkArrive,   // a whole-file walker asks for its locks
        WindowStart,  // the warm-up is over; statistics start here
        // Imported recordings only: the kernel's lock:contention_begin/_end tracepoints, for a
        // lock known by its address (in `start`), not by name.
        KernelLockWait,
        KernelLockAcquired,
        // A spinning writer gives up (need_resched: another copy waits for its CPU) and sleeps
        // on the lock's wait list.
        LockSleep,
        // A trylock walker (reclaim's folio_referenced) found a lock it needs busy and gave up
        // without waiting; it holds nothing.
        WalkGiveUp,
    };
    Time time = 0;
    Kind kind = ExecBegin;
    std::int32_t agent = 0;  // copy index, or copies + walker slot
    std::int32_t cpu = 0;    // OS index
    std::int32_t lock = -1;  // index into SimResult::locks
    std::int32_t file = -1;
    std::int32_t tree = -1;
    std::int32_t home = -1;  // the VMA's node (tree events)
    std::uint64_t start = 0;
    std::uint64_t last = 0;
    std::uint32_t vma = 0;  // tree events: the VMA's id, unique over the run
    std::uint8_t mode = 0;  // lock wait/acquire: 0 write, 1 read
    bool spin = false;      // lock wait: a writer spinning optimistically (else it sleeps)
    bool inferred = false;  // imported traces: not in the recording, implied by it
    // Lock events of a simulated run: what the hold is for; imported traces do not know it.
    Purpose purpose = Purpose::Unknown;
};
const char* simEventName(SimEvent::Kind k);

// "to map a new VMA (vma_link_file)", "for a split (__split_vma: vma_prepare)", ...; "" for
// Unknown.
const char* purposeText(Purpose p);

class SimObserver {
public:
    virtual ~SimObserver() = default;
    virtual void onEvent(const SimEvent& event) = 0;
};

class Simulator {
public:
    // Throws std::invalid_argument without a topology, limits::LimitError for a config
    // checkConfig refuses.
    explicit Simulator(const SimConfig& config);
    // Throws limits::LimitError, with the reason for the user, for a count, duration or
    // parameter outside its range (limits::InputLimits, CostParams::table()), or a measured
    // window too short to hold one exec per copy, or walkers that would read more VMAs within
    // the run's bound than kMaxWalkVisits. What the constructor checks first.
    static void checkConfig(const SimConfig& config);
    // The most VMA reads the whole-file walkers may make within a run's simulated bound
    // (walkers_per_s x (warmup_max_ms + window) x processes mapping the file).
    static constexpr double kMaxWalkVisits = 1e10;
    // The least simulated time one exec of a copy can take, by what adds to it (checkConfig's
    // floor): unlocked_ns_per_exec, the shared lines' atomics with no transfer, and the lock
    // holds' atomics and fixed costs.
    struct ExecFloor {
        double unlockedNs = 0;
        double linesNs = 0;
        double holdsNs = 0;
        double holds = 0;
    };
    static ExecFloor execFloor(const SimConfig& config);
    ~Simulator();
    Simulator(const Simulator&) = delete;
    Simulator& operator=(const Simulator&) = delete;

    // From now on (set-up already happened: use SimConfig::observer to see it too).
    void setObserver(SimObserver* observer);
    // Names of the locks, in the order SimEvent::lock and SimResult::locks use.
    std::vector<std::string> lockNames() const;
    std::vector<int> lockFiles() const;  // the recipe file each lock guards
    std::size_t treesPerFile() const;    // 1, the node count, or the shard count
    // The files SimEvent::file and SimResult::files number: the recipe's, then one per copy
    // after the first for each per_copy file ("NAME#COPY"; copy 0 keeps the recipe's).
    std::vector<std::string> fileNames() const;

    // Processes every event up to `until` (capped at endTime()). False once the run is over.
    // Throws limits::LimitError when the clock stops (too many events at one instant).
    bool runUntil(Time until);
    SimResult run();
    // For live views that advance one event at a time: the time of the next event to handle
    // (endTime() when nothing is left before the end), handling exactly that one event (false
    // when the run is over), and how many events have been handled so far.
    Time nextEventTime() const;
    bool step();
    std::uint64_t eventsHandled() const;

    Time now() const;
    // When the run ends: the warm-up's end + the duration. The warm-up lasts until every copy
    // has done params.warmupExecs execs, so before that this is a far-off time.
    Time endTime() const;
    // The statistics so far (the window ends at now()).
    SimResult result() const;

    // The CPU each copy runs on (OS indexes), as placeCopies chose.
    const std::vector<unsigned>& copyCpus() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

// Where the kernel's fork balancing puts N copies started together: the idlest group at each
// level, so round robin over NUMA nodes (alternating packages), then over cores, SMT siblings
// last; past the PU count it wraps around. OS indexes.
std::vector<unsigned> placeCopies(const topology::Topology& topo, unsigned copies);

}  // namespace immap::sim
