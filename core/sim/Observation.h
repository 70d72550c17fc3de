#pragma once
// A published measurement the model is checked against (issue 18, point 4; docs/validation.md):
// the machine it was taken on, as a topology spec built from public data on that CPU with its
// assumptions written down, the workload, the figure with its source, and how the model's
// figure is read from its runs. The figures are for comparison only: no parameter is set from
// them.

#include <string>
#include <vector>

namespace immap::sim {

struct Observation {
    // How the model's figure comes out of the runs (Scorecard::runsOf lists them).
    enum class Metric {
        RatioOverSingle,  // policy's execs/s over single's at `copies`
        SpinShare,        // % of the copies' CPU time spinning on i_mmap locks, single, `copies`
        PeakCopies,       // the copy count of `grid` where single's execs/s peaks
        RateRatio,        // single's execs/s at grid[0] over grid[1]
        UnlinkBatchGain,  // single at `copies`: batched teardown (8 per hold) over one per hold
        NotModelled,      // the model has no mechanism for it (says so; no runs)
    };
    // "about X": a hit when X is inside the model's 10-90% band; "at least X": when the band
    // reaches X. None: nothing is published; the line is the lab's prediction, with its band,
    // and counts as neither hit nor miss.
    enum class Bound { About, AtLeast, None };

    std::string id;
    std::string claim;     // what was measured, in words
    std::string machine;   // the machine as its source names it
    std::string topology;  // the shape we build for it (Topology::fromSpec)
    std::string assumptions;
    Metric metric = Metric::RatioOverSingle;
    std::string policy;              // RatioOverSingle
    unsigned copies = 0;             // RatioOverSingle, SpinShare, UnlinkBatchGain
    std::vector<unsigned> grid;      // PeakCopies, RateRatio
    bool perCopyExecutable = false;  // each copy execs its own binary (distinct inodes)
    double published = 0;            // in the metric's unit: x, %, copies
    Bound bound = Bound::About;
    std::string publishedText;  // as published: "+77%"
    std::string source;
    std::string unit;  // "x", "%", "copies"

    // The observations of docs/validation.md, in its order.
    static const std::vector<Observation>& all();
};

}  // namespace immap::sim
