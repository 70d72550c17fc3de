#pragma once
// A sweep cut into N shards that run anywhere (a Slurm job array, GNU parallel over ssh) and a
// merge that joins their parts into exactly what one run writes (docs/sharding.md).
//
// Shard K of N runs a fixed slice of the grid (walker rates x policies x copies): the points
// sorted by copy count, largest first (the costly ones), dealt round robin, so that the shards
// get like shares of the work. Its part file holds the sweep's identity (machine, grid with its
// walker rates, seeds, window, recipe, every parameter, and the SHA-256 of the machine as loaded
// and of the recipe as read, and the program's version), K and N, and each of its points as a
// SweepRow with its grid index. The merge refuses parts of different sweeps (naming both), a
// shard given twice or missing, a grid larger than a sweep runs, a row no run makes, and
// anything malformed, each as "PART:LINE: reason".

#include <QJsonObject>
#include <string>
#include <string_view>
#include <vector>

#include "sim/Sweep.h"
#include "sim/SweepRow.h"

namespace immap::sim {

struct SweepPart {
    std::string name;  // where it came from, for messages (a file's path)
    std::string text;  // its JSON
};

class SweepShard {
public:
    static constexpr unsigned kMaxShards = 100'000;

    // "K/N" with 1 <= K <= N <= kMaxShards; false with the reason otherwise.
    static bool parse(std::string_view text, unsigned& k, unsigned& n, std::string& error);
    // The grid indices (walker rates outermost, then policies, copies inner) shard k of n runs,
    // in grid order.
    static std::vector<std::size_t> points(const SweepConfig& config, unsigned k, unsigned n);
    // What makes two shards parts of one sweep. `recipe` names the recipe beyond its own name
    // (its file's path or its JSON text; empty for the built-in one).
    static QJsonObject identity(const SweepConfig& config, const std::string& recipe);
    // Shard k of n's part file: its points (grid indices, in grid order) and their rows.
    static std::string part(const QJsonObject& identity, unsigned k, unsigned n,
                            const std::vector<std::size_t>& points,
                            const std::vector<SweepRow>& rows);
    // Every point of the sweep in grid order, from all N parts (in any order). False with
    // "NAME:LINE: reason" (docs/sharding.md lists the refusals) when a part is malformed, of
    // another sweep, given twice or missing, or declares or holds what no sweep makes.
    static bool merge(const std::vector<SweepPart>& parts, std::vector<SweepRow>& rows,
                      std::string& error);
};

}  // namespace immap::sim
