#include "TreeBench.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <unordered_map>

#include "BenchClock.h"
#include "IntervalTree.h"

namespace immap::itree {

namespace {

using Clock = BenchClock;

struct BenchOp {
    bool insert;
    std::uint32_t slot;
    Index start;
    Index last;
};

struct Run {
    std::size_t begin, end;
    bool insert;
};

// One structure under test: insert(op), remove(op), reset().
template <class S>
struct Timings {
    std::vector<double> whole, ins, rem;  // per repetition: ns/op
    double seconds = 0;

    void repetition(S& s, const std::vector<BenchOp>& ops, std::size_t prefix,
                    const std::vector<Run>& runs, std::size_t inserts, std::size_t removes,
                    double overhead) {
        auto build = [&] {
            for (std::size_t i = 0; i < prefix; ++i)
                ops[i].insert ? s.insert(ops[i]) : s.remove(ops[i]);
        };
        build();
        auto t0 = Clock::now();
        for (std::size_t i = prefix; i < ops.size(); ++i)
            ops[i].insert ? s.insert(ops[i]) : s.remove(ops[i]);
        auto t1 = Clock::now();
        s.reset();
        whole.push_back(nsBetween(t0, t1) / static_cast<double>(inserts + removes));
        seconds += nsBetween(t0, t1) * 1e-9;

        build();
        double insNs = 0, remNs = 0;
        for (const Run& r : runs) {
            auto a = Clock::now();
            for (std::size_t i = r.begin; i < r.end; ++i)
                r.insert ? s.insert(ops[i]) : s.remove(ops[i]);
            auto b = Clock::now();
            (r.insert ? insNs : remNs) += std::max(0.0, nsBetween(a, b) - overhead);
        }
        s.reset();
        if (inserts) ins.push_back(insNs / inserts);
        if (removes) rem.push_back(remNs / removes);
    }
    BenchFigures figures() const { return {median(ins), median(rem), median(whole)}; }
};

struct TreeUnderTest {
    IntervalTree tree;
    std::unique_ptr<Node[]> nodes;
    explicit TreeUnderTest(std::size_t slots) : nodes(new Node[slots]) {}
    void insert(const BenchOp& op) {
        Node& n = nodes[op.slot];
        n.start = op.start;
        n.last = op.last;
        tree.insert(&n);
    }
    void remove(const BenchOp& op) { tree.remove(&nodes[op.slot]); }
    void reset() { tree.clear(); }
};

struct MultimapUnderTest {
    using Map = std::multimap<std::pair<unsigned long, unsigned long>, unsigned>;
    Map map;
    std::vector<Map::iterator> where;
    explicit MultimapUnderTest(std::size_t slots) : where(slots) {}
    void insert(const BenchOp& op) {
        where[op.slot] = map.emplace(std::pair(op.start, op.last), op.slot);
    }
    void remove(const BenchOp& op) { map.erase(where[op.slot]); }
    void reset() { map.clear(); }
};

}  // namespace

bool TreeBench::run(const std::vector<ScriptOp>& script, const BenchOptions& options,
                    BenchResult& result, std::string& error) {
    // Give every script ID a dense slot and check the sequence is valid.
    std::vector<BenchOp> ops;
    std::unordered_map<std::uint64_t, std::uint32_t> slotOf;
    std::vector<bool> live;
    result = BenchResult{};
    for (std::size_t i = 0; i < script.size(); ++i) {
        const ScriptOp& s = script[i];
        if (s.kind != ScriptOp::Kind::Insert && s.kind != ScriptOp::Kind::Remove) continue;
        auto [it, fresh] = slotOf.try_emplace(s.id, static_cast<std::uint32_t>(live.size()));
        if (fresh) live.push_back(false);
        const bool insert = s.kind == ScriptOp::Kind::Insert;
        if (live[it->second] == insert) {
            error = "op " + std::to_string(i + 1) + ": " +
                    (insert ? "insert of live ID " : "remove of unknown ID ") +
                    std::to_string(s.id);
            return false;
        }
        live[it->second] = insert;
        if (ops.size() >= options.untimedPrefix) ++(insert ? result.inserts : result.removes);
        ops.push_back({insert, it->second, s.start, s.last});
    }
    const std::size_t prefix = options.untimedPrefix;
    if (ops.size() <= prefix) {
        error = "no insert or remove ops to time";
        return false;
    }
    std::vector<Run> runs;
    for (std::size_t i = prefix; i < ops.size(); ++i) {
        if (runs.empty() || runs.back().insert != ops[i].insert)
            runs.push_back({i, i, ops[i].insert});
        runs.back().end = i + 1;
    }

    const double overhead = clockOverheadNs();
    TreeUnderTest tree(live.size());
    MultimapUnderTest map(live.size());
    Timings<TreeUnderTest> tt;
    Timings<MultimapUnderTest> mt;
    while (result.repetitions < 3 || tt.seconds < options.minSeconds ||
           mt.seconds < options.minSeconds) {
        tt.repetition(tree, ops, prefix, runs, result.inserts, result.removes, overhead);
        mt.repetition(map, ops, prefix, runs, result.inserts, result.removes, overhead);
        ++result.repetitions;
    }
    result.itree = tt.figures();
    result.multimap = mt.figures();
    result.ratio = result.multimap.nsPerOp > 0 ? result.itree.nsPerOp / result.multimap.nsPerOp : 0;
    return true;
}

}  // namespace immap::itree
