// Benchmark, not a test: one uncontended copy's mean i_mmap hold, measured and modelled on this
// host at the same time. Measured: TreeLockBench's one pinned thread running the recipe's holds
// on real itree trees (the hold is the tree work between lock and unlock). Modelled: the
// simulator's one copy on this host's topology, with the hold's non-tree work (split_store_ns,
// anon_vma_lock_ns) set to 0 and the release's atomic taken off, so that both time the same
// thing. Prints both and their ratio (issue 17: within 30%).
//   hold_model_bench [--quick]
#include <cstdio>
#include <cstring>
#include <exception>

#include "measure/TreeLockBench.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

using namespace immap;

int main(int argc, char** argv) {
    const bool quick = argc > 1 && !std::strcmp(argv[1], "--quick");
    try {
        const topology::Topology host = topology::Topology::fromSpec("host");
        measure::TreeLockBenchConfig bc;
        bc.topology = &host;
        bc.seconds = quick ? 0.05 : 2;
        const measure::TreeLockResult m = measure::TreeLockBench::run(bc);

        sim::SimConfig sc;
        sc.topology = &host;
        sc.copies = 1;
        sc.durationMs = quick ? 10 : 1000;
        sc.params.splitStoreNs = 0;
        sc.params.anonVmaLockNs = 0;
        const sim::SimResult r = sim::Simulator(sc).run();
        double holdNs = 0;
        std::uint64_t holds = 0;
        for (const sim::LockResult& l : r.locks) {
            holdNs += l.stats.meanHold * static_cast<double>(l.stats.holds);
            holds += l.stats.holds;
        }
        const double model =
            (holds ? holdNs / static_cast<double>(holds) : 0) - sc.params.lockAtomicNs;
        std::printf("one copy's mean hold on this host (%zu PUs, %zu NUMA nodes)\n",
                    host.pus().size(), static_cast<std::size_t>(host.nodeCount()));
        std::printf("  measured (tree-locks, 1 thread, %llu holds): %7.1f ns\n",
                    static_cast<unsigned long long>(m.holds), m.meanHoldNs);
        std::printf("  modelled (simulate, 1 copy, %llu holds):     %7.1f ns\n",
                    static_cast<unsigned long long>(holds), model);
        const double ratio = m.meanHoldNs > 0 ? model / m.meanHoldNs : 0;
        std::printf("ratio model/measured: %.2f (%s 30%%)\n", ratio,
                    ratio >= 0.7 && ratio <= 1.3 ? "within" : "NOT within");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "hold_model_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
