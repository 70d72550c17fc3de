// Benchmark, not a test: the B-tree interval index (core/btree) against the kernel's rbtree
// (core/itree) on the same libc-shaped i_mmap, in one process, alternating the two: N VMAs
// (N/5 processes mapping libc's five segments) built untimed, then exec/exit churn (five
// removes, five inserts per cycle) and stabbing queries (one page, as an rmap walk of it).
// Prints ns per insert, remove, query and query result, the cache lines each op touches
// (counted in the code: the rbtree's nodes as its query and update hooks report them, the
// B-tree's array ranges and the items' back pointers it writes), and bytes per VMA. Each
// structure's VMA is a 192-byte object (about a vm_area_struct) holding both the rb node and
// the B-tree item, so that the rbtree's nodes are spread as the kernel's are.
//   btree_bench [--quick] [--vmas N[,N...]] [--cycles C] [--queries Q] [--reps R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "btree/IntervalBTree.h"
#include "btree/LineCounter.h"
#include "itree/BenchClock.h"
#include "itree/IntervalQuery.h"
#include "itree/IntervalTree.h"
#include "itree/LibcChurn.h"
#include "itree/TouchObserver.h"

using namespace immap;
using Clock = itree::BenchClock;

namespace {

struct alignas(64) FakeVma {
    itree::Node rb;
    btree::Item b;
    char rest[192 - sizeof(itree::Node) - sizeof(btree::Item)];
};
static_assert(sizeof(FakeVma) == 192);

struct Op {
    bool insert;
    std::uint32_t slot;
    itree::Index start, last;
};

double ns(Clock::time_point a, Clock::time_point b) {
    return itree::nsBetween(a, b);
}
using itree::median;

// The rbtree's touched lines: every node its update or query hook reports, as a line.
class RbLines : public itree::TouchObserver {
public:
    btree::LineCounter lines;
    void read(const itree::Node* n) override { lines.touch(n, sizeof(itree::Node)); }
    void write(const itree::Node* n) override { lines.touch(n, sizeof(itree::Node)); }
};

struct Figures {
    std::vector<double> insert, remove, query, perResult;
};

struct Workload {
    std::vector<Op> build, churn;
    std::vector<itree::Index> pages;
    std::size_t slots = 0;
};

Workload workload(std::size_t vmas, std::size_t cycles, std::size_t queries) {
    const auto script = itree::LibcChurn::generate(vmas / 5, cycles, 42);
    Workload w;
    for (const auto& s : script) {
        const bool insert = s.kind == itree::ScriptOp::Kind::Insert;
        Op op{insert, static_cast<std::uint32_t>(s.id - 1), s.start, s.last};
        w.slots = std::max<std::size_t>(w.slots, s.id);
        (w.build.size() < vmas ? w.build : w.churn).push_back(op);
    }
    std::mt19937_64 rng(7);
    for (std::size_t q = 0; q < queries; ++q)
        w.pages.push_back(std::uniform_int_distribution<itree::Index>(0, 0x1d4)(rng));
    return w;
}

// One repetition on either structure: build untimed, churn timed by runs of one kind, queries
// timed one by one.
template <class S>
void repetition(S& s, const Workload& w, double overhead, Figures& f) {
    for (const Op& op : w.build)
        s.insert(op);
    double insNs = 0, remNs = 0;
    std::size_t ins = 0, rem = 0;
    for (std::size_t i = 0; i < w.churn.size();) {
        std::size_t j = i;
        while (j < w.churn.size() && w.churn[j].insert == w.churn[i].insert)
            ++j;
        const auto a = Clock::now();
        for (std::size_t k = i; k < j; ++k)
            w.churn[i].insert ? s.insert(w.churn[k]) : s.remove(w.churn[k]);
        const auto b = Clock::now();
        (w.churn[i].insert ? insNs : remNs) += std::max(0.0, ns(a, b) - overhead);
        (w.churn[i].insert ? ins : rem) += j - i;
        i = j;
    }
    double qNs = 0;
    std::size_t results = 0;
    for (itree::Index p : w.pages) {
        const auto a = Clock::now();
        results += s.query(p);
        const auto b = Clock::now();
        qNs += ns(a, b) - overhead;
    }
    f.insert.push_back(insNs / static_cast<double>(std::max<std::size_t>(ins, 1)));
    f.remove.push_back(remNs / static_cast<double>(std::max<std::size_t>(rem, 1)));
    f.query.push_back(qNs / static_cast<double>(std::max<std::size_t>(w.pages.size(), 1)));
    f.perResult.push_back(qNs / static_cast<double>(std::max<std::size_t>(results, 1)));
    s.reset();
}

struct RbUnderTest {
    std::vector<FakeVma>& vmas;
    itree::IntervalTree tree;
    void insert(const Op& op) {
        itree::Node& n = vmas[op.slot].rb;
        n.start = op.start;
        n.last = op.last;
        tree.insert(&n);
    }
    void remove(const Op& op) { tree.remove(&vmas[op.slot].rb); }
    std::size_t query(itree::Index p) {
        std::size_t n = 0;
        auto none = [](const itree::Node*) {};
        for (itree::Node* x = itree::queryFirst(tree, p, p, none); x;
             x = itree::queryNext(x, p, p, none))
            ++n;
        return n;
    }
    void reset() { tree.clear(); }
};

struct BUnderTest {
    std::vector<FakeVma>& vmas;
    std::unique_ptr<btree::IntervalBTree> tree = std::make_unique<btree::IntervalBTree>();
    void insert(const Op& op) {
        btree::Item& it = vmas[op.slot].b;
        it.start = op.start;
        it.last = op.last;
        tree->insert(&it);
    }
    void remove(const Op& op) { tree->remove(&vmas[op.slot].b); }
    std::size_t query(itree::Index p) {
        std::size_t n = 0;
        tree->forOverlapping(p, p, [&](btree::Item*) { ++n; });
        return n;
    }
    void reset() { tree = std::make_unique<btree::IntervalBTree>(); }
};

struct Lines {
    double insert = 0, remove = 0, query = 0, backPointers = 0;
};

// Lines per op over the first `sample` churn ops and every query, untimed.
Lines rbLines(std::vector<FakeVma>& vmas, const Workload& w, std::size_t sample) {
    RbUnderTest s{vmas, {}};
    for (const Op& op : w.build)
        s.insert(op);
    RbLines obs;
    s.tree.setObserver(&obs);
    Lines out;
    std::size_t ins = 0, rem = 0;
    for (std::size_t i = 0; i < std::min(sample, w.churn.size()); ++i) {
        obs.lines.reset();
        w.churn[i].insert ? s.insert(w.churn[i]) : s.remove(w.churn[i]);
        (w.churn[i].insert ? out.insert : out.remove) += static_cast<double>(obs.lines.lines());
        ++(w.churn[i].insert ? ins : rem);
    }
    s.tree.setObserver(nullptr);
    for (itree::Index p : w.pages) {
        obs.lines.reset();
        auto visit = [&](const itree::Node* n) { obs.read(n); };
        for (itree::Node* x = itree::queryFirst(s.tree, p, p, visit); x;
             x = itree::queryNext(x, p, p, visit))
            obs.read(x);
        out.query += static_cast<double>(obs.lines.lines());
    }
    out.insert /= static_cast<double>(std::max<std::size_t>(ins, 1));
    out.remove /= static_cast<double>(std::max<std::size_t>(rem, 1));
    out.query /= static_cast<double>(std::max<std::size_t>(w.pages.size(), 1));
    s.reset();
    return out;
}

Lines bLines(std::vector<FakeVma>& vmas, const Workload& w, std::size_t sample,
             std::size_t& bytes) {
    BUnderTest s{vmas};
    for (const Op& op : w.build)
        s.insert(op);
    bytes = s.tree->bytes();
    btree::LineCounter c;
    s.tree->setObserver(&c);
    Lines out;
    std::size_t ins = 0, rem = 0, moved = 0;
    for (std::size_t i = 0; i < std::min(sample, w.churn.size()); ++i) {
        c.reset();
        w.churn[i].insert ? s.insert(w.churn[i]) : s.remove(w.churn[i]);
        (w.churn[i].insert ? out.insert : out.remove) += static_cast<double>(c.lines());
        moved += c.backPointers();
        ++(w.churn[i].insert ? ins : rem);
    }
    for (itree::Index p : w.pages) {
        c.reset();
        s.query(p);
        out.query += static_cast<double>(c.lines());
    }
    s.tree->setObserver(nullptr);
    out.insert /= static_cast<double>(std::max<std::size_t>(ins, 1));
    out.remove /= static_cast<double>(std::max<std::size_t>(rem, 1));
    out.query /= static_cast<double>(std::max<std::size_t>(w.pages.size(), 1));
    out.backPointers =
        static_cast<double>(moved) / static_cast<double>(std::max<std::size_t>(ins + rem, 1));
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> sizes = {6000, 100000, 1000000};
    std::size_t cycles = 20000, queries = 40, reps = 3;
    for (int i = 1; i < argc; ++i) {
        const bool more = i + 1 < argc;
        if (!std::strcmp(argv[i], "--quick")) {
            sizes = {6000};
            cycles = 500;
            queries = 4;
            reps = 1;
        } else if (!std::strcmp(argv[i], "--vmas") && more) {
            sizes.clear();
            for (char* p = argv[++i]; *p;) {
                sizes.push_back(std::strtoull(p, &p, 10));
                if (*p == ',') ++p;
            }
        } else if (!std::strcmp(argv[i], "--cycles") && more) {
            cycles = std::strtoull(argv[++i], nullptr, 10);
        } else if (!std::strcmp(argv[i], "--queries") && more) {
            queries = std::strtoull(argv[++i], nullptr, 10);
        } else if (!std::strcmp(argv[i], "--reps") && more) {
            reps = std::strtoull(argv[++i], nullptr, 10);
        } else {
            std::fprintf(stderr,
                         "usage: btree_bench [--quick] [--vmas N[,N...]] [--cycles C] "
                         "[--queries Q] [--reps R]\n");
            return 2;
        }
    }
    const double overhead = itree::clockOverheadNs();
    std::printf(
        "libc-shaped i_mmap, %zu exec/exit cycles (%zu ops), %zu one-page queries, "
        "%zu repetitions alternating the two, medians; B-tree fanout %d\n",
        cycles, cycles * 10, queries, reps, btree::kFanout);
    std::printf("%-9s %-6s %10s %10s %12s %10s | %8s %8s %8s %6s | %8s\n", "VMAs", "index",
                "ns/insert", "ns/remove", "ns/query", "ns/result", "ln/ins", "ln/rem", "ln/query",
                "bp/op", "B/VMA");
    for (std::size_t n : sizes) {
        const Workload w = workload(n, cycles, queries);
        std::vector<FakeVma> vmas(w.slots);
        Figures rb, bt;
        for (std::size_t r = 0; r < reps; ++r) {
            RbUnderTest a{vmas, {}};
            repetition(a, w, overhead, rb);
            BUnderTest b{vmas};
            repetition(b, w, overhead, bt);
        }
        std::size_t bytes = 0;
        const Lines rl = rbLines(vmas, w, 20000);
        const Lines bl = bLines(vmas, w, 20000, bytes);
        // The rbtree adds its 32 bytes of linkage to each VMA; the B-tree its nodes (which
        // copy the interval) and the item's back pointer.
        const double rbBytes = static_cast<double>(itree::kLinkageBytes);
        const double bBytes = static_cast<double>(bytes) / static_cast<double>(n) + sizeof(void*);
        auto row = [&](const char* name, const Figures& f, const Lines& l, double b) {
            std::printf(
                "%-9zu %-6s %10.1f %10.1f %12.0f %10.2f | %8.1f %8.1f %8.1f %6.2f | %8.1f\n", n,
                name, median(f.insert), median(f.remove), median(f.query), median(f.perResult),
                l.insert, l.remove, l.query, l.backPointers, b);
        };
        row("rbtree", rb, rl, rbBytes);
        row("btree", bt, bl, bBytes);
        std::printf("%-9zu %-6s %10.2f %10.2f %12.2f %10.2f   (rbtree ns / B-tree ns)\n", n,
                    "ratio", median(rb.insert) / median(bt.insert),
                    median(rb.remove) / median(bt.remove), median(rb.query) / median(bt.query),
                    median(rb.perResult) / median(bt.perResult));
        std::fflush(stdout);
    }
    return 0;
}
