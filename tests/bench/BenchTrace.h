#pragma once
// The trace the trace and timeline benchmarks share: split-locks, 384 copies on the 12-node
// sample, 30 ms measured, 1,000 whole-file walkers/s (about 2.5 M events); --quick: 32 copies,
// 5 ms. Recorded to `path`; returns what it recorded, for the report.
#include <string>

#include "BenchPaths.h"
#include "mapping/Policy.h"
#include "topology/Topology.h"
#include "trace/TraceWriter.h"

namespace immap::bench {

inline std::string recordBenchTrace(const std::string& path, bool quick) {
    const topology::Topology topo = topology::Topology::fromSpec(
        "xml:" + immap::bench::samplesDir() + "/topologies/numa12-384cpu.xml");
    sim::SimConfig c;
    c.topology = &topo;
    std::string error;
    mapping::Policy::parse("split-locks", c.policy, error);
    c.copies = quick ? 32 : 384;
    c.durationMs = quick ? 5 : 30;
    c.walkersPerSecond = 1000;
    trace::recordRun(c, path);
    return c.policy.name() + ", " + std::to_string(c.copies) + " copies, " +
           std::to_string(static_cast<int>(c.durationMs)) + " ms";
}

}  // namespace immap::bench
