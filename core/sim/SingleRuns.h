#pragma once
// The one definition of "speedup over single": a run's throughput over single's at the same copy
// count and the same walker rate (a policy with walkers over single without them would mix the
// walkers' cost into the policy's gain). Single's runs are indexed once, so that every output
// (the sweep's JSON and CSV, the CLI's table, the plot) takes each ratio in O(log N) rather
// than scanning all N runs per run. For rows and for SimResults alike: both have policy, copies,
// walkersPerSecond, execsPerSecond and bandRates.

#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "sim/Band.h"

namespace immap::sim {

template <class Run>
class SingleRuns {
public:
    SingleRuns() = default;
    // Keeps pointers into `runs`, which must outlive this index and not change. With two single
    // runs at one point, the first counts.
    explicit SingleRuns(const std::vector<Run>& runs) {
        for (const Run& s : runs)
            if (s.policy == "single") single_.try_emplace({s.copies, s.walkersPerSecond}, &s);
    }

    // Single's run at r's copy count and walker rate; nullptr when the sweep has none.
    const Run* of(const Run& r) const {
        const auto it = single_.find({r.copies, r.walkersPerSecond});
        return it == single_.end() ? nullptr : it->second;
    }
    // r's throughput over single's; 0 when that single run is absent or made no execs.
    double speedup(const Run& r) const {
        const Run* s = of(r);
        return s && s->execsPerSecond > 0 ? r.execsPerSecond / s->execsPerSecond : 0.0;
    }
    // r's speedup under each drawn parameter set, in draw order: the ratio is taken within each
    // set, so a parameter that moves both policies alike moves no ratio. NaN where single's
    // rate is 0; empty when either has no band or they differ.
    std::vector<double> draws(const Run& r) const {
        const Run* s = of(r);
        if (!s || s->bandRates.size() != r.bandRates.size()) return {};
        std::vector<double> ratios;
        ratios.reserve(r.bandRates.size());
        for (std::size_t d = 0; d < r.bandRates.size(); ++d)
            ratios.push_back(s->bandRates[d] > 0 ? r.bandRates[d] / s->bandRates[d]
                                                 : std::numeric_limits<double>::quiet_NaN());
        return ratios;
    }
    // The draws' ratios as a band (those defined); invalid when there are none.
    Band band(const Run& r) const {
        std::vector<double> ratios = draws(r);
        std::erase_if(ratios, [](double x) { return std::isnan(x); });
        return Band::of(std::move(ratios));
    }

private:
    std::map<std::pair<unsigned, double>, const Run*> single_;  // (copies, walker rate)
};

}  // namespace immap::sim
