#pragma once
// One sweep point as the sweep's outputs print it: the run's JSON summary and the values the CSV
// and the ratios need. A sweep's JSON and CSV are made from rows, so that a merge of shards
// (SweepShard) writes exactly what one run writes: a row survives a JSON round trip unchanged
// (Qt writes doubles in their shortest exact form).

#include <QJsonObject>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "sim/Band.h"
#include "sim/SimResult.h"

namespace immap::sim {

struct SweepRow {
    QJsonObject summary;  // SimResult::toJson(false)
    std::string policy;
    unsigned copies = 0;
    double walkersPerSecond = 0;  // the grid's walker rate for this point
    double execsPerSecond = 0;
    std::vector<double> seedRates;
    std::vector<double> bandRates;  // SimResult::bandRates
    std::uint64_t seed = 0;
    double walkerLatencyMeanNs = 0;
    double walkerLatencyP99Ns = 0;
    double memoryPerInodeBytes = 0;
    double maxUtilisation = 0;  // the busiest lock's

    static SweepRow of(const SimResult& r);
    QJsonObject toJson() const;
    // False with the reason when a field is missing, of the wrong type or outside what a run
    // makes (a negative or infinite rate, memory that is not whole bytes below 2^53, copies
    // outside InputLimits, an unknown policy, a lock busy more than all the time, execs/s that
    // is not its seeds' mean), or when the summary (what the JSON output prints) disagrees with
    // the fields (what the CSV prints). `field`, when given, is set to the key at fault.
    static bool fromJson(const QJsonObject& o, SweepRow& out, std::string& error,
                         std::string* field = nullptr);

    // r's throughput over single's at the same copy count and the same walker rate in `runs`;
    // 0 when that single run is absent. The same rate: a policy with walkers over single
    // without them would mix the walkers' cost into the policy's gain.
    // One rule for rows and for SimResults (Sweep::speedupOverSingle): both have policy,
    // copies, walkersPerSecond and execsPerSecond.
    template <class Run>
    static double speedupOverSingle(const std::vector<Run>& runs, const Run& r) {
        for (const Run& s : runs)
            if (s.policy == "single" && s.copies == r.copies &&
                s.walkersPerSecond == r.walkersPerSecond)
                return s.execsPerSecond > 0 ? r.execsPerSecond / s.execsPerSecond : 0.0;
        return 0;
    }
    // r's speedup over single (as above) under each drawn parameter set, in draw order: the
    // ratio is taken within each set, so a parameter that moves both policies alike moves no
    // ratio. NaN where single's rate is 0; empty when either has no band or they differ.
    template <class Run>
    static std::vector<double> speedupDraws(const std::vector<Run>& runs, const Run& r) {
        for (const Run& s : runs)
            if (s.policy == "single" && s.copies == r.copies &&
                s.walkersPerSecond == r.walkersPerSecond) {
                if (s.bandRates.size() != r.bandRates.size()) return {};
                std::vector<double> ratios;
                for (std::size_t d = 0; d < r.bandRates.size(); ++d)
                    ratios.push_back(s.bandRates[d] > 0 ? r.bandRates[d] / s.bandRates[d]
                                                        : std::numeric_limits<double>::quiet_NaN());
                return ratios;
            }
        return {};
    }
    // The draws' ratios as a band (those defined); invalid when there are none.
    template <class Run>
    static Band speedupBand(const std::vector<Run>& runs, const Run& r) {
        std::vector<double> ratios = speedupDraws(runs, r);
        std::erase_if(ratios, [](double x) { return std::isnan(x); });
        return Band::of(std::move(ratios));
    }
    // {"runs": [...]}: each row's summary with its speedup and busiest lock.
    static std::string toJson(const std::vector<SweepRow>& rows);
    // One line per row: policy,copies,execs_per_s,speedup_vs_single,...,walkers_per_s with a
    // header; a banded sweep adds the execs/s and speedup bands (p10, median, p90) after it.
    static std::string toCsv(const std::vector<SweepRow>& rows);
};

}  // namespace immap::sim
