#pragma once
// The small sweep grid the sweep and shard suites share: single and split-locks on a 4-CPU,
// 2-package machine, a 2 ms floor and 20 execs in all, so that a grid runs in well under a
// second.

#include <initializer_list>
#include <string>

#include "sim/Sweep.h"
#include "topology/Topology.h"

namespace immap::testing {

inline const topology::Topology& fourCpus() {
    static const topology::Topology t =
        topology::Topology::fromSpec("synthetic:package:2 numa:1 core:2 pu:1");
    return t;
}

inline sim::SweepConfig smallSweep(std::initializer_list<unsigned> copies, unsigned seeds) {
    sim::SweepConfig c;
    c.run.topology = &fourCpus();
    c.run.durationMs = 2;
    c.run.params.windowTotalExecs = 20;
    for (const char* name : {"single", "split-locks"}) {
        mapping::Policy p;
        std::string error;
        mapping::Policy::parse(name, p, error);
        c.policies.push_back(p);
    }
    c.copies = copies;
    c.seeds = seeds;
    return c;
}

}  // namespace immap::testing
