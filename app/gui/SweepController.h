#pragma once
// Runs a throughput sweep off the GUI thread (core/sim's Sweep on its own worker threads) and
// reports back on the GUI thread: progress after each run, each point as its runs finish
// (pointDone, in the order they finished), the results at the end, or an error.
// Cancel stops it after the runs in flight. Wiring only: the simulation is core's.

#include <QObject>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "session/SimSettings.h"
#include "sim/ParallelRuns.h"
#include "sim/SimResult.h"
#include "sim/Sweep.h"
#include "topology/Topology.h"

class SweepController : public QObject {
    Q_OBJECT
public:
    explicit SweepController(QObject* parent = nullptr);
    ~SweepController() override;

    // Starts the sweep of `settings` (SimSettings::sweep) on copies of `topology` and of the
    // settings (which keep their recipe alive for the worker); false if one is running.
    bool start(const immap::topology::Topology& topology, immap::session::SimSettings settings,
               unsigned threads = immap::sim::ParallelRuns::defaultThreads());
    void cancel();
    bool running() const { return running_; }
    // Blocks until the current sweep (if any) is over; for tests and --screenshot.
    void wait();

signals:
    void progress(int done, int total);
    // A point so far (Sweep::run's point callback); every one arrives before finished().
    void pointDone(const immap::sim::SweepUpdate& update);
    void finished(const std::vector<immap::sim::SimResult>& runs);
    void failed(const QString& reason);
    void cancelled();

private:
    std::thread worker_;
    std::atomic<bool> cancel_{false};
    bool running_ = false;
};
