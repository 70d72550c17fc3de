// The shared lines an exec touches besides i_mmap (SharedLines), each held to a consequence
// worked out by hand: a global line touched K times per exec caps the rate at
// 1 / (K x one transfer); a per-node line caps each node separately; the default recipe's
// touches per exec are the counts read off the kernel's source; v2's vma_count is touched once
// per tree op and only under split-locks; the per-CPU loops cost what the topology's distances
// say; a busy SMT sibling slows unlocked work by smt_thread_share.
#include <QTest>
#include <cmath>
#include <map>

#include "Suites.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

using namespace immap;
using namespace immap::sim;

namespace {

mapping::Policy policy(const char* text) {
    mapping::Policy p;
    std::string error;
    if (!mapping::Policy::parse(text, p, error)) qFatal("%s", error.c_str());
    return p;
}

// One file each copy maps for itself: its lock is never contended, so only the test's line is.
const Recipe& privateRecipe() {
    static const Recipe r = Recipe::fromJson(R"({
  "format": "immap-recipe", "version": 1, "name": "private", "source": "test",
  "walker_file": "a",
  "files": [ { "name": "a", "role": "mine", "per_copy": true } ],
  "steps": [
    { "op": "work", "weight": 1 },
    { "op": "mmap", "file": "a", "at": 0, "pages": 1, "pgoff": 0, "prot": "r" },
    { "op": "munmap", "file": "a", "at": 0, "pages": 1 }
  ]
})",
                                             "private.json");
    return r;
}

SimResult runOne(const topology::Topology& topo, const char* pol, unsigned copies,
                 const CostParams& p, const Recipe* recipe = nullptr,
                 std::vector<ExtraSharedLine> extra = {}, double ms = 20) {
    SimConfig c;
    c.topology = &topo;
    c.policy = policy(pol);
    c.copies = copies;
    c.durationMs = ms;
    c.params = p;
    c.recipe = recipe;
    c.extraSharedLines = std::move(extra);
    return Simulator(c).run();
}

const SharedLineResult* line(const SimResult& r, const std::string& name) {
    for (const SharedLineResult& l : r.sharedLines)
        if (l.name == name) return &l;
    return nullptr;
}

double perExec(const SimResult& r, const std::string& name) {
    const SharedLineResult* l = line(r, name);
    return l ? static_cast<double>(l->touches) / static_cast<double>(r.execs) : -1;
}

}  // namespace

class TestSharedLines : public QObject {
    Q_OBJECT

private slots:
    // K touches per exec of one global line, every copy on its own CPU of one node: once the
    // line is saturated each touch follows another CPU's, so it takes lock_atomic_ns +
    // mem_local_ns, and the copies together run 1 / (K x that) execs per second.
    void oneGlobalLineCapsTheRate() {
        const auto topo = topology::Topology::fromSpec("synthetic:package:1 core:16 pu:1");
        CostParams p;
        p.clearSharedLines();
        p.unlockedNsPerExec = 1'000;  // 16 copies would run 16 M execs/s without the line
        SharedLineKind k;
        k.name = "test line";
        for (unsigned touches : {2u, 4u, 8u}) {
            const SimResult r = runOne(topo, "single", 16, p, &privateRecipe(), {{k, 0, touches}});
            const double cap = 1e9 / (touches * (p.lockAtomicNs + p.memLocalNs));
            QVERIFY2(std::abs(r.execsPerSecond / cap - 1) < 0.02,
                     qPrintable(QString("K=%1: %2 execs/s, cap %3")
                                    .arg(touches)
                                    .arg(r.execsPerSecond)
                                    .arg(cap)));
            QVERIFY(std::abs(perExec(r, "test line") - touches) < 0.05 * touches);
        }
    }

    // The same line with node scope: one instance per node, so two nodes run twice the rate
    // of one, each capped alone (its touches move within the node: mem_local_ns).
    void aNodeLineCapsEachNodeAlone() {
        const auto topo = topology::Topology::fromSpec(
            "synthetic:package:2 numa:1 core:8 pu:1;distances=10:21:21");
        CostParams p;
        p.clearSharedLines();
        p.unlockedNsPerExec = 1'000;
        SharedLineKind k;
        k.name = "node line";
        k.scope = SharedLineKind::Scope::Node;
        const SimResult r = runOne(topo, "single", 16, p, &privateRecipe(), {{k, 0, 4}});
        const double cap = 2 * 1e9 / (4 * (p.lockAtomicNs + p.memLocalNs));
        QVERIFY2(std::abs(r.execsPerSecond / cap - 1) < 0.02,
                 qPrintable(QString("%1 execs/s, cap %2").arg(r.execsPerSecond).arg(cap)));
        // Global scope on the same machine: one line, and half its touches cross the sockets.
        k.scope = SharedLineKind::Scope::Global;
        const SimResult g = runOne(topo, "single", 16, p, &privateRecipe(), {{k, 0, 4}});
        QVERIFY2(g.execsPerSecond < 0.5 * r.execsPerSecond,
                 qPrintable(QString("%1 vs %2").arg(g.execsPerSecond).arg(r.execsPerSecond)));
    }

    // The default recipe's touches per exec are the counts in the parameters' sources
    // (linux-source-6.12): 4 per-CPU-allocator sections, 2 on percpu_counters_lock, 2 on
    // pgd_lock, 4 on binfmt_lock, the executable's i_writecount 4 times and ld.so's twice,
    // every file's dentry twice, and each small folio 3 times (map, unmap, put).
    void defaultTouchesAreTheKernelsCounts() {
        const auto topo = topology::Topology::fromSpec("synthetic:package:1 core:4 pu:1");
        const SimResult r = runOne(topo, "single", 1, CostParams{});
        const std::map<std::string, double> want = {
            {"pcpu_lock", 4},          {"percpu_counters_lock", 2},
            {"pgd_lock", 2},           {"binfmt_lock", 4},
            {"i_writecount execl", 4}, {"i_writecount ld-linux-x86-64.so.2", 2},
            {"dentry execl", 2},       {"dentry libc.so.6", 2},
            {"dentry ld.so.cache", 2}, {"dentry ld-linux-x86-64.so.2", 2},
            {"folio libc.so.6", 3},    {"folio ld-linux-x86-64.so.2", 3},
            {"folio execl", 3},        {"folio ld.so.cache", 3},
            {"per-CPU loops", 4},
        };
        for (const auto& [name, n] : want)
            QVERIFY2(std::abs(perExec(r, name) / n - 1) < 0.01,
                     qPrintable(QString("%1: %2 per exec, want %3")
                                    .arg(QString::fromStdString(name))
                                    .arg(perExec(r, name))
                                    .arg(n)));
        QVERIFY(line(r, "vma_count libc.so.6") == nullptr);  // single has none
        // One copy: every line stays in its CPU's cache after the first exec.
        for (const SharedLineResult& l : r.sharedLines)
            QCOMPARE(l.transfers, std::uint64_t{0});
        // A large folio: libc's 311 pages in one folio take ceil(311 / 16) = 20 head touches
        // to map and 2 to unmap and put; each page's _mapcount still 2.
        CostParams large;
        large.folioPages = 512;
        const SimResult l = runOne(topo, "single", 1, large);
        QVERIFY(std::abs(perExec(l, "folio head libc.so.6") / 22 - 1) < 0.01);
        QVERIFY(std::abs(perExec(l, "page _mapcount libc.so.6") / 2 - 1) < 0.01);
        QVERIFY(line(l, "folio libc.so.6") == nullptr);
    }

    // v2's vma_count: under split-locks only, one touch per link and unlink of the file's VMAs
    // (counted from the event stream), inside the hold.
    void vmaCountIsSplitLocksOnlyAndOncePerTreeOp() {
        const auto topo = topology::Topology::fromSpec(
            "synthetic:package:2 numa:1 core:4 pu:1;distances=10:21:21");
        struct Ops final : SimObserver {
            bool window = false;
            std::map<int, std::uint64_t> perFile;
            void onEvent(const SimEvent& e) override {
                if (e.kind == SimEvent::WindowStart) window = true;
                if (window && (e.kind == SimEvent::TreeInsert || e.kind == SimEvent::TreeRemove))
                    ++perFile[e.file];
            }
        };
        for (const char* pol : {"single", "split-trees", "sharded:4", "split-locks"}) {
            Ops ops;
            SimConfig c;
            c.topology = &topo;
            c.policy = policy(pol);
            c.copies = 1;
            c.durationMs = 20;
            c.observer = &ops;
            const SimResult r = Simulator(c).run();
            const SharedLineResult* v = line(r, "vma_count libc.so.6");
            if (std::string(pol) != "split-locks") {
                QVERIFY2(v == nullptr, pol);
                continue;
            }
            QVERIFY(v != nullptr);
            const int libc = Recipe::builtinDefault().fileIndex("libc.so.6");
            QVERIFY(ops.perFile[libc] > 0);
            QCOMPARE(v->touches, ops.perFile[libc]);
        }
    }

    // The per-CPU loops read one line per possible CPU per line of percpu_loop_lines_per_cpu,
    // from memory homed on each CPU's node, percpu_loop_mlp at a time. Two sockets of 8 CPUs
    // at SLIT 21: from node 0, 8 x 50 + 8 x (50 + 11 x 6.4) = 1,363.2 ns for one line on every
    // CPU; 4 lines at 8 in flight: 681.6 ns per exec.
    void perCpuLoopsCostWhatTheDistancesSay() {
        const auto topo = topology::Topology::fromSpec(
            "synthetic:package:2 numa:1 core:8 pu:1;distances=10:21:21");
        const SimResult r = runOne(topo, "single", 1, CostParams{});
        const SharedLineResult* l = line(r, "per-CPU loops");
        QVERIFY(l != nullptr);
        const double ns = l->delayNs / static_cast<double>(r.execs);
        QVERIFY2(std::abs(ns - 681.6) < 2, qPrintable(QString::number(ns)));
    }

    // SMT: copies take the first thread of every core first, so 2 copies on 2 cores of 2 threads
    // run at full speed; 4 copies share the cores, and unlocked work (almost all of an exec
    // here) runs at smt_thread_share of its speed.
    void smtSiblingsShareACore() {
        const auto topo = topology::Topology::fromSpec("synthetic:package:1 core:2 pu:2");
        CostParams p;
        p.clearSharedLines();
        p.smtThreadShare = 0.6;
        const SimResult two = runOne(topo, "single", 2, p, &privateRecipe());
        const SimResult four = runOne(topo, "single", 4, p, &privateRecipe());
        const double perCopy2 = two.execsPerSecond / 2, perCopy4 = four.execsPerSecond / 4;
        QVERIFY2(std::abs(perCopy4 / perCopy2 - 0.6) < 0.02,
                 qPrintable(QString("%1 vs %2").arg(perCopy4).arg(perCopy2)));
        p.smtThreadShare = 1;
        const SimResult off = runOne(topo, "single", 4, p, &privateRecipe());
        QVERIFY(std::abs(off.execsPerSecond / 4 / perCopy2 - 1) < 0.02);
    }
};

IMMAP_TEST_SUITE(TestSharedLines);
#include "TestSharedLines.moc"
