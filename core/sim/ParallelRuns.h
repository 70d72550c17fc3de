#pragma once
// Independent jobs spread over worker threads: the one pool the sweep and the scorecard share.
// Jobs are taken in index order; each runs exactly once unless cancelled.

#include <atomic>
#include <cstddef>
#include <functional>

namespace immap::sim {

class ParallelRuns {
public:
    // Every core this machine has (std::thread::hardware_concurrency, at least 1): the default
    // thread count of every sweep, scorecard and calibration, in the app and the CLI alike.
    static unsigned defaultThreads();

    // Runs job(0) .. job(count - 1) on up to `threads` threads (the caller's among them).
    // `progress(done, count)` is called from the workers after each job. When `cancel` becomes
    // true, jobs not yet started are skipped and false is returned. The first exception a job
    // throws is rethrown here after the workers stop (jobs not yet started are skipped).
    static bool run(std::size_t count, unsigned threads,
                    const std::function<void(std::size_t)>& job,
                    const std::function<void(std::size_t, std::size_t)>& progress = {},
                    const std::atomic<bool>* cancel = nullptr);
};

}  // namespace immap::sim
