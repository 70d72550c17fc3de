#include "sim/ResultMath.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "sim/FileTree.h"

namespace immap::sim {

double execsPerSecond(const std::vector<CopyExecs>& copies, Time from, Time at) {
    if (at <= from) return 0;
    std::uint64_t count = 0;
    for (const CopyExecs& c : copies)
        count += c.count;
    return static_cast<double>(count) * 1e9 / static_cast<double>(at - from);
}

std::uint64_t fewestExecs(const std::vector<CopyExecs>& copies) {
    if (copies.empty()) return 0;
    std::uint64_t fewest = copies.front().count;
    for (const CopyExecs& c : copies)
        fewest = std::min(fewest, c.count);
    return fewest;
}

void CostCounters::writeTo(SimResult& r) const {
    r.lockHolds = holds;
    r.treeOps = treeOps;
    r.nodesPerTreeOp = treeOps ? static_cast<double>(reads) / static_cast<double>(treeOps) : 0;
}

void PhaseClock::set(Phase next, Time t, bool inWindow, Time windowStart) {
    if (phase != Phase::Idle && inWindow) {
        const Time from = std::max(start, windowStart);
        if (t > from) {
            const double d = static_cast<double>(t - from);
            if (phase == Phase::Work)
                workNs += d;
            else if (phase == Phase::Wait)
                waitNs += d;
            else if (phase == Phase::Spin) {
                waitNs += d;
                spinNs += d;
            } else
                holdNs += d;
        }
    }
    phase = next;
    start = t;
}

void PhaseClock::addTo(CpuResult& cpu, Time at, Time from, bool inWindow) const {
    cpu.workNs += workNs;
    cpu.waitNs += waitNs;
    cpu.holdNs += holdNs;
    cpu.spinNs += spinNs;
    const Time since = std::max(start, from);
    if (!inWindow || at <= since) return;
    const double d = static_cast<double>(at - since);
    if (phase == Phase::Work)
        cpu.workNs += d;
    else if (phase == Phase::Wait)
        cpu.waitNs += d;
    else if (phase == Phase::Spin) {
        cpu.waitNs += d;
        cpu.spinNs += d;
    } else if (phase == Phase::Hold)
        cpu.holdNs += d;
}

std::vector<CpuResult> cpuSplit(const std::vector<CopyPlace>& copies, Time at, Time from,
                                bool inWindow) {
    std::vector<CpuResult> out;
    // cpu -> slot, hashed: a trace header may list a million copies (a linear search here
    // made replay quadratic in them).
    std::unordered_map<unsigned, std::size_t> index;
    index.reserve(copies.size());
    for (const CopyPlace& c : copies) {
        const auto [it, added] = index.try_emplace(c.cpu, out.size());
        if (added) out.push_back({c.cpu, c.node, 0, 0, 0, 0, 0});
        CpuResult& cr = out[it->second];
        ++cr.copies;
        c.clock->addTo(cr, at, from, inWindow);
    }
    std::sort(out.begin(), out.end(),
              [](const CpuResult& a, const CpuResult& b) { return a.cpu < b.cpu; });
    return out;
}

void latencyStats(const WaitHistogram& samples, double& mean, double& p99) {
    mean = samples.mean();
    p99 = static_cast<double>(samples.percentile(99));
}

int treeHeight(const itree::IntervalTree& tree) {
    struct Frame {
        const itree::Node* n;
        int depth;
    };
    int height = 0;
    std::vector<Frame> stack;
    if (tree.root()) stack.push_back({tree.root(), 1});
    while (!stack.empty()) {
        const Frame f = stack.back();
        stack.pop_back();
        height = std::max(height, f.depth);
        if (f.n->left()) stack.push_back({f.n->left(), f.depth + 1});
        if (f.n->right()) stack.push_back({f.n->right(), f.depth + 1});
    }
    return height;
}

namespace {

template <class Tree, class Height>
FileResult summarize(const std::string& name, const std::vector<std::unique_ptr<Tree>>& trees,
                     std::uint64_t inserts, std::uint64_t removes, Height height) {
    FileResult fr;
    fr.name = name;
    fr.trees = static_cast<unsigned>(trees.size());
    fr.inserts = inserts;
    fr.removes = removes;
    for (const auto& t : trees) {
        fr.finalVmas += t->size();
        fr.heights.push_back(height(*t));
    }
    return fr;
}

}  // namespace

FileResult summarizeFile(const std::string& name,
                         const std::vector<std::unique_ptr<itree::IntervalTree>>& trees,
                         std::uint64_t inserts, std::uint64_t removes) {
    return summarize(name, trees, inserts, removes,
                     [](const itree::IntervalTree& t) { return treeHeight(t); });
}

FileResult summarizeFile(const std::string& name,
                         const std::vector<std::unique_ptr<FileTree>>& trees, std::uint64_t inserts,
                         std::uint64_t removes) {
    return summarize(name, trees, inserts, removes, [](const FileTree& t) { return t.height(); });
}

}  // namespace immap::sim
