#include "sim/ParallelRuns.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace immap::sim {

unsigned ParallelRuns::defaultThreads() {
    // 0 when the count is not computable: one thread then.
    return std::max(1u, std::thread::hardware_concurrency());
}

bool ParallelRuns::run(std::size_t count, unsigned threads,
                       const std::function<void(std::size_t)>& job,
                       const std::function<void(std::size_t, std::size_t)>& progress,
                       const std::atomic<bool>* cancel) {
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::exception_ptr error;
    auto worker = [&] {
        for (;;) {
            if ((cancel && cancel->load()) || failed.load()) return;
            const std::size_t i = next.fetch_add(1);
            if (i >= count) return;
            try {
                job(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(errorMutex);
                if (!error) error = std::current_exception();
                failed = true;
                return;
            }
            const std::size_t n = done.fetch_add(1) + 1;
            if (progress) progress(n, count);
        }
    };
    const std::size_t most = std::max<std::size_t>(1, std::min<std::size_t>(threads, count));
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < most; ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool)
        t.join();
    if (error) std::rethrow_exception(error);
    return !(cancel && cancel->load());
}

}  // namespace immap::sim
