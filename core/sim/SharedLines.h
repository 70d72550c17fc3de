#pragma once
// The cache lines an exec shares with every other exec besides the i_mmap trees and locks
// (docs/simulator.md, "The rest of exec"): the per-CPU allocator's lock, percpu_counters_lock,
// pgd_lock, binfmt_lock, the executable's and ld.so's i_writecount, the dentry lockrefs of the
// recipe's files, the page-cache folios each exec maps, v2's vma_count under split-locks, and
// the per-exec loops over every possible CPU. Counts come from linux-source-6.12, each cited
// in its parameter (CostParams).
//
// A kind of line is a serial resource: one touch at a time, each pulling `lines` lines one
// after another and paying a transfer per line when another CPU touched it last. A kind may
// stand for `alike` lines touched in turn (the 311 small folios libc maps per exec): they see
// the same arrivals, so one representative line is queued on and the toucher is delayed
// `alike` times its wait and service there.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/CostParams.h"
#include "sim/Recipe.h"
#include "sim/Time.h"

namespace immap::sim {

struct SharedLineKind {
    enum class Scope : std::uint8_t { Global, Node, File, PerCpu };
    std::string name;
    Scope scope = Scope::Global;
    int file = -1;           // File scope: the recipe file
    double lines = 1;        // lines one touch pulls, one after another
    double alike = 1;        // alike lines one touch stands for, touched in turn
    bool privateTo = false;  // only ever touched by one copy (a per_copy file's): never moves
    // A loop over every possible CPU touching `lines` lines in each CPU's own per-CPU unit:
    // nothing shared, priced by SharedLines' loop cost for the toucher's node.
    bool loop = false;
};
const char* sharedLineScopeName(SharedLineKind::Scope s);

// A kind beyond the built-in catalogue, touched `touches` times before recipe step `step`.
struct ExtraSharedLine {
    SharedLineKind kind;
    std::size_t step = 0;
    unsigned touches = 1;
};

// What the measured window saw of one kind.
struct SharedLineResult {
    std::string name;
    std::string scope;
    std::uint64_t touches = 0;    // touches (of the representative) in the window
    std::uint64_t transfers = 0;  // of those, touches of a line another CPU touched last
    double delayNs = 0;           // copies' time on it (waits and service), in the window
};

class SharedLines {
public:
    // The catalogue for `recipe` at these parameters; `extra` adds kinds with their uses
    // (tests, and recipes that name more). Kinds whose parameters are 0 are left out.
    // `loopNs[node]`: one line in every possible CPU's unit, read from `node` (the misses
    // overlapped by percpu_loop_mlp).
    SharedLines(const CostParams& p, const Recipe& recipe, unsigned nodes, bool splitLocks,
                std::vector<double> loopNs, const std::vector<ExtraSharedLine>& extra = {});

    // One flag per recipe step: are any lines touched before it? (AddressSpace::planSteps)
    const std::vector<std::uint8_t>& stepMask() const { return stepMask_; }
    // The touches before step k, in order (a kind repeated `touches` times).
    const std::vector<std::uint32_t>& atStep(std::size_t k) const { return atStep_[k]; }
    // split-locks: the kind of `file`'s vma_count, or -1.
    int vmaCountKind(int file) const {
        return file >= 0 && static_cast<std::size_t>(file) < vmaCount_.size()
                   ? vmaCount_[static_cast<std::size_t>(file)]
                   : -1;
    }

    // One touch of `kind` by CPU `cpu` (any unique id) on NUMA node `node`, starting at `t`.
    // `transferNs[a][b]`: a line's move from node a to node b. Returns when the toucher is
    // done; counts in the results while `counting`.
    Time touch(std::uint32_t kind, int cpu, int node, Time t,
               const std::vector<std::vector<double>>& transferNs, double atomicNs, bool counting);

    std::vector<SharedLineResult> results() const;
    // The least time one exec spends on these lines: every touch's atomics on lines already
    // in the CPU's cache, no transfer and no wait (Simulator::checkConfig's floor on an exec).
    double leastNsPerExec(double atomicNs) const;

private:
    struct Line {
        Time free = 0;
        int lastCpu = -1;
        int lastNode = 0;
    };
    std::uint32_t add(SharedLineKind k);
    void use(std::size_t step, std::uint32_t kind, unsigned touches);

    unsigned nodes_;
    std::vector<double> loopNs_;
    std::vector<SharedLineKind> kinds_;
    std::vector<std::vector<Line>> lines_;  // per kind: one, or one per node
    std::vector<SharedLineResult> stats_;
    std::vector<std::vector<std::uint32_t>> atStep_;
    std::vector<std::uint8_t> stepMask_;
    std::vector<int> vmaCount_;
};

}  // namespace immap::sim
