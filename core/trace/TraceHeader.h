#pragma once
// The first line of a native trace (docs/trace-format.md): what was recorded and how, so that
// a reader can rebuild the trees and the statistics without anything else.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace immap::trace {

inline constexpr const char* kTraceMagic = "immap-trace";
inline constexpr int kTraceVersion = 2;

struct TraceLock {
    std::string name;
    int file = -1;
};

struct TraceHeader {
    std::string source;  // "simulate", or "import:FILE" for a converted real recording
    std::string topology;
    std::string policy;
    std::string recipe;
    unsigned copies = 0;
    std::uint64_t seed = 0;
    double durationMs = 0;  // the measured window's length (simulations)
    double walkersPerSecond = 0;
    std::int64_t timeOriginNs = 0;  // imported traces: the recording's clock at time 0
    std::vector<std::string> files;
    unsigned treesPerFile = 1;  // every file has this many trees (policy slots)
    // Simulations: each copy's CPU (OS index) and NUMA node, for the per-CPU time split.
    std::vector<unsigned> copyCpus;
    std::vector<int> copyNodes;
    std::vector<TraceLock> locks;
    int walkerFile = -1;
    std::map<std::string, double> params;
    std::string note;

    // The whole line, without the newline: "immap-trace 2 {json}".
    std::string toLine() const;
    // Throws TraceError(file, 1, reason) for a line that is not a version-1 header.
    static TraceHeader fromLine(const std::string& line, const std::string& file);
};

}  // namespace immap::trace
