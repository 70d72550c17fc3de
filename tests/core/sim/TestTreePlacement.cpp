// One placement rule (mapping::TreePlacement) for the trees the app draws and the trees the
// simulator runs, on a machine whose OS numbering is not its logical order: hwloc's synthetic
// `pu:2(indexes=...)` numbers each core's two threads i and i + 8, as many Intel servers do.

#include <QTest>

#include <map>
#include <set>
#include <string>
#include <tuple>

#include "Suites.h"
#include "mapping/FileMapping.h"
#include "mapping/TreePlacement.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

using namespace immap;
using mapping::Policy;

namespace {

// 2 nodes x 4 cores x 2 threads; core c's threads are P#c and P#(c+8).
const topology::Topology& smtApart() {
    static const topology::Topology t = topology::Topology::fromSpec(
        "synthetic:numa:2 core:4 pu:2(indexes=0,8,1,9,2,10,3,11,4,12,5,13,6,14,7,15)");
    return t;
}

Policy policyOf(const char* text) {
    Policy p;
    std::string err;
    if (!Policy::parse(text, p, err)) qFatal("%s", err.c_str());
    return p;
}

}  // namespace

class TestTreePlacement : public QObject {
    Q_OBJECT
private slots:
    void theTopologyNumbersSiblingsFarApart() {
        const auto& t = smtApart();
        QCOMPARE(t.pus().size(), std::size_t{16});
        QCOMPARE(t.pus()[0].osIndex, 0u);
        QCOMPARE(t.pus()[1].osIndex, 8u);  // logical 1 is OS 8, core 0's second thread
        QCOMPARE(t.pus()[8].osIndex, 4u);  // node 1 starts at OS 4
        QCOMPARE(t.nodeOfPu(12), 1);
    }

    // Known answers, worked by hand from the layout above.
    void shardsFollowLogicalOrder() {
        const mapping::TreePlacement p(policyOf("sharded:2"), smtApart());
        QCOMPARE(p.treeCount(), std::size_t{8});
        QCOMPARE(p.treeOf(0, 0), std::size_t{0});
        QCOMPARE(p.treeOf(8, 0), std::size_t{0});  // the sibling shares its core's shard
        QCOMPARE(p.treeOf(1, 0), std::size_t{1});
        QCOMPARE(p.treeOf(9, 0), std::size_t{1});
        QCOMPARE(p.treeOf(4, 1), std::size_t{4});
        QCOMPARE(p.treeOf(15, 1), std::size_t{7});
        // No known CPU: the shard of the home node's first logical PU (node 1: OS 4, logical 8).
        QCOMPARE(p.treeOf(-1, 1), std::size_t{4});
        QCOMPARE(p.treeOf(-1, 0), std::size_t{0});
        QCOMPARE(p.treeOf(-1, -1), std::size_t{0});
        const mapping::TreePlacement three(policyOf("sharded:3"), smtApart());
        QCOMPARE(three.treeCount(), std::size_t{6});    // ceil(16 / 3)
        QCOMPARE(three.treeOf(7, 1), std::size_t{4});   // logical 14
        QCOMPARE(three.treeOf(15, 1), std::size_t{5});  // logical 15
    }

    void splitTreesFollowTheHomeNode() {
        for (const char* name : {"split-trees", "split-locks"}) {
            const mapping::TreePlacement p(policyOf(name), smtApart());
            QCOMPARE(p.treeCount(), std::size_t{2});
            QCOMPARE(p.treeOf(12, 1), std::size_t{1});
            QCOMPARE(p.treeOf(12, -1), std::size_t{1});  // the CPU's node when no home is known
            QCOMPARE(p.treeOf(-1, 0), std::size_t{0});
        }
        const mapping::TreePlacement single(Policy{}, smtApart());
        QCOMPARE(single.treeCount(), std::size_t{1});
        QCOMPARE(single.treeOf(15, 1), std::size_t{0});
    }

    // The simulator's final trees, read off its event stream, are the trees FileMapping builds
    // from the same VMAs (their mapping CPU and home node), VMA for VMA.
    void theAppBuildsTheTreesTheSimulatorEndsWith() {
        for (const char* name :
             {"single", "split-trees", "split-locks", "sharded:2", "sharded:3"}) {
            struct Live final : sim::SimObserver {
                // vma id -> (file, tree, cpu, home, start, last)
                std::map<std::uint32_t,
                         std::tuple<int, int, int, int, std::uint64_t, std::uint64_t>>
                    vmas;
                void onEvent(const sim::SimEvent& e) override {
                    if (e.kind == sim::SimEvent::TreeInsert)
                        vmas[e.vma] = {e.file, e.tree, e.cpu, e.home, e.start, e.last};
                    else if (e.kind == sim::SimEvent::TreeRemove)
                        vmas.erase(e.vma);
                }
            } live;
            sim::SimConfig c;
            c.topology = &smtApart();
            c.policy = policyOf(name);
            c.copies = 16;
            c.durationMs = 5;
            // Background processes run on no copy's CPU and their events carry none; without
            // them every VMA's mapping CPU is in the stream.
            c.params.backgroundProcesses = 0;
            c.observer = &live;
            sim::Simulator s(c);
            s.run();
            QVERIFY(!live.vmas.empty());

            std::map<int, mapping::MappedFile> files;
            std::map<int, std::vector<int>> simTree;  // per file, in the same order as vmas
            for (const auto& [id, v] : live.vmas) {
                const auto [file, tree, cpu, home, start, last] = v;
                QVERIFY2(cpu >= 0, name);
                mapping::Vma m;
                m.pgoff = start;
                m.pages = last - start + 1;
                m.cpu = cpu;
                m.homeNode = home;
                files[file].vmas.push_back(m);
                simTree[file].push_back(tree);
            }
            for (const auto& [file, mf] : files) {
                const mapping::FileMapping app(mf, smtApart(), c.policy);
                QCOMPARE(app.treeCount(), s.treesPerFile());
                std::vector<std::multiset<std::pair<std::uint64_t, std::uint64_t>>> appTrees(
                    app.treeCount()),
                    simTrees(app.treeCount());
                for (std::size_t i = 0; i < mf.vmas.size(); ++i) {
                    QCOMPARE(static_cast<int>(app.treeIndexOf(mf.vmas[i])), simTree[file][i]);
                    simTrees[static_cast<std::size_t>(simTree[file][i])].insert(
                        {mf.vmas[i].first(), mf.vmas[i].last()});
                }
                for (std::size_t t = 0; t < app.treeCount(); ++t)
                    for (auto* n = app.tree(t).leftmost(); n; n = itree::IntervalTree::next(n))
                        appTrees[t].insert({n->start, n->last});
                QVERIFY2(appTrees == simTrees, name);
            }
        }
    }
};

IMMAP_TEST_SUITE(TestTreePlacement);
#include "TestTreePlacement.moc"
