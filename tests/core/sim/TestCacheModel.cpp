// CacheModel against hand-priced timelines: two nodes at SLIT distance 10 (50 ns) and 21
// (120 ns), two CPUs on node 0 and one on node 1.
#include <QTest>
#include <algorithm>
#include <vector>

#include "Suites.h"
#include "sim/CacheModel.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

using namespace immap;
using namespace immap::sim;

namespace {

const std::vector<std::vector<double>> kCost = {{50, 120}, {120, 50}};

// Every hit an L2 hit (5 ns) unless a test says otherwise: an L1 as costly as the L2. The L1
// is one set of l1Lines ways (fully associative), so the tests can count its LRU order.
CacheModel model(double l1HitNs = 5, double l1Lines = 512) {
    return CacheModel({0, 0, 1}, &kCost, 5, 0.5, l1HitNs, l1Lines, l1Lines);
}

}  // namespace

class TestCacheModel : public QObject {
    Q_OBJECT

private slots:
    // L1 hits: a line is in this CPU's L1 while fewer than l1Lines distinct lines of its set
    // were touched since; then it costs the L2's price. Another CPU's read leaves it in this
    // L1 (the line is shared); another CPU's write takes it (the next read is a transfer).
    void l1HitsNeedTheLineStillInTheL1() {
        CacheModel c = model(1, 4);
        std::vector<CacheLine> lines(6);
        QCOMPARE(c.read(lines[0], 0, 0), 50.0);  // memory, then in the L1
        QCOMPARE(c.read(lines[0], 0, 0), 1.0);
        for (int i = 1; i <= 3; ++i)
            c.read(lines[static_cast<std::size_t>(i)], 0, 0);
        QCOMPARE(c.read(lines[0], 0, 0), 1.0);   // 3 distinct lines since: still within 4
        for (int round = 0; round < 5; ++round)  // 15 touches, 3 distinct lines: still in
            for (int i = 1; i <= 3; ++i)
                QCOMPARE(c.read(lines[static_cast<std::size_t>(i)], 0, 0), 1.0);
        QCOMPARE(c.read(lines[0], 0, 0), 1.0);
        for (int i = 1; i <= 4; ++i)
            c.read(lines[static_cast<std::size_t>(i)], 0, 0);
        QCOMPARE(c.read(lines[0], 0, 0), 5.0);    // 4 distinct since: out of the L1, an L2 hit
        QCOMPARE(c.read(lines[0], 0, 0), 1.0);    // and back in
        QCOMPARE(c.read(lines[0], 1, 0), 50.0);   // CPU 1: a transfer from CPU 0's cache
        QCOMPARE(c.read(lines[0], 0, 0), 1.0);    // CPU 0 still has it: a read shares it
        QCOMPARE(c.write(lines[0], 1, 0), 25.0);  // CPU 1's upgrade invalidates CPU 0's copy
        QCOMPARE(c.read(lines[0], 0, 0), 50.0);   // from CPU 1's cache
        QCOMPARE(c.read(lines[0], 0, 0), 1.0);
        // L1 hits: 6 of line 0, 15 of lines 1-3 in the rounds and 3 after them.
        QCOMPARE(c.counters().l1Hits, std::uint64_t{24});
    }

    // Unlocked work's lines (touchOthers) pass through the L1 like tree lines: the tree's line
    // leaves it after l1Lines of them, and only the working CPU's L1 is affected.
    void unlockedWorkPushesLinesOutOfTheL1() {
        CacheModel c = model(1, 4);
        std::vector<CacheLine> lines(2);
        QCOMPARE(c.read(lines[0], 0, 0), 50.0);
        QCOMPARE(c.read(lines[1], 2, 1), 50.0);  // CPU 2's own line, on its own node
        c.touchOthers(0, 3);
        QCOMPARE(c.read(lines[0], 0, 0), 1.0);  // 3 lines since: still in the L1
        c.touchOthers(0, 4);
        QCOMPARE(c.read(lines[0], 0, 0), 5.0);  // 4 since: an L2 hit
        c.touchOthers(0, 100);
        QCOMPARE(c.read(lines[1], 2, 1), 1.0);  // CPU 0's work leaves CPU 2's L1 alone
    }

    // A line touched only by one CPU costs memory once, then hits; its writes are free.
    void oneCpuPaysOnceThenHits() {
        CacheModel c = model();
        CacheLine l;
        QCOMPARE(c.read(l, 2, 0), 120.0);  // from memory on node 0, to node 1
        for (int i = 0; i < 10; ++i) {
            QCOMPARE(c.read(l, 2, 0), 5.0);
            QCOMPARE(c.write(l, 2, 0), 0.0);
        }
        QCOMPARE(c.counters().memory, std::uint64_t{1});
        QCOMPARE(c.counters().hits, std::uint64_t{10});
        QCOMPARE(c.counters().transfers + c.counters().upgrades, std::uint64_t{0});
    }

    // A write invalidates every other holder; the next read elsewhere comes from the writer.
    void writeInvalidatesOthers() {
        CacheModel c = model();
        CacheLine l;
        QCOMPARE(c.read(l, 0, 1), 120.0);  // memory on node 1 to node 0
        QCOMPARE(c.read(l, 1, 1), 50.0);   // from CPU 0's cache, same node
        QCOMPARE(c.read(l, 2, 1), 120.0);  // from CPU 0's cache, across
        QVERIFY(c.holds(l, 0) && c.holds(l, 1) && c.holds(l, 2));
        QCOMPARE(c.write(l, 2, 1), 0.5 * 120);  // an upgrade from the last owner's node
        QVERIFY(c.holds(l, 2));
        QVERIFY(!c.holds(l, 0) && !c.holds(l, 1));
        QCOMPARE(c.read(l, 1, 1), 120.0);   // from CPU 2, the writer
        QCOMPARE(c.read(l, 2, 1), 5.0);     // the writer still has it
        QCOMPARE(c.write(l, 0, 1), 120.0);  // CPU 0 no longer holds it: one full transfer
        QCOMPARE(c.read(l, 0, 1), 5.0);
    }

    // Only a write elsewhere takes a line from a CPU: touching many other lines does not.
    void onlyWritesInvalidate() {
        CacheModel c = model();
        CacheLine a;
        QCOMPARE(c.read(a, 0, 0), 50.0);
        std::vector<CacheLine> others(100'000);
        for (CacheLine& o : others)
            c.read(o, 0, 0);
        QCOMPARE(c.read(a, 0, 0), 5.0);
        QCOMPARE(c.write(others[7], 1, 0), 50.0);  // CPU 1 takes it from CPU 0, same node
        QVERIFY(!c.holds(others[7], 0));
        QVERIFY(c.holds(others[8], 0));
    }

    // A line reused for a new VMA (AddressSpace recycles its structs) is held by nobody until
    // the CPU that initialises it owns it, whoever held the old one.
    void reusedLineStartsEmpty() {
        CacheModel c = model();
        CacheLine l;
        c.read(l, 0, 0);
        c.read(l, 2, 0);
        QVERIFY(c.holds(l, 0) && c.holds(l, 2));
        l.reset();
        QVERIFY(!c.holds(l, 0) && !c.holds(l, 2));
        QCOMPARE(c.read(l, 2, 1), 50.0);  // from memory on its home, node 1, to node 1
        QVERIFY(!c.holds(l, 0));
        l.reset();
        c.own(l, 1);
        QVERIFY(c.holds(l, 1) && !c.holds(l, 2));
        QCOMPARE(c.read(l, 0, 0), 50.0);  // from CPU 1's cache, same node
    }

    // Holder sets span several words on a machine of more than 64 CPUs.
    void manyCpus() {
        std::vector<int> nodes(200, 0);
        nodes[150] = 1;
        CacheModel c(nodes, &kCost, 5, 0.5, 5, 512, 8);
        CacheLine l;
        QCOMPARE(c.read(l, 150, 0), 120.0);
        QCOMPARE(c.read(l, 3, 0), 120.0);  // from CPU 150 (the first reader had it exclusive)
        QVERIFY(c.holds(l, 150) && c.holds(l, 3) && !c.holds(l, 86) && !c.holds(l, 22));
        QCOMPARE(c.write(l, 3, 0), 0.5 * 120);
        QVERIFY(!c.holds(l, 150) && c.holds(l, 3));
    }

    // A line held by more CPUs than its inline set takes (CacheLine::kFew) keeps every holder:
    // each reader after the first is a transfer from the first (it had it exclusive), then a
    // hit; one write leaves the writer alone, and the set then grows and spills afresh, with
    // nothing left of the holders before the write or before the line's reuse.
    void holderSetsPastTheInlineOnes() {
        std::vector<int> nodes(200, 0);
        for (std::size_t i = 100; i < 200; ++i)
            nodes[i] = 1;
        CacheModel c(nodes, &kCost, 5, 0.5, 5, 512, 8);
        CacheLine l;
        const std::vector<int> readers = {0, 64, 130, 199, 7, 100, 63};
        QCOMPARE(c.read(l, readers[0], 1), 120.0);  // memory on node 1 to node 0
        for (std::size_t i = 1; i < readers.size(); ++i)
            QCOMPARE(c.read(l, readers[i], 1), readers[i] >= 100 ? 120.0 : 50.0);  // from CPU 0
        for (int r : readers)
            QCOMPARE(c.read(l, r, 1), 5.0);
        for (int cpu = 0; cpu < 200; ++cpu)
            QCOMPARE(c.holds(l, cpu),
                     std::find(readers.begin(), readers.end(), cpu) != readers.end());
        QCOMPARE(c.write(l, 130, 1), 0.5 * 120);  // an upgrade from CPU 0's node, across
        for (int cpu = 0; cpu < 200; ++cpu)
            QCOMPARE(c.holds(l, cpu), cpu == 130);
        // Five readers again: past the inline set, with none of the old ones but the writer.
        for (int r : {5, 6, 150, 151})
            QCOMPARE(c.read(l, r, 1), r >= 100 ? 50.0 : 120.0);  // from CPU 130, on node 1
        for (int cpu = 0; cpu < 200; ++cpu)
            QCOMPARE(c.holds(l, cpu),
                     cpu == 130 || cpu == 5 || cpu == 6 || cpu == 150 || cpu == 151);
        l.reset();
        for (int cpu = 0; cpu < 200; ++cpu)
            QVERIFY(!c.holds(l, cpu));
        QCOMPARE(c.read(l, 64, 0), 50.0);  // from memory on node 0: nobody holds it
        for (int r : {65, 66, 67})
            QCOMPARE(c.read(l, r, 0), 50.0);  // from CPU 64
        for (int cpu = 0; cpu < 200; ++cpu)
            QCOMPARE(c.holds(l, cpu), cpu >= 64 && cpu <= 67);
    }

    // In a run on one CPU no line ever comes from another cache, and after the start-up
    // (the background processes' lines, read from memory once) nearly every read hits.
    void oneCpuRunNeverTransfers() {
        const topology::Topology one = topology::Topology::fromSpec("synthetic:pu:1");
        SimConfig cfg;
        cfg.topology = &one;
        cfg.copies = 1;
        cfg.durationMs = 200;
        const SimResult r = Simulator(cfg).run();
        QCOMPARE(r.cacheTransfers, std::uint64_t{0});
        QCOMPARE(r.cacheUpgrades, std::uint64_t{0});
        QVERIFY(r.cacheHits > 0);
        QVERIFY2(r.cacheMemoryReads < r.cacheHits / 100,
                 qPrintable(
                     QString("%1 memory reads, %2 hits").arg(r.cacheMemoryReads).arg(r.cacheHits)));
    }
};

IMMAP_TEST_SUITE(TestCacheModel);
#include "TestCacheModel.moc"
