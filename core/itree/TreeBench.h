#pragma once
// Times an op sequence's inserts and removes on IntervalTree against
// std::multimap<std::pair<unsigned long, unsigned long>, unsigned> fed the same keys in the same
// process, so that the ratio, not the absolute figure, is what a noisy machine reports.

#include <cstddef>
#include <string>
#include <vector>

#include "Node.h"
#include "OpScript.h"

namespace immap::itree {

struct BenchFigures {
    double nsPerInsert = 0;  // timed over runs of consecutive inserts, clock cost subtracted
    double nsPerRemove = 0;
    double nsPerOp = 0;  // one clock pair around the whole sequence
};

struct BenchResult {
    std::size_t inserts = 0;  // timed ones, per repetition
    std::size_t removes = 0;
    std::size_t repetitions = 0;
    BenchFigures itree;
    BenchFigures multimap;
    double ratio = 0;  // itree ns/op / multimap ns/op: below 1, the intrusive tree is faster
    std::size_t linkageBytes = kLinkageBytes;  // what the tree adds to each node
    std::size_t nodeBytes = sizeof(Node);      // linkage plus the interval key
};

struct BenchOptions {
    double minSeconds = 0.5;        // per structure, summed over repetitions
    std::size_t untimedPrefix = 0;  // leading i/r ops that build the starting tree, untimed
};

class TreeBench {
public:
    // Replays the i and r ops (q and d are skipped) from an empty tree, alternating the two
    // structures, until each has run `minSeconds` and at least 3 repetitions; figures are the
    // median over repetitions. Returns false, with the reason, if the ops are not a valid
    // sequence (insert of a live ID, remove of an unknown one) or nothing is left to time.
    static bool run(const std::vector<ScriptOp>& ops, const BenchOptions& options,
                    BenchResult& result, std::string& error);
};

}  // namespace immap::itree
