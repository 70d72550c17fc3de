#pragma once
// Drives live simulation runs for the contention view: two (or more) runs of the same seed,
// recipe, copies and parameters under different policies advance in lockstep on one simulated
// clock, by wall-clock time divided by a slow-down (1x = real time, up to 1,000,000x slower),
// with pause, resume, a single step (the next event of whichever run has the earliest one) and
// cancel. Headless and single-threaded: the app calls it from its worker thread; cancel() may
// be called from any thread.

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "live/LiveSnapshot.h"
#include "live/LiveState.h"
#include "mapping/Policy.h"
#include "sim/CostParams.h"
#include "sim/Recipe.h"
#include "sim/Simulator.h"

namespace immap::topology {
class Topology;
}

namespace immap::live {

struct LiveConfig {
    // A live run is watched, not measured: it goes on for a minute after the warm-up.
    static constexpr double kLiveDurationMs = 60'000;
    // Every run's configuration (its topology and recipe must outlive the driver); each run
    // sets its own policy.
    sim::SimConfig run = [] {
        sim::SimConfig c;
        c.durationMs = kLiveDurationMs;
        return c;
    }();
    std::vector<mapping::Policy> policies;  // one run each (the view shows two)
    sim::Time rateWindow = 10'000'000;      // the running execs/s: over the last 10 ms simulated
    std::string file = "libc.so.6";         // whose tree the snapshot draws
    int tree = 0;
};

class LiveDriver {
public:
    static constexpr double kMinSlowdown = 1;
    static constexpr double kMaxSlowdown = 1e6;

    // Throws std::invalid_argument for an unusable config (as the Simulator does).
    explicit LiveDriver(const LiveConfig& config);
    ~LiveDriver();

    void setSlowdown(double factor);  // clamped to [1, 1e6]
    double slowdown() const { return slowdown_; }
    void pause() { paused_ = true; }
    void resume() { paused_ = false; }
    bool paused() const { return paused_; }
    void cancel() { cancelled_ = true; }
    bool cancelled() const { return cancelled_; }
    void chooseTree(const std::string& file, int tree);

    // Advances the shared clock by wallSeconds / slowdown of simulated time; nothing while
    // paused or cancelled. keepGoing (optional) is asked between small slices, so a caller
    // with a frame budget can stop early: the clock then stops where the slice did.
    // Returns the simulated time advanced.
    sim::Time tick(double wallSeconds, const std::function<bool()>& keepGoing = {});
    sim::Time advanceTo(sim::Time target, const std::function<bool()>& keepGoing = {});
    // Exactly one simulator event, of the run whose next event comes first (the first run on
    // a tie); the clock moves to its time. Works while paused. False when every run is over.
    bool step();
    // Steps until an event shows (some run's state emits a SimEvent: the step captions are
    // then non-empty), so that a presenter's step never looks like nothing happened: the
    // simulator's own bookkeeping events (a lock word arriving, unlocked work ending) are
    // run through. At most maxEvents; false when every run is over.
    bool stepVisible(int maxEvents = 100000);

    sim::Time now() const { return now_; }
    bool finished() const;
    std::size_t runCount() const { return runs_.size(); }
    const sim::Simulator& simulator(std::size_t i) const { return *runs_[i]->sim; }
    LiveState& state(std::size_t i) { return *runs_[i]->state; }
    std::uint64_t eventsHandled() const;
    // The state of every run now; withTrees: redraw the chosen trees that changed.
    LiveSnapshot snapshot(bool withTrees);

private:
    struct Run {
        std::unique_ptr<LiveState> state;
        std::unique_ptr<sim::Simulator> sim;
    };
    LiveConfig config_;
    std::vector<std::unique_ptr<Run>> runs_;
    double slowdown_ = 1000;
    double carry_ = 0;  // simulated ns below one, kept for the next tick
    sim::Time now_ = 0;
    std::atomic<bool> paused_{false};
    std::atomic<bool> cancelled_{false};
    std::uint64_t serial_ = 0;
};

}  // namespace immap::live
