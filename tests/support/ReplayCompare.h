#pragma once

#include <QJsonObject>

namespace immap::testing {

// What a replay of a trace can reproduce of a run's JSON report. The cache model's counters are
// the simulator's own: a trace records locks and tree operations, not the cache lines' states, so
// a replay cannot count them and reports them as 0. Nor does it record the shared lines besides
// i_mmap (their time is in the copies' work phases, which it does reproduce).
inline QJsonObject replayComparable(QJsonObject o) {
    for (const char* k :
         {"cache_hits", "cache_l1_hits", "cache_transfers", "cache_memory_reads", "cache_upgrades",
          "lock_line_transfers", "shared_lines", "walk_vmas_mean"})
        o.remove(k);
    return o;
}

}  // namespace immap::testing
