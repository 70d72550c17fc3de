#pragma once
// One sweep point as the sweep's outputs print it: the run's JSON summary and the values the CSV
// and the ratios need. A sweep's JSON and CSV are made from rows, so that a merge of shards
// (SweepShard) writes exactly what one run writes: a row survives a JSON round trip unchanged
// (Qt writes doubles in their shortest exact form).

#include <QJsonObject>
#include <string>
#include <vector>

#include "sim/SimResult.h"

namespace immap::sim {

struct SweepRow {
    QJsonObject summary;  // SimResult::toJson(false)
    std::string policy;
    unsigned copies = 0;
    double walkersPerSecond = 0;  // the grid's walker rate for this point
    double execsPerSecond = 0;
    std::vector<double> seedRates;
    std::uint64_t seed = 0;
    double walkerLatencyMeanNs = 0;
    double walkerLatencyP99Ns = 0;
    double memoryPerInodeBytes = 0;
    double maxUtilisation = 0;  // the busiest lock's

    static SweepRow of(const SimResult& r);
    QJsonObject toJson() const;
    // False with the reason when a field is missing or of the wrong type.
    static bool fromJson(const QJsonObject& o, SweepRow& out, std::string& error);

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
    // {"runs": [...]}: each row's summary with its speedup and busiest lock.
    static std::string toJson(const std::vector<SweepRow>& rows);
    // One line per row: policy,copies,execs_per_s,speedup_vs_single,...,walkers_per_s with a
    // header.
    static std::string toCsv(const std::vector<SweepRow>& rows);
};

}  // namespace immap::sim
