// Benchmark, not a test: one uncontended copy's mean i_mmap hold, measured and modelled on this
// host at the same time. Measured: TreeLockBench's one pinned thread running the recipe's holds
// on real itree trees (the hold is the tree work between lock and unlock). Modelled: the
// simulator's one copy on this host's topology, with the hold's work that the measured thread
// does not do set to 0 (split_store_ns and anon_vma_lock_ns: the maple tree and the anon_vma;
// tree_op_ns: __vma_link_file's call and checks) and the hold's two lock-word atomics (the
// acquire's and the release's, which the measured hold's clock reads leave out) taken off, so
// that both time the same thing: the recipe's tree operations. The model runs twice: with
// cache_l1_hit_ns and cache_hit_ns at their defaults, and with both measured now
// (LoadLatencyBench's pointer chase in the L1 and in the L2, before and after the hold,
// averaged), since a shared machine's speed drifts and the two sides must see the same machine.
// Both sides run the same unlocked work between holds (the bench's 20 µs per exec, writing
// work_lines_per_us lines per µs), which decides how many of a hold's reads are L1 hits; the
// measured hold is taken less one clock read (TreeLockResult::clockReadNs). Prints both and their
// ratios (issue 17: within 30%).
//   hold_model_bench [--quick] [--work-lines-per-us N]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "measure/LoadLatencyBench.h"
#include "measure/TreeLockBench.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

using namespace immap;

namespace {

double modelledHold(const topology::Topology& host, double l1HitNs, double cacheHitNs,
                    const measure::TreeLockBenchConfig& bench, bool quick) {
    sim::SimConfig sc;
    sc.topology = &host;
    sc.copies = 1;
    sc.durationMs = quick ? 10 : 1000;
    sc.params.splitStoreNs = 0;
    sc.params.anonVmaLockNs = 0;
    sc.params.treeOpNs = 0;
    sc.params.cacheL1HitNs = l1HitNs;
    sc.params.cacheHitNs = cacheHitNs;
    sc.params.unlockedNsPerExec = bench.workNsPerExec;
    sc.params.workLinesPerUs = bench.workLinesPerUs;
    const sim::SimResult r = sim::Simulator(sc).run();
    double holdNs = 0;
    std::uint64_t holds = 0;
    for (const sim::LockResult& l : r.locks) {
        holdNs += l.stats.meanHold * static_cast<double>(l.stats.holds);
        holds += l.stats.holds;
    }
    return (holds ? holdNs / static_cast<double>(holds) : 0) - 2 * sc.params.lockAtomicNs;
}

void printRatio(const char* what, double model, double measured) {
    const double ratio = measured > 0 ? model / measured : 0;
    std::printf("  %-44s %7.1f ns, model/measured %.2f (%s 30%%)\n", what, model, ratio,
                ratio >= 0.7 && ratio <= 1.3 ? "within" : "NOT within");
}

}  // namespace

int main(int argc, char** argv) {
    bool quick = false;
    double linesPerUs = sim::CostParams{}.workLinesPerUs;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--work-lines-per-us") && i + 1 < argc)
            linesPerUs = std::atof(argv[++i]);
    }
    try {
        const topology::Topology host = topology::Topology::fromSpec("host");
        const std::size_t loads = quick ? 100000 : 20000000;
        const measure::LoadLatencyResult before = measure::LoadLatencyBench::run(loads);
        measure::TreeLockBenchConfig bc;
        bc.topology = &host;
        bc.seconds = quick ? 0.05 : 2;
        bc.workLinesPerUs = linesPerUs;
        const measure::TreeLockResult m = measure::TreeLockBench::run(bc);
        const measure::LoadLatencyResult after = measure::LoadLatencyBench::run(loads);
        const double l1Now = (before.l1Ns + after.l1Ns) / 2;
        const double l2Now = (before.l2Ns + after.l2Ns) / 2;
        const double measured = m.meanHoldNs - m.clockReadNs;

        const sim::CostParams defaults;
        std::printf("one copy's mean hold on this host (%zu PUs, %zu NUMA nodes)\n",
                    host.pus().size(), static_cast<std::size_t>(host.nodeCount()));
        std::printf(
            "  measured (tree-locks, 1 thread, %llu holds): %7.1f ns, less one clock "
            "read (%.1f ns): %.1f ns\n",
            static_cast<unsigned long long>(m.holds), m.meanHoldNs, m.clockReadNs, measured);
        std::printf("  unlocked work on both sides: %.0f µs per exec, %.0f lines per µs\n",
                    bc.workNsPerExec / 1000, bc.workLinesPerUs);
        std::printf(
            "  load latency measured now (pointer chase, before / after): L1 %.2f / %.2f ns, "
            "L2 %.2f / %.2f ns\n",
            before.l1Ns, after.l1Ns, before.l2Ns, after.l2Ns);
        printRatio("modelled, L1 and L2 hits at their defaults:",
                   modelledHold(host, defaults.cacheL1HitNs, defaults.cacheHitNs, bc, quick),
                   measured);
        printRatio("modelled, L1 and L2 hits measured now:",
                   modelledHold(host, l1Now, l2Now, bc, quick), measured);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "hold_model_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
