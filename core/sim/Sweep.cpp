#include "sim/Sweep.h"

#include "limits/InputLimits.h"
#include "limits/LimitError.h"
#include "limits/MemoryBudget.h"
#include "sim/LatinHypercube.h"
#include "sim/ParallelRuns.h"
#include "sim/RunCache.h"
#include "sim/RunCosts.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <mutex>
#include <sstream>

namespace immap::sim {

std::vector<double> SweepConfig::rates() const {
    return walkerRates.empty() ? std::vector<double>{run.walkersPerSecond} : walkerRates;
}

std::size_t SweepConfig::gridSize() const {
    return rates().size() * policies.size() * copies.size();
}

void Sweep::check(const SweepConfig& config) {
    checkGrid(config.rates().size(), config.policies.size(), config.copies.size());
    for (double rate : config.rates())
        for (const mapping::Policy& p : config.policies)
            for (unsigned n : config.copies) {
                SimConfig c = config.run;
                c.walkersPerSecond = rate;
                c.policy = p;
                c.copies = n;
                Simulator::checkConfig(c);
            }
}

namespace {

// A point from its runs (results[first ..], seeds then draws) of which `done` have finished:
// the first seed's run with execsPerSecond the finished seeds' mean, seedRates theirs (with
// more than one seed asked) and bandRates the finished draws'. With every run finished it is
// the point run() returns. `first` is the first seed's run, finished.
SimResult pointOf(SimResult first, const std::vector<SimResult>& results, std::size_t at,
                  const std::vector<bool>& done, unsigned seeds, unsigned bands,
                  std::uint64_t seed) {
    SimResult r = std::move(first);
    if (seeds > 1) {
        double sum = 0;
        unsigned n = 0;
        for (unsigned s = 0; s < seeds; ++s) {
            if (!done[at + s]) continue;
            const double rate = s == 0 ? r.execsPerSecond : results[at + s].execsPerSecond;
            r.seedRates.push_back(rate);
            sum += rate;
            ++n;
            // The point's other fields are the first seed's; a verdict of any seed stays.
            if (r.overload.empty() && s > 0 && !results[at + s].overload.empty())
                r.overload = "seed " + std::to_string(seed + s) + ": " + results[at + s].overload;
        }
        r.execsPerSecond = sum / n;
    }
    for (unsigned d = 0; d < bands; ++d)
        if (done[at + seeds + d]) r.bandRates.push_back(results[at + seeds + d].execsPerSecond);
    return r;
}

}  // namespace

std::string SweepProgress::text() const {
    std::string out = "curves: " + std::to_string(drawn) + "/" + std::to_string(points) + " points";
    if (seedRuns > points)
        out += " \u00b7 seeds: " + std::to_string(seedsDone) + "/" + std::to_string(seedRuns) +
               " runs";
    if (bandRuns > 0)
        out += " \u00b7 bands: " + std::to_string(bandsDone) + "/" + std::to_string(bandRuns) +
               " runs";
    if (seedsDone < seedRuns || bandsDone < bandRuns)
        out += " \u00b7 " + RunCosts::leftText(secondsLeft);
    return out;
}

std::vector<SweepRun> Sweep::runs(const SweepConfig& config) {
    const unsigned seeds = std::max(1u, config.seeds);
    const unsigned perPoint = seeds + config.bands;
    const std::vector<CostParams> draws =
        LatinHypercube::draw(config.run.params, config.bands, config.run.seed);
    std::vector<SweepRun> out;
    std::size_t gridPoint = 0;
    for (double rate : config.rates())
        for (const mapping::Policy& p : config.policies)
            for (unsigned n : config.copies) {
                const bool chosen =
                    !config.points ||
                    std::binary_search(config.points->begin(), config.points->end(), gridPoint);
                ++gridPoint;
                if (!chosen) continue;
                for (unsigned s = 0; s < perPoint; ++s) {
                    SimConfig c = config.run;
                    c.walkersPerSecond = rate;
                    c.policy = p;
                    c.copies = n;
                    c.seed += s;
                    if (s >= seeds) c.params = draws[s - seeds];
                    out.push_back({std::move(c), s});
                }
            }
    return out;
}

std::vector<SimResult> Sweep::run(const SweepConfig& config,
                                  const std::function<void(std::size_t, std::size_t)>& progress,
                                  const std::atomic<bool>* cancel,
                                  const std::function<void(const SweepUpdate&)>& point) {
    const unsigned seeds = std::max(1u, config.seeds);
    const unsigned perPoint = seeds + config.bands;
    // Job i is run i of point i / perPoint: results and the done flags are indexed alike.
    const std::vector<SweepRun> jobs = runs(config);
    std::vector<RunCosts::Run> costs;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const SimConfig& c = jobs[i].config;
        const unsigned s = jobs[i].run;
        // A run's work grows with its copies over the same window; walkers add theirs.
        const double prior = c.copies * c.durationMs * (c.walkersPerSecond > 0 ? 1.1 : 1.0);
        costs.push_back({s == 0 ? 0u : s < seeds ? 1u : 2u, i / perPoint, prior});
    }

    const std::size_t points = jobs.size() / perPoint;
    std::vector<SimResult> results(jobs.size());
    std::vector<bool> done(jobs.size(), false);
    SweepProgress now;
    now.points = points;
    now.seedRuns = points * seeds;
    now.bandRuns = points * config.bands;
    RunCosts order(std::move(costs));
    std::mutex lock;
    // The wall clock orders the runs and estimates the time left; no result depends on it.
    const auto t0 = std::chrono::steady_clock::now();
    const auto clock = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    const bool finished = ParallelRuns::run(
        jobs.size(), config.threads,
        [&](std::size_t) {
            std::size_t i;
            {
                std::lock_guard<std::mutex> hold(lock);
                i = order.take(clock());
            }
            const SimConfig& c = jobs[i].config;
            SimResult r = config.cache
                              ? config.cache->run(c, jobs[i].isDraw(seeds) ? RunCache::Need::Rate
                                                                           : RunCache::Need::Full)
                              : Simulator(c).run();
            std::lock_guard<std::mutex> hold(lock);
            order.finish(i, clock());
            // A draw's run is one number of the band: keep only that.
            if (jobs[i].run >= seeds)
                results[i].execsPerSecond = r.execsPerSecond;
            else
                results[i] = std::move(r);
            done[i] = true;
            if (jobs[i].run == 0) ++now.drawn;
            ++(jobs[i].run < seeds ? now.seedsDone : now.bandsDone);
            const std::size_t at = i - jobs[i].run;
            if (!point || !done[at]) return;
            SweepUpdate u;
            u.index = at / perPoint;
            u.point = pointOf(results[at], results, at, done, seeds, config.bands, config.run.seed);
            for (unsigned s = 0; s < perPoint; ++s)
                (s < seeds ? u.seedsDone : u.drawsDone) += done[at + s] ? 1 : 0;
            u.progress = now;
            u.progress.secondsLeft = order.secondsLeft(clock());
            point(u);
        },
        progress, cancel);
    if (!finished) return {};
    if (perPoint == 1) return results;
    std::vector<SimResult> out;
    for (std::size_t at = 0; at < results.size(); at += perPoint)
        out.push_back(pointOf(std::move(results[at]), results, at, done, seeds, config.bands,
                              config.run.seed));
    return out;
}

namespace {

// The comma-separated items of a list, blanks around each trimmed, empty items skipped.
std::vector<std::string> items(std::string_view text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::string_view item = text.substr(start, comma - start);
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
            item.remove_prefix(1);
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
            item.remove_suffix(1);
        if (!item.empty()) out.emplace_back(item);
        start = comma + 1;
    }
    return out;
}

// A list longer than its InputLimits row: false with the reason.
bool tooLong(const std::vector<std::string>& list, const char* limit, const char* what,
             std::string& error) {
    if (list.empty() ||
        limits::InputLimits::check(limit, static_cast<double>(list.size()), error, what))
        return false;
    error = "it lists " + std::to_string(list.size()) + " entries; " + error;
    return true;
}

}  // namespace

void Sweep::checkGrid(std::size_t rates, std::size_t policies, std::size_t copies) {
    using limits::InputLimits;
    std::string error;
    if (!InputLimits::check("sweep_policies", static_cast<double>(policies), error,
                            "the policy list") ||
        !InputLimits::check("sweep_copies", static_cast<double>(copies), error,
                            "the copy count list"))
        throw limits::LimitError(error);
    // In double: three counts a part may declare must not wrap before they are compared.
    const double points =
        static_cast<double>(rates) * static_cast<double>(policies) * static_cast<double>(copies);
    if (!InputLimits::check("sweep_points", points, error, "the grid"))
        throw limits::LimitError(std::to_string(rates) + " walker rates x " +
                                 std::to_string(policies) + " policies x " +
                                 std::to_string(copies) + " copy counts make " +
                                 limits::MemoryBudget::count(points) + " points; " + error);
}

bool Sweep::parsePolicies(std::string_view text, std::vector<mapping::Policy>& out,
                          std::string& error) {
    out.clear();
    const std::vector<std::string> names = items(text);
    if (tooLong(names, "sweep_policies", "the policy list", error)) return false;
    for (const std::string& name : names) {
        mapping::Policy policy;
        if (!mapping::Policy::parse(name, policy, error)) return false;
        out.push_back(policy);
    }
    if (out.empty()) error = "the policy list is empty";
    return !out.empty();
}

bool Sweep::parseCopies(std::string_view text, std::vector<unsigned>& out, std::string& error) {
    out.clear();
    const std::vector<std::string> counts = items(text);
    if (tooLong(counts, "sweep_copies", "the copy count list", error)) return false;
    for (const std::string& item : counts) {
        unsigned long v = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
        if (ec != std::errc() || end != item.data() + item.size() || v == 0 || v > 100000) {
            error = "'" + item + "' is not a copy count from 1 to 100000";
            return false;
        }
        out.push_back(static_cast<unsigned>(v));
    }
    if (out.empty()) error = "the copy count list is empty";
    return !out.empty();
}

std::vector<unsigned> Sweep::defaultCopies(unsigned pus) {
    std::vector<unsigned> out;
    for (unsigned n = 1; n < pus; n *= 2)
        out.push_back(n);
    out.push_back(std::max(1u, pus));
    return out;
}

double Sweep::maxUtilisation(const SimResult& r) {
    double u = 0;
    for (const LockResult& l : r.locks)
        u = std::max(u, l.stats.utilisation);
    return u;
}

std::vector<SweepRow> Sweep::rows(const std::vector<SimResult>& runs) {
    std::vector<SweepRow> out;
    out.reserve(runs.size());
    for (const SimResult& r : runs)
        out.push_back(SweepRow::of(r));
    return out;
}

std::string Sweep::toJson(const std::vector<SimResult>& runs) {
    return SweepRow::toJson(rows(runs));
}

std::string Sweep::toCsv(const std::vector<SimResult>& runs) {
    return SweepRow::toCsv(rows(runs));
}

}  // namespace immap::sim
