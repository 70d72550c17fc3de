#pragma once
// Runs a throughput sweep off the GUI thread (core/sim's Sweep on its own worker threads) and
// reports back on the GUI thread: progress after each run, the results at the end, or an error.
// Cancel stops it after the runs in flight. Wiring only: the simulation is core's.

#include <QObject>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "sim/SimResult.h"
#include "sim/Sweep.h"
#include "topology/Topology.h"

class SweepController : public QObject {
    Q_OBJECT
public:
    explicit SweepController(QObject* parent = nullptr);
    ~SweepController() override;

    // Parses the lists; false with the reason when they are not valid.
    static bool parse(const QString& policies, const QString& copies, immap::sim::SweepConfig& out,
                      QString& error);
    // Starts a sweep on a copy of `topology`; false if one is running.
    bool start(const immap::topology::Topology& topology, immap::sim::SweepConfig config);
    void cancel();
    bool running() const { return running_; }
    // Blocks until the current sweep (if any) is over; for tests and --screenshot.
    void wait();

signals:
    void progress(int done, int total);
    void finished(const std::vector<immap::sim::SimResult>& runs);
    void failed(const QString& reason);
    void cancelled();

private:
    std::thread worker_;
    std::atomic<bool> cancel_{false};
    bool running_ = false;
};
