// The btree policies (issue 20, point 4): the simulator runs the B-tree interval index in
// place of the rbtree and prices its real touched lines through the same cache-state model.
// One copy on one CPU makes the model's price of a hold a hand count: a line costs
// mem_local_ns the first time the CPU touches it, unless the CPU made it (a new VMA, a new
// node), and nothing after (no other CPU takes it back, hits are set to 0). The test replays
// the run's tree operations (from its event stream) on its own index, counts those first
// touches with its own bookkeeping, and asks every hold to last exactly its ops' tree_op_ns
// plus mem_local_ns per first touch. The same for the rbtree, with nodes that are VMAs.
#include <QTest>
#include <map>
#include <memory>
#include <set>
#include <unordered_set>

#include "Suites.h"
#include "btree/IntervalBTree.h"
#include "btree/TouchObserver.h"
#include "itree/IntervalTree.h"
#include "itree/TouchObserver.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

using namespace immap;
using namespace immap::sim;

namespace {

constexpr double kMissNs = 1000;
constexpr double kOpNs = 7;
constexpr double kAtomicNs = 1;

const topology::Topology& oneCore() {
    static const topology::Topology t =
        topology::Topology::fromSpec("synthetic:package:1 core:1 pu:1");
    return t;
}

mapping::Policy policyOf(const char* text) {
    mapping::Policy p;
    std::string error;
    if (!mapping::Policy::parse(text, p, error)) qFatal("%s", error.c_str());
    return p;
}

// A VMA of the replay: in either structure, named by the simulator's VMA id.
struct ReplayVma : itree::Node, btree::Item {
    using itree::Node::last;
    using itree::Node::start;
    std::uint32_t id = 0;
};

// First touches, by the rule above, with its own sets of held lines and held VMAs.
struct FirstTouches final : itree::TouchObserver, btree::TouchObserver {
    bool timed = false;  // set-up touches are not priced and leave nothing held
    std::uint64_t misses = 0;
    std::unordered_set<std::uintptr_t> lines;  // node lines the CPU holds
    std::unordered_set<std::uint32_t> vmas;    // VMA lines the CPU holds

    void vma(std::uint32_t id) {
        if (timed && vmas.insert(id).second) ++misses;
    }
    void range(const void* p, std::size_t bytes, bool made) {
        const auto a = reinterpret_cast<std::uintptr_t>(p) >> 6;
        const auto b = (reinterpret_cast<std::uintptr_t>(p) + bytes - 1) >> 6;
        for (auto l = a; l <= b; ++l) {
            if (made) {
                timed ? (void)lines.insert(l) : (void)lines.erase(l);
            } else if (timed && lines.insert(l).second) {
                ++misses;
            }
        }
    }
    void read(const itree::Node* n) override { vma(static_cast<const ReplayVma*>(n)->id); }
    void write(const itree::Node* n) override { vma(static_cast<const ReplayVma*>(n)->id); }
    void read(const void* p, std::size_t bytes) override { range(p, bytes, false); }
    void write(const void* p, std::size_t bytes) override { range(p, bytes, false); }
    void readItem(const btree::Item* i) override { vma(static_cast<const ReplayVma*>(i)->id); }
    void backPointer(const btree::Item* i) override { vma(static_cast<const ReplayVma*>(i)->id); }
    void created(const void* p, std::size_t bytes) override { range(p, bytes, true); }
};

// The coherence rules of docs/simulator.md ("Pricing by the real path and by cache state"),
// kept per line with plain sets: the holders, the last writer, whether another CPU read it
// since. Counts what CacheModel counts (hits of any level, transfers, memory reads, upgrades).
struct Coherence final : itree::TouchObserver, btree::TouchObserver {
    struct Line {
        std::set<int> holders;
        int writer = -1;
        bool shared = false;
    };
    bool timed = false;
    int cpu = -1;
    std::uint64_t hits = 0, transfers = 0, memory = 0, upgrades = 0;
    std::map<std::uintptr_t, Line> lines;  // node lines, by address / 64
    std::map<std::uint32_t, Line> vmas;    // VMA lines, by id

    void fetch(const Line& l) {
        const bool fromCache = l.writer >= 0 && l.writer != cpu && l.holders.count(l.writer);
        ++(fromCache ? transfers : memory);
    }
    void own(Line& l) {
        l.holders = {cpu};
        l.writer = cpu;
        l.shared = false;
    }
    void read(Line& l) {
        if (!timed) return;
        if (l.holders.count(cpu)) {
            ++hits;
            return;
        }
        fetch(l);
        if (l.writer < 0)
            l.writer = cpu;
        else if (l.writer != cpu)
            l.shared = true;
        l.holders.insert(cpu);
    }
    void write(Line& l) {
        if (!timed) return;
        if (l.writer == cpu && !l.shared) return;
        if (!l.holders.count(cpu))
            fetch(l);
        else
            ++upgrades;
        own(l);
    }
    template <class F>
    void eachLine(const void* p, std::size_t bytes, F f) {
        const auto a = reinterpret_cast<std::uintptr_t>(p) >> 6;
        const auto b = (reinterpret_cast<std::uintptr_t>(p) + bytes - 1) >> 6;
        for (auto l = a; l <= b; ++l)
            f(lines[l]);
    }
    Line& vma(const void* v) { return vmas[static_cast<const ReplayVma*>(v)->id]; }
    void read(const itree::Node* n) override { read(vma(static_cast<const ReplayVma*>(n))); }
    void write(const itree::Node* n) override { write(vma(static_cast<const ReplayVma*>(n))); }
    void read(const void* p, std::size_t bytes) override {
        eachLine(p, bytes, [&](Line& l) { read(l); });
    }
    void write(const void* p, std::size_t bytes) override {
        eachLine(p, bytes, [&](Line& l) { write(l); });
    }
    void readItem(const btree::Item* i) override { read(vma(static_cast<const ReplayVma*>(i))); }
    void backPointer(const btree::Item* i) override {
        write(vma(static_cast<const ReplayVma*>(i)));
    }
    // A node made in the run is its maker's (preallocated, zeroed); in the set-up, memory's.
    void created(const void* p, std::size_t bytes) override {
        eachLine(p, bytes, [&](Line& l) {
            l = Line{};
            if (timed) own(l);
        });
    }
};

// Replays the run's tree operations as they are reported, hold by hold.
struct Replay final : SimObserver {
    explicit Replay(bool btree, bool coherent = false) : btree(btree), coherent(coherent) {}
    bool btree;
    bool coherent;  // observe with Coherence instead of FirstTouches
    FirstTouches touches;
    Coherence states;
    std::map<std::pair<int, int>, std::unique_ptr<itree::IntervalTree>> rb;
    std::map<std::pair<int, int>, std::unique_ptr<btree::IntervalBTree>> bt;
    std::map<std::uint32_t, std::unique_ptr<ReplayVma>> live;
    // Holds: (duration in ns, expected ns).
    std::vector<std::pair<std::int64_t, double>> holds;
    std::int64_t acquiredAt = 0;
    std::uint64_t missesAtAcquire = 0;
    int ops = 0;

    void apply(const SimEvent& e) {
        const std::pair<int, int> key{e.file, e.tree};
        if (btree && !bt[key]) {
            bt[key] = std::make_unique<btree::IntervalBTree>();
            bt[key]->setObserver(coherent ? static_cast<btree::TouchObserver*>(&states) : &touches);
        }
        if (!btree && !rb[key]) {
            rb[key] = std::make_unique<itree::IntervalTree>();
            rb[key]->setObserver(coherent ? static_cast<itree::TouchObserver*>(&states) : &touches);
        }
        states.cpu = e.cpu;
        if (e.kind == SimEvent::TreeInsert) {
            auto& v = live[e.vma];
            if (!v) {
                v = std::make_unique<ReplayVma>();
                v->id = e.vma;
                // A VMA its own process maps is that CPU's line from the start (vm_area_alloc
                // and the fields' initialisation); a background process's is in memory.
                if (e.agent >= 0) {
                    touches.vmas.insert(e.vma);
                    states.own(states.vmas[e.vma]);
                }
            }
            v->itree::Node::start = v->btree::Item::start = e.start;
            v->itree::Node::last = v->btree::Item::last = e.last;
            btree ? bt[key]->insert(v.get()) : rb[key]->insert(v.get());
        } else {
            ReplayVma* v = live.at(e.vma).get();
            btree ? bt[key]->remove(v) : rb[key]->remove(v);
        }
    }
    void onEvent(const SimEvent& e) override {
        switch (e.kind) {
            case SimEvent::LockAcquire:
                touches.timed = states.timed = true;
                acquiredAt = e.time;
                missesAtAcquire = touches.misses;
                ops = 0;
                break;
            case SimEvent::TreeInsert:
            case SimEvent::TreeRemove:
                apply(e);
                ++ops;
                break;
            case SimEvent::LockRelease:
                holds.emplace_back(
                    e.time - acquiredAt,
                    2 * kAtomicNs + ops * kOpNs +
                        kMissNs * static_cast<double>(touches.misses - missesAtAcquire));
                break;
            default:
                break;
        }
    }
};

// Memory at kMissNs wherever it is, hits free, nothing in the hold but the tree operations.
CostParams handPriced() {
    CostParams p;
    p.memLocalNs = kMissNs;
    p.memPerDistanceNs = 0;
    p.cacheHitNs = 0;
    p.cacheL1HitNs = 0;
    p.treeOpNs = kOpNs;
    p.lockAtomicNs = kAtomicNs;  // its least: a hold lasts 2 ns more (the acquire's and release's)
    p.splitStoreNs = 0;
    p.anonVmaLockNs = 0;
    p.unlockedNsPerExec = 100'000;
    p.backgroundProcesses = 400;  // libc's tree: 2,000 VMAs, a B-tree of three levels
    p.clearSharedLines();
    return p;
}

SimResult runReplayed(const char* policy, Replay& replay) {
    SimConfig c;
    c.topology = &oneCore();
    c.policy = policyOf(policy);
    c.copies = 1;
    c.durationMs = 30;
    c.params = handPriced();
    c.observer = &replay;
    return Simulator(c).run();
}

}  // namespace

class TestBTreePolicy : public QObject {
    Q_OBJECT

private slots:
    void parsesAndNames() {
        for (const char* name : {"btree", "btree+split-trees", "btree+split-locks",
                                 "btree+sharded:32", "btree+no-rmap"}) {
            const mapping::Policy p = policyOf(name);
            QCOMPARE(p.structure, mapping::Policy::Structure::BTree);
            QCOMPARE(p.name(), std::string(name));
        }
        QCOMPARE(policyOf("btree+split-locks").kind, mapping::Policy::Kind::SplitLocks);
        QCOMPARE(policyOf("split-locks").structure, mapping::Policy::Structure::RbTree);
        QVERIFY(mapping::Policy::namesBTree("btree+sharded:8"));
        QVERIFY(!mapping::Policy::namesBTree("split-locks"));
        QVERIFY(!mapping::Policy::namesBTree("btree-ish"));  // not a policy at all
        mapping::Policy p;
        std::string error;
        for (const char* bad : {"btree+single", "btree+btree", "btree+", "btree+sharded:0"}) {
            QVERIFY2(!mapping::Policy::parse(bad, p, error), bad);
            QVERIFY(!error.empty());
        }
    }

    void everyHoldIsItsFirstTouchesPricedByHand_data() {
        QTest::addColumn<QString>("policy");
        QTest::newRow("btree") << "btree";
        QTest::newRow("rbtree") << "single";
    }
    void everyHoldIsItsFirstTouchesPricedByHand() {
        QFETCH(QString, policy);
        const bool btree = policy == "btree";
        Replay replay(btree);
        const SimResult r = runReplayed(policy.toLatin1().constData(), replay);
        QVERIFY(replay.holds.size() > 1000);
        std::size_t priced = 0;
        for (std::size_t i = 0; i < replay.holds.size(); ++i) {
            const auto [held, expected] = replay.holds[i];
            QVERIFY2(std::abs(static_cast<double>(held) - expected) < 0.5,
                     qPrintable(
                         QString("hold %1: %2 ns, by hand %3 ns").arg(i).arg(held).arg(expected)));
            priced += expected > kOpNs * 8 ? 1 : 0;
        }
        // Misses happen: the copy's first visits to the background's lines, and for the
        // B-tree, of its nodes' lines.
        QVERIFY2(priced > 10, qPrintable(QString::number(priced)));
        if (btree) {
            // libc's index is deep enough to split and merge inner nodes.
            int height = 0;
            for (const auto& [key, t] : replay.bt)
                height = std::max(height, t->height());
            QVERIFY2(height >= 3, qPrintable(QString::number(height)));
        }
        qInfo("%zu holds, %zu with a miss", replay.holds.size(), priced);
        QVERIFY(r.execs > 100);
    }

    // Several CPUs: the cache model's counts over the whole run equal the coherence rules
    // applied by hand, touch by touch, to the replayed trees' reports. A touch the simulator
    // prices at the wrong line, or as a read where it is a write, changes a count.
    void cacheCountsAreTheCoherenceRulesByHand_data() {
        QTest::addColumn<QString>("policy");
        QTest::newRow("btree") << "btree";
        QTest::newRow("btree+split-locks") << "btree+split-locks";
        QTest::newRow("rbtree") << "single";
    }
    void cacheCountsAreTheCoherenceRulesByHand() {
        QFETCH(QString, policy);
        static const topology::Topology four =
            topology::Topology::fromSpec("synthetic:package:2 core:2 pu:1");
        Replay replay(policy.startsWith("btree"), true);
        SimConfig c;
        c.topology = &four;
        c.policy = policyOf(policy.toLatin1().constData());
        c.copies = 4;
        c.durationMs = 20;
        c.observer = &replay;
        const SimResult r = Simulator(c).run();
        const Coherence& s = replay.states;
        QCOMPARE(r.cacheHits, s.hits);
        QCOMPARE(r.cacheTransfers, s.transfers);
        QCOMPARE(r.cacheMemoryReads, s.memory);
        QCOMPARE(r.cacheUpgrades, s.upgrades);
        QVERIFY2(s.transfers > 1000 && s.upgrades > 100,
                 qPrintable(QString("%1 transfers, %2 upgrades").arg(s.transfers).arg(s.upgrades)));
    }

    // Memory per VMA: the rbtree's 32 bytes of linkage; the B-tree's nodes (448 bytes, 16
    // items at most, 4 at least in a leaf that is not the root) plus an 8-byte back pointer,
    // so between 8 + 448 / 16 = 36 and 8 + 448 / 4 per VMA, plus the inner nodes' share.
    void linkBytesPerVmaAreTheStructures() {
        Replay unused(true);
        const SimResult rb = runReplayed("single", unused);
        QCOMPARE(rb.linkBytesPerVma, 32.0);
        Replay replay(true);
        const SimResult bt = runReplayed("btree", replay);
        QVERIFY2(bt.linkBytesPerVma >= 36 && bt.linkBytesPerVma <= 8 + 448.0 / 4 * 1.2,
                 qPrintable(QString::number(bt.linkBytesPerVma)));
    }

    // With one node, the split policies have one tree per file: btree+split-locks is btree.
    void oneNodeSplitsChangeNothing() {
        const auto run = [](const char* policy) {
            SimConfig c;
            static const topology::Topology t =
                topology::Topology::fromSpec("synthetic:package:1 core:16 pu:1");
            c.topology = &t;
            c.policy = policyOf(policy);
            c.copies = 8;
            c.durationMs = 50;
            return Simulator(c).run().execsPerSecond;
        };
        const double b = run("btree"), locks = run("btree+split-locks");
        QVERIFY2(std::abs(locks / b - 1) < 0.03, qPrintable(QString::number(locks / b)));
    }
};

IMMAP_TEST_SUITE(TestBTreePolicy);
#include "TestBTreePolicy.moc"
