#pragma once
// /proc/PID/numa_maps: one line per VMA, `start-address policy details...`, details being
// `key=value` pairs (file=, anon=, dirty=, mapped=, mapmax=, active=, swapcache=, writeback=,
// N<node>=<pages>, kernelpagesize_kB=) and bare flags (heap, stack, huge). Unknown keys are
// tolerated, as newer kernels add them; malformed known ones are errors.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace immap::procfs {

struct NumaMapsEntry {
    std::uint64_t start = 0;
    std::string policy;  // "default", "bind:0-1", "interleave:0-3", "prefer:1", ...
    std::string file;    // file= with \040-style escapes decoded; empty when absent
    bool heap = false;
    bool stack = false;
    bool huge = false;
    std::uint64_t anon = 0;
    std::uint64_t dirty = 0;
    std::uint64_t mapped = 0;
    std::uint64_t mapmax = 0;
    std::uint64_t active = 0;
    std::uint64_t kernelPageSizeKB = 0;
    std::map<int, std::uint64_t> nodePages;  // N<node>=<pages>
    std::uint64_t swapcache = 0;
    std::uint64_t writeback = 0;

    // The node holding most of this VMA's pages (lowest id on a tie), -1 when none are resident.
    int dominantNode() const;
};

class NumaMapsParser {
public:
    static NumaMapsEntry parseLine(std::string_view line, const std::string& file,
                                   std::size_t lineNo);
    static std::vector<NumaMapsEntry> parse(std::string_view text, const std::string& file);
};

}  // namespace immap::procfs
