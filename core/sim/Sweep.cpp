#include "sim/Sweep.h"

#include "limits/InputLimits.h"
#include "limits/LimitError.h"
#include "limits/MemoryBudget.h"
#include "sim/LatinHypercube.h"
#include "sim/ParallelRuns.h"
#include "sim/RunCache.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cctype>
#include <charconv>
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

std::vector<SimResult> Sweep::run(const SweepConfig& config,
                                  const std::function<void(std::size_t, std::size_t)>& progress,
                                  const std::atomic<bool>* cancel) {
    struct Job {
        std::size_t slot;
        double walkersPerSecond;
        mapping::Policy policy;
        unsigned copies;
        unsigned seed;  // 0 .. seeds + bands - 1: the draws come after the seeds
    };
    const unsigned seeds = std::max(1u, config.seeds);
    const unsigned perPoint = seeds + config.bands;
    const std::vector<CostParams> draws =
        LatinHypercube::draw(config.run.params, config.bands, config.run.seed);
    std::vector<Job> jobs;
    std::size_t point = 0;
    for (double rate : config.rates())
        for (const mapping::Policy& p : config.policies)
            for (unsigned c : config.copies) {
                const bool chosen =
                    !config.points ||
                    std::binary_search(config.points->begin(), config.points->end(), point);
                ++point;
                if (!chosen) continue;
                for (unsigned s = 0; s < perPoint; ++s)
                    jobs.push_back({jobs.size(), rate, p, c, s});
            }
    // Big runs first, so that the last one to finish is a short one.
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](const Job& a, const Job& b) { return a.copies > b.copies; });

    std::vector<SimResult> results(jobs.size());
    const bool finished = ParallelRuns::run(
        jobs.size(), config.threads,
        [&](std::size_t i) {
            SimConfig c = config.run;
            c.walkersPerSecond = jobs[i].walkersPerSecond;
            c.policy = jobs[i].policy;
            c.copies = jobs[i].copies;
            c.seed += jobs[i].seed;
            if (jobs[i].seed >= seeds) c.params = draws[jobs[i].seed - seeds];
            SimResult r = config.cache
                              ? config.cache->run(c, jobs[i].seed >= seeds ? RunCache::Need::Rate
                                                                           : RunCache::Need::Full)
                              : Simulator(c).run();
            // A draw's run is one number of the band: keep only that.
            if (jobs[i].seed >= seeds) {
                results[jobs[i].slot].execsPerSecond = r.execsPerSecond;
                return;
            }
            results[jobs[i].slot] = std::move(r);
        },
        progress, cancel);
    if (!finished) return {};
    if (perPoint == 1) return results;
    std::vector<SimResult> points;
    for (std::size_t first = 0; first < results.size(); first += perPoint) {
        SimResult r = std::move(results[first]);
        if (seeds > 1) {
            double sum = 0;
            for (unsigned s = 0; s < seeds; ++s) {
                const double rate = s == 0 ? r.execsPerSecond : results[first + s].execsPerSecond;
                r.seedRates.push_back(rate);
                sum += rate;
                // The point's other fields are the first seed's; a verdict of any seed stays.
                if (r.overload.empty() && s > 0 && !results[first + s].overload.empty())
                    r.overload = "seed " + std::to_string(config.run.seed + s) + ": " +
                                 results[first + s].overload;
            }
            r.execsPerSecond = sum / seeds;
        }
        for (unsigned d = 0; d < config.bands; ++d)
            r.bandRates.push_back(results[first + seeds + d].execsPerSecond);
        points.push_back(std::move(r));
    }
    return points;
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
