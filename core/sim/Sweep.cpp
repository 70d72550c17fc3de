#include "sim/Sweep.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <mutex>
#include <sstream>
#include <thread>

namespace immap::sim {

std::vector<SimResult> Sweep::run(const SweepConfig& config,
                                  const std::function<void(std::size_t, std::size_t)>& progress,
                                  const std::atomic<bool>* cancel) {
    struct Job {
        std::size_t slot;
        mapping::Policy policy;
        unsigned copies;
    };
    std::vector<Job> jobs;
    for (const mapping::Policy& p : config.policies)
        for (unsigned c : config.copies)
            jobs.push_back({jobs.size(), p, c});
    // Big runs first, so that the last one to finish is a short one.
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](const Job& a, const Job& b) { return a.copies > b.copies; });

    std::vector<SimResult> results(jobs.size());
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::mutex errorMutex;
    std::exception_ptr error;
    auto worker = [&] {
        for (;;) {
            if (cancel && cancel->load()) return;
            const std::size_t i = next.fetch_add(1);
            if (i >= jobs.size()) return;
            try {
                SimConfig c;
                c.topology = config.topology;
                c.policy = jobs[i].policy;
                c.copies = jobs[i].copies;
                c.durationMs = config.durationMs;
                c.seed = config.seed;
                c.recipe = config.recipe;
                c.walkersPerSecond = config.walkersPerSecond;
                c.params = config.params;
                results[jobs[i].slot] = Simulator(c).run();
            } catch (...) {
                std::lock_guard<std::mutex> lock(errorMutex);
                if (!error) error = std::current_exception();
                return;
            }
            const std::size_t n = done.fetch_add(1) + 1;
            if (progress) progress(n, jobs.size());
        }
    };
    const unsigned threads =
        std::max(1u, std::min<unsigned>(config.threads, static_cast<unsigned>(jobs.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool)
        t.join();
    if (error) std::rethrow_exception(error);
    if (cancel && cancel->load()) return {};
    return results;
}

double Sweep::speedupOverSingle(const std::vector<SimResult>& runs, const SimResult& r) {
    for (const SimResult& s : runs)
        if (s.policy == "single" && s.copies == r.copies)
            return s.execsPerSecond > 0 ? r.execsPerSecond / s.execsPerSecond : 0.0;
    return 0;
}

double Sweep::maxUtilisation(const SimResult& r) {
    double u = 0;
    for (const LockResult& l : r.locks)
        u = std::max(u, l.stats.utilisation);
    return u;
}

std::string Sweep::toJson(const std::vector<SimResult>& runs) {
    QJsonArray arr;
    for (const SimResult& r : runs) {
        QJsonObject o =
            QJsonDocument::fromJson(QByteArray::fromStdString(r.toJson(false))).object();
        o["speedup_vs_single"] = speedupOverSingle(runs, r);
        o["max_lock_utilisation"] = maxUtilisation(r);
        arr.append(o);
    }
    QJsonObject root;
    root["runs"] = arr;
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

std::string Sweep::toCsv(const std::vector<SimResult>& runs) {
    std::ostringstream out;
    out.precision(10);
    out << "policy,copies,execs_per_s,speedup_vs_single,max_lock_utilisation,"
           "walker_latency_mean_ns,walker_latency_p99_ns,memory_per_inode_bytes,seed\n";
    for (const SimResult& r : runs) {
        out << r.policy << ',' << r.copies << ',' << r.execsPerSecond << ','
            << speedupOverSingle(runs, r) << ',' << maxUtilisation(r) << ','
            << r.walkerLatencyMeanNs << ',' << r.walkerLatencyP99Ns << ',' << r.memoryPerInodeBytes
            << ',' << r.seed << '\n';
    }
    return out.str();
}

}  // namespace immap::sim
