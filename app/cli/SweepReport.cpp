#include "SweepReport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "CliOutput.h"
#include "sim/LatinHypercube.h"
#include "sim/Sensitivity.h"
#include "sim/SingleRuns.h"
#include "sim/Sweep.h"
#include "sim/SweepRow.h"

namespace immap::cli {

namespace {

std::string fmt(double v, int decimals = 0) {
    return CliOutput::grouped(v, decimals);
}

std::string ratio(double x) {
    return CliOutput::fixed(x, x < 10 ? 2 : 1) + "x";
}

}  // namespace

std::string SweepReport::table(const std::vector<sim::SimResult>& runs) {
    const bool banded =
        std::any_of(runs.begin(), runs.end(), [](const auto& r) { return !r.bandRates.empty(); });
    std::ostringstream out;
    // One line per point; the walker columns say which slice of the grid it is in (a speedup is
    // over single at the same rate).
    // The policy column fits the longest name ("btree+split-locks").
    int width = 14;
    for (const sim::SimResult& r : runs)
        width = std::max(width, static_cast<int>(r.policy.size()));
    out << std::string("policy").append(static_cast<std::size_t>(width) - 6, ' ')
        << "  copies   walks/s    execs/s  seeds' range         "
        << (banded ? "band 10-90%           vs single  band           " : "  vs single")
        << "  busiest lock  execs/copy  VMAs/walk  walk mean  gave up\n";
    const sim::SingleRuns singles(runs);
    for (const sim::SimResult& r : runs) {
        const double speedup = singles.speedup(r);
        std::string range = "-";
        if (!r.seedRates.empty())
            range = fmt(*std::min_element(r.seedRates.begin(), r.seedRates.end())) + "-" +
                    fmt(*std::max_element(r.seedRates.begin(), r.seedRates.end()));
        // No walkers, or none completed in the window: no latency (not a latency of 0).
        const std::string walk = r.walkersPerSecond > 0 && r.walks > 0
                                     ? CliOutput::duration(r.walkerLatencyMeanNs)
                                     : "-";
        // What a walk could act on (0 under no-rmap: the marked files are in no tree).
        const std::string found =
            r.walkersPerSecond > 0 && r.walks > 0 ? fmt(r.walkVmasMean, 1) : "-";
        // Trylock walkers that gave up, of the walks that arrived and ended or gave up.
        const std::uint64_t tried = r.walks + r.walksSkipped;
        const std::string gaveUp =
            tried > 0
                ? fmt(100.0 * static_cast<double>(r.walksSkipped) / static_cast<double>(tried), 0) +
                      "% of " + std::to_string(tried)
                : "-";
        std::string bandCols;
        if (banded) {
            const sim::Band e = sim::Band::of(r.bandRates);
            const sim::Band x = singles.band(r);
            char cols[96];
            std::snprintf(cols, sizeof cols, "%-21s %10s  %-14s",
                          e.valid ? (fmt(e.p10) + "-" + fmt(e.p90)).c_str() : "-",
                          speedup > 0 ? ratio(speedup).c_str() : "-",
                          x.valid ? ("[" + CliOutput::fixed(x.p10, 2) + ", " +
                                     CliOutput::fixed(x.p90, 2) + "]")
                                        .c_str()
                                  : "-");
            bandCols = cols;
        } else {
            bandCols = std::string(speedup > 0 ? ratio(speedup) : "-");
            bandCols.insert(0, bandCols.size() < 11 ? 11 - bandCols.size() : 0, ' ');
        }
        char line[320];
        std::snprintf(line, sizeof line,
                      "%-*s %7u %9s %10.0f  %-20s %s %13.3f %11llu  %9s  %-9s  %s\n", width,
                      r.policy.c_str(), r.copies, fmt(r.walkersPerSecond).c_str(), r.execsPerSecond,
                      range.c_str(), bandCols.c_str(), sim::Sweep::maxUtilisation(r),
                      static_cast<unsigned long long>(r.execsPerCopyMin), found.c_str(),
                      walk.c_str(), gaveUp.c_str());
        out << line;
    }
    return out.str();
}

std::string SweepReport::bands(const std::vector<sim::SimResult>& runs, const sim::CostParams& base,
                               unsigned bands, std::uint64_t seed, std::size_t top) {
    const sim::SingleRuns singles(runs);
    if (bands == 0 || runs.empty()) return {};
    unsigned most = 0;
    for (const sim::SimResult& r : runs)
        most = std::max(most, r.copies);
    std::vector<double> rates;
    for (const sim::SimResult& r : runs)
        if (std::find(rates.begin(), rates.end(), r.walkersPerSecond) == rates.end())
            rates.push_back(r.walkersPerSecond);
    std::ostringstream out;
    out << "\nOver single at " << most << " copies: the model's point (default parameters, the "
        << "seeds' mean) and the 10-90% band over " << bands
        << " parameter sets drawn over the plausible ranges (immap simulate --list-params):\n";
    for (double rate : rates) {
        out << "  " << (rate > 0 ? "with " + fmt(rate) + " walks/s" : "without walkers") << ":\n";
        for (const sim::SimResult& r : runs) {
            if (r.copies != most || r.walkersPerSecond != rate || r.policy == "single") continue;
            const sim::Band b = singles.band(r);
            out << "    " << r.policy << "/single at " << most << ": " << ratio(singles.speedup(r));
            if (b.valid)
                out << " [" << CliOutput::fixed(b.p10, 2) << ", " << CliOutput::fixed(b.p90, 2)
                    << "], median " << ratio(b.median);
            out << '\n';
        }
    }
    // Sensitivity, at the first rate (without walkers when the sweep runs both).
    const std::vector<sim::CostParams> draws = sim::LatinHypercube::draw(base, bands, seed);
    const std::vector<std::string> names = sim::LatinHypercube::drawnNames(base);
    const sim::SimResult* single = nullptr;
    for (const sim::SimResult& r : runs)
        if (r.copies == most && r.walkersPerSecond == rates.front() && r.policy == "single")
            single = &r;
    if (!single || single->bandRates.size() != bands) return out.str();
    if (bands < sim::Sensitivity::kMinSets) {
        out << "\nNo table of what moves each ratio: a rank correlation takes at least "
            << sim::Sensitivity::kMinSets
            << " parameter sets to mean anything, and this sweep drew " << bands
            << " (immap sweep --help says why).\n";
        return out.str();
    }
    out << "\nWhat moves each ratio most (Spearman's rho between a parameter and the ratio over "
           "the "
        << bands << " sets, where chance alone gives |rho| above "
        << CliOutput::fixed(sim::Sensitivity::noiseLevel(bands), 2)
        << " one time in 20; the ratio's median with the parameter in the lower / upper half of "
           "its range):\n";
    for (const sim::SimResult& r : runs) {
        if (r.copies != most || r.walkersPerSecond != rates.front() || r.policy == "single" ||
            r.bandRates.size() != bands)
            continue;
        // Aligned with the draws; an undefined ratio (single at 0 execs/s) ranks lowest.
        std::vector<double> ratios = singles.draws(r);
        for (double& x : ratios)
            if (std::isnan(x)) x = 0;
        out << "  " << r.policy << "/single at " << most << ":\n";
        const auto entries = sim::Sensitivity::rank(draws, names, ratios);
        for (std::size_t i = 0; i < entries.size() && i < top; ++i) {
            char line[160];
            std::snprintf(line, sizeof line, "    %-28s rho %+5.2f   %8s / %-8s\n",
                          entries[i].name.c_str(), entries[i].rho,
                          ratio(entries[i].lowHalf).c_str(), ratio(entries[i].highHalf).c_str());
            out << line;
        }
    }
    return out.str();
}

}  // namespace immap::cli
