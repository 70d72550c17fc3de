// Benchmark, not a test: how a recipe's cost grows with its number of steps (issue 47 point 8).
// A recipe of N `mmap` steps of one page each on one file, 2 pages apart (no merges), then one
// work step; the next exec's exit_mmap unlinks the N VMAs. Two measurements per N, each against
// the same at N / 4 run in this process, printed as time(N) / time(N / 4):
//   plan: AddressSpace::planSteps over the recipe, its ops applied to a plain itree (what every
//         exec of the simulator does before pricing): O(N log N), so about 4.
//   sim:  the simulator, one copy on a 1-node 2-CPU machine, no walkers; its tree operations are
//         priced by the lines they read, which grow with the tree's depth, so the ratio is 4 x
//         that growth (printed beside it as "lines/op") plus the host's caches.
// Before 2026-12-08 the planner kept the segments in a sorted vector scanned once per step:
// N^2 per exec, 4,000 steps 9.2 s and 25,000 more than 120 s in `immap simulate`.
//   recipe_scale_bench [--quick] [--steps N]    (default N = 4,000; --quick: N = 400, plan only)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "itree/IntervalTree.h"
#include "sim/AddressSpace.h"
#include "sim/Recipe.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

using namespace immap;
using Clock = std::chrono::steady_clock;

namespace {

sim::Recipe mmapRecipe(unsigned n) {
    std::string json =
        R"({"format": "immap-recipe", "version": 1, "name": "n-mmaps", "walker_file": "f",
            "files": [{"name": "f", "mapped_pages": 1}], "steps": [{"op": "exit_mmap"})";
    for (unsigned i = 0; i < n; ++i)
        json += ",{\"op\":\"mmap\",\"file\":\"f\",\"at\":" + std::to_string(2 * i) +
                ",\"pages\":1,\"pgoff\":" + std::to_string(2 * i) + ",\"prot\":\"r\"}";
    json += R"(,{"op": "work", "weight": 1}]})";
    return sim::Recipe::fromJson(json, "generated");
}

// Seconds for `passes` execs of the recipe planned and applied to one tree.
double planSeconds(const sim::Recipe& recipe, unsigned passes) {
    sim::AddressSpace as(0, 0);
    std::uint32_t ids = 1;
    as.setIdSource(&ids);
    as.setTreeOfFile({0});
    itree::IntervalTree tree;
    sim::Plan plan;
    const sim::BatchRule batch;
    const auto t0 = Clock::now();
    for (unsigned p = 0; p < passes; ++p) {
        plan.clear();
        as.planSteps(recipe, batch, plan);
        for (const sim::TreeOp& op : plan.ops)
            sim::applyTreeOp(op, tree, as);
    }
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (tree.size() != recipe.steps.size() - 2) std::printf("  (unexpected tree size)\n");
    return s;
}

struct SimRun {
    double seconds = 0;
    double linesPerOp = 0;
    std::uint64_t holds = 0;
};

SimRun simRun(const sim::Recipe& recipe, const topology::Topology& topo) {
    sim::SimConfig c;
    c.topology = &topo;
    c.recipe = &recipe;
    c.copies = 1;
    c.walkersPerSecond = 0;
    const auto t0 = Clock::now();
    sim::Simulator s(c);
    const sim::SimResult r = s.run();
    SimRun out;
    out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    out.linesPerOp = r.nodesPerTreeOp;
    out.holds = r.lockHolds;
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    bool quick = false;
    unsigned n = 4000;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick")) {
            quick = true;
            n = 400;
        } else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) {
            n = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
        } else {
            std::fprintf(stderr, "usage: recipe_scale_bench [--quick] [--steps N]\n");
            return 2;
        }
    }
    const unsigned base = std::max(1u, n / 4);
    const sim::Recipe small = mmapRecipe(base);
    const sim::Recipe large = mmapRecipe(n);
    // As many execs at both sizes, enough for the small one to take a measurable time; a first
    // pass warms the allocator and the caches.
    const unsigned passes = std::max(20u, 400'000u / base);
    planSeconds(small, 2);
    const double p1 = planSeconds(small, passes);
    const double p4 = planSeconds(large, passes);
    std::printf("plan  %6u steps %8.3f s   %6u steps %8.3f s   ratio %.2f (N log N: about 4)\n",
                base, p1, n, p4, p4 / p1);
    if (quick) return 0;
    const topology::Topology topo = topology::Topology::fromSpec("synthetic:pu:2");
    const SimRun s1 = simRun(small, topo);
    const SimRun s4 = simRun(large, topo);
    std::printf(
        "sim   %6u steps %8.3f s   %6u steps %8.3f s   ratio %.2f; lines/op %.1f -> %.1f, "
        "holds %llu -> %llu: 4 x lines/op growth %.2f\n",
        base, s1.seconds, n, s4.seconds, s4.seconds / s1.seconds, s1.linesPerOp, s4.linesPerOp,
        static_cast<unsigned long long>(s1.holds), static_cast<unsigned long long>(s4.holds),
        4.0 * s4.linesPerOp / s1.linesPerOp);
    return 0;
}
