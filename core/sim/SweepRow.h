#pragma once
// One sweep point as the sweep's outputs print it: the run's JSON summary and the values the CSV
// and the ratios need. A sweep's JSON and CSV are made from rows, so that a merge of shards
// (SweepShard) writes exactly what one run writes: a row survives a JSON round trip unchanged
// (Qt writes doubles in their shortest exact form).

#include <QJsonObject>
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
    std::string overload;       // SimResult::overload: empty at a steady state

    static SweepRow of(const SimResult& r);
    QJsonObject toJson() const;
    // False with the reason when a field is missing, of the wrong type or outside what a run
    // makes (a negative or infinite rate, memory that is not whole bytes below 2^53, copies
    // outside InputLimits, an unknown policy, a lock busy more than all the time, execs/s that
    // is not its seeds' mean), or when the summary (what the JSON output prints) disagrees with
    // the fields (what the CSV prints). `field`, when given, is set to the key at fault.
    static bool fromJson(const QJsonObject& o, SweepRow& out, std::string& error,
                         std::string* field = nullptr);

    // {"runs": [...]}: each row's summary with its speedup and busiest lock.
    static std::string toJson(const std::vector<SweepRow>& rows);
    // One line per row: policy,copies,execs_per_s,speedup_vs_single,...,walkers_per_s with a
    // header; a banded sweep adds the execs/s and speedup bands (p10, median, p90) after it,
    // and a sweep with a point that had no steady state an `overload` column last.
    static std::string toCsv(const std::vector<SweepRow>& rows);
};

}  // namespace immap::sim
