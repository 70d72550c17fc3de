#pragma once
// Runs the live contention simulation (core/live's LiveDriver: two policies in lockstep) on a
// worker thread and publishes immutable snapshots to the GUI thread about 30 times a second,
// by queued signal. Commands (pause, resume, step, slow-down, cancel) are flags the worker reads
// between slices of at most a few microseconds of simulated time, so the GUI thread never
// waits on the simulation, and cancel joins within a frame. Wiring only: the simulation is
// core's.

#include <QObject>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "live/LiveDriver.h"
#include "live/LiveSnapshot.h"
#include "topology/Topology.h"

using LiveSnapshotPtr = std::shared_ptr<const immap::live::LiveSnapshot>;
Q_DECLARE_METATYPE(LiveSnapshotPtr)

class ContentionController : public QObject {
    Q_OBJECT
public:
    explicit ContentionController(QObject* parent = nullptr);
    ~ContentionController() override;

    // Starts a run of `config` on a copy of `topology` (config.topology is ignored); a run in
    // progress is cancelled first. The runs are set up on the worker: a config the simulator
    // refuses is reported by failed(). False with the reason when there is nothing to run.
    // `recipe` is config.run's recipe (null for the built-in one), kept alive for the worker.
    bool start(const immap::topology::Topology& topology,
               std::shared_ptr<const immap::sim::Recipe> recipe, immap::live::LiveConfig config,
               double slowdown, QString& error);
    void pause();
    void resume();
    void togglePause();
    bool paused() const { return paused_; }
    // Pauses, then runs simulator events up to the first that changes what is shown
    // (LiveDriver::stepVisible).
    void step();
    void setSlowdown(double factor);
    // Stops the worker and joins it (within one frame's slice).
    void cancel();
    bool running() const { return running_; }
    LiveSnapshotPtr latest() const { return latest_; }

    static constexpr int kFrameMs = 33;
    static constexpr int kBudgetMs = 25;  // simulation time per frame before publishing

signals:
    void snapshotReady(const LiveSnapshotPtr& snapshot);
    void finished();
    void failed(const QString& reason);

private:
    void publish(LiveSnapshotPtr s);

    std::thread worker_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> paused_{false};
    std::atomic<int> steps_{0};
    std::atomic<double> slowdown_{1000};
    std::atomic<int> inFlight_{0};
    std::atomic<int> generation_{0};  // a new run drops the old run's queued frames  // snapshots
                                      // queued to the GUI thread, not yet delivered
    bool running_ = false;
    LiveSnapshotPtr latest_;
};
