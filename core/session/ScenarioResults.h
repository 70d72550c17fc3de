#pragma once
// A scenario's "results" section (docs/cache.md, "Scenarios carry their results"): the runs its
// slides need, each as its RunKey and its result (sim::ResultCodec's JSON, zlib-compressed and
// base64: a 384-CPU sweep's runs would not fit a scenario's size otherwise). Opening the
// scenario hands them to the run cache's memory layer, which serves a run only when its key
// still matches what the window would simulate.

#include <QJsonValue>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "io/JsonLocator.h"
#include "sim/RunCache.h"
#include "sim/SimResult.h"
#include "sim/Sweep.h"

namespace immap::session {

class ScenarioResults {
public:
    // A run: its result's compact JSON text (ResultCodec::encode), or for a run whose callers
    // read its execs/s alone (RunCache::Need::Rate: a sweep's parameter draws) that rate only.
    struct Run {
        std::string result;
        double execsPerSecond = 0;
        bool operator==(const Run&) const = default;
    };
    using Map = std::map<std::string, Run>;

    static QJsonValue toJson(const Map& results);
    // Calls `fail(offset, reason)` (which must throw) for anything but a list of {"key": 64 hex
    // digits, "zlib": base64 of a result} and {"key": ..., "execs_per_s": a number}, or an
    // entry given twice.
    static Map fromJson(const QJsonValue& value, const io::JsonLocator& at, qsizetype keyAt,
                        const std::function<void(qsizetype, const std::string&)>& fail);

    // The runs of `sweep` that `cache` holds (its memory layer, a scenario's results among
    // them, or its disk), none simulated: what a scenario saved with those settings carries.
    static Map known(const sim::SweepConfig& sweep, sim::RunCache& cache);
    // Into `cache`'s memory layer, each result under its key.
    static void preload(const Map& results, sim::RunCache& cache);
};

}  // namespace immap::session
