#include "measure/TouchCostBench.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>

#include "itree/IntervalTree.h"
#include "itree/TouchObserver.h"

namespace immap::measure {

namespace {

struct Counter final : itree::TouchObserver {
    std::uint64_t reads = 0;
    void read(const itree::Node*) override { ++reads; }
    void write(const itree::Node*) override {}
};

TouchCostPoint measure(std::size_t n, std::size_t ops, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::unique_ptr<itree::Node>> nodes;
    itree::IntervalTree tree;
    for (std::size_t i = 0; i < n; ++i) {
        // A shared library's i_mmap: every process maps the same few segments, so the tree
        // holds a handful of keys many times over (libc.so.6: 5 segments).
        static constexpr itree::Index kSeg[5][2] = {
            {0, 0x27}, {0x28, 0x1ad}, {0x17c, 0x1d0}, {0x1d1, 0x1d4}, {0x1d5, 0x1d6}};
        const auto& k = kSeg[rng() % 5];
        nodes.push_back(std::make_unique<itree::Node>(k[0], k[1]));
        tree.insert(nodes.back().get());
    }
    std::vector<std::size_t> order(ops);
    for (auto& o : order)
        o = rng() % n;
    auto pass = [&] {
        for (std::size_t i : order) {
            tree.remove(nodes[i].get());
            tree.insert(nodes[i].get());
        }
    };
    pass();  // warm: every line this CPU's
    double best = 1e300;
    for (int rep = 0; rep < 5; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        pass();
        const auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count());
    }
    Counter c;
    tree.setObserver(&c);
    pass();
    tree.setObserver(nullptr);
    const double perOp = 2.0 * static_cast<double>(std::max<std::size_t>(ops, 1));
    return {n, static_cast<double>(c.reads) / perOp, best / perOp};
}

}  // namespace

TouchCostResult TouchCostBench::run(std::size_t opsPerSize) {
    TouchCostResult r;
    for (std::size_t n : {16u, 64u, 256u, 1024u, 4096u})
        r.points.push_back(measure(n, opsPerSize, 7));
    double mx = 0, my = 0;
    for (const TouchCostPoint& p : r.points) {
        mx += p.readsPerOp;
        my += p.nsPerOp;
    }
    const auto count = static_cast<double>(r.points.size());
    mx /= count;
    my /= count;
    double sxy = 0, sxx = 0;
    for (const TouchCostPoint& p : r.points) {
        sxy += (p.readsPerOp - mx) * (p.nsPerOp - my);
        sxx += (p.readsPerOp - mx) * (p.readsPerOp - mx);
    }
    r.slopeNsPerRead = sxx > 0 ? sxy / sxx : 0;
    r.interceptNsPerOp = my - r.slopeNsPerRead * mx;
    // The intercept comes out near zero or below (reads of a node the update has just read cost
    // almost nothing, and the count includes them), so the all-in cost per read is the figure.
    const TouchCostPoint& a = r.points[3];
    const TouchCostPoint& b = r.points[4];
    r.allInNsPerRead = (a.nsPerOp / a.readsPerOp + b.nsPerOp / b.readsPerOp) / 2;
    return r;
}

}  // namespace immap::measure
