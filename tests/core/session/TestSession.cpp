// Session and TreeSet: the default scenario, its trees against FileMapping's (the known-good
// read-only picture), the picker order, recipes, and bad input leaving the session unchanged.
#include <QTest>
#include <algorithm>
#include <atomic>
#include <map>
#include <set>

#include "Suites.h"
#include "itree/InvariantChecker.h"
#include "limits/Cancelled.h"
#include "mapping/FileMapping.h"
#include "procfs/ParseError.h"
#include "session/DefaultScenario.h"
#include "session/DrawTree.h"
#include "session/Session.h"

using namespace immap;

namespace {

// In-order (start, last, colour, depth) of a real tree: what the picture must match.
std::vector<std::tuple<itree::Index, itree::Index, bool, int>> shapeOf(const itree::Node* root) {
    std::vector<std::tuple<itree::Index, itree::Index, bool, int>> out;
    std::vector<std::pair<const itree::Node*, int>> stack;
    const itree::Node* cur = root;
    int depth = 0;
    while (cur || !stack.empty()) {
        while (cur) {
            stack.push_back({cur, depth++});
            cur = cur->left();
        }
        auto [n, d] = stack.back();
        stack.pop_back();
        out.emplace_back(n->start, n->last, n->isRed(), d);
        cur = n->right();
        depth = d + 1;
    }
    return out;
}

std::vector<std::tuple<itree::Index, itree::Index, bool, int>> shapeOf(const session::DrawTree& t) {
    std::vector<std::tuple<itree::Index, itree::Index, bool, int>> out;
    for (const auto& n : t.nodes)
        out.emplace_back(n.start, n.last, n.red, n.depth);
    return out;
}

}  // namespace

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void defaultScenarioIsTheProposalShape() {
        session::Session s;
        s.loadDefault();
        QCOMPARE(s.file().name(), std::string("libc.so.6"));
        const auto& set = s.trees();
        // 1,200 processes x 5 libc segments; 12 nodes, dealt evenly by the synthetic host.
        QCOMPARE(set.tree(session::kSingleTree).size(), std::size_t{6000});
        QCOMPARE(set.splitCount(), std::size_t{12});
        for (std::size_t i = 1; i <= 12; ++i)
            QCOMPARE(set.tree(static_cast<int>(i)).size(), std::size_t{500});
        // The same machine as the shipped sample XML (which was generated from this spec).
        const auto xml = topology::Topology::fromSpec(std::string("xml:") + IMMAP_SAMPLES +
                                                      "/topologies/numa12-384cpu.xml");
        const auto& topo = *s.host().topology;
        QCOMPARE(topo.nodeCount(), xml.nodeCount());
        QCOMPARE(topo.pus().size(), xml.pus().size());
        QVERIFY(topo.distances() == xml.distances());
    }

    void treesMatchFileMapping() {
        // FileMapping is the tested read-only build; the mutable set must build the same trees.
        session::Session s;
        s.loadDefault();
        const auto& host = s.host();
        const mapping::FileMapping single(s.file(), *host.topology, mapping::Policy{});
        const mapping::FileMapping split(s.file(), *host.topology, s.splitPolicy());
        const auto& set = s.trees();
        QVERIFY(shapeOf(single.tree(0).root()) == shapeOf(session::DrawTree::of(set.tree(0), set)));
        for (std::size_t i = 0; i < split.treeCount(); ++i)
            QVERIFY(shapeOf(split.tree(i).root()) ==
                    shapeOf(session::DrawTree::of(set.tree(static_cast<int>(i + 1)), set)));
        // And the picture's depths agree with the checker's height.
        const auto d = session::DrawTree::of(set.tree(0), set);
        QCOMPARE(d.height, itree::InvariantChecker::check(set.tree(0)).shape.height);
    }

    void drawTreeLinksAreConsistent() {
        session::Session s;
        s.loadDefault();
        const auto d = session::DrawTree::of(s.trees().tree(0), s.trees());
        QCOMPARE(d.nodes[static_cast<std::size_t>(d.root)].parent, -1);
        for (std::size_t i = 0; i < d.nodes.size(); ++i) {
            const auto& n = d.nodes[i];
            if (n.left >= 0) {
                QCOMPARE(d.nodes[static_cast<std::size_t>(n.left)].parent, int(i));
                QVERIFY(n.left < int(i));  // in order: the left subtree comes first
            }
            if (n.right >= 0) QVERIFY(n.right > int(i));
            if (n.parent >= 0)
                QCOMPARE(n.depth, d.nodes[static_cast<std::size_t>(n.parent)].depth + 1);
        }
    }

    void pickerPutsLibcFirst() {
        session::Session s;
        s.load(std::string("snapshot:") + IMMAP_SAMPLES + "/snapshots/host250");
        const auto order = s.fileOrder();
        QVERIFY(order.size() > 2);
        QVERIFY(s.files()[order[0]].name().rfind("libc.so", 0) == 0);
        for (std::size_t k = 2; k < order.size(); ++k)
            QVERIFY(s.files()[order[k - 1]].vmas.size() >= s.files()[order[k]].vmas.size());
        QCOMPARE(s.file().name(), std::string("libc.so.6"));  // shown by default
    }

    void execThenExitRestoresTheLiveSet() {
        session::Session s;
        s.load("synthetic:libc?processes=40&seed=3", "synthetic:numa:4 core:4 pu:1");
        auto& set = s.trees();
        const std::size_t before = set.liveCount();
        const std::int64_t pid = s.freshPid();
        auto p = s.runRecipe(session::ExecRecipe{}, pid, 2);
        QCOMPARE(set.liveCount(), before + 5);
        QCOMPARE(set.tree(0).size(), before + 5);
        // All five went to node 2's tree and carry the libc layout.
        std::set<std::pair<itree::Index, itree::Index>> got;
        for (int id : set.idsOfPid(pid)) {
            QCOMPARE(set.splitTreeId(id), 3);
            got.insert({set.entry(id).vma.first(), set.entry(id).vma.last()});
        }
        const std::set<std::pair<itree::Index, itree::Index>> libc{
            {0x0, 0x25}, {0x26, 0x17b}, {0x17c, 0x1ce}, {0x1cf, 0x1d2}, {0x1d3, 0x1d4}};
        QVERIFY(got == libc);
        for (int t = 0; t < int(set.treeCount()); ++t)
            QVERIFY(itree::InvariantChecker::check(set.tree(t)).ok);
        s.runRecipe(session::ExitRecipe{}, pid, 0);
        QCOMPARE(set.liveCount(), before);
        QCOMPARE(set.tree(0).size(), before);
        QVERIFY(set.idsOfPid(pid).empty());
        std::size_t inSplit = 0;
        for (std::size_t i = 1; i < set.treeCount(); ++i)
            inSplit += set.tree(int(i)).size();
        QCOMPARE(inSplit, before);
    }

    void shardedPolicyOnRequest() {
        session::Session s;
        s.loadDefault();
        mapping::Policy p;
        std::string error;
        QVERIFY(mapping::Policy::parse("sharded:64", p, error));
        s.setSplitPolicy(p);
        QCOMPARE(s.trees().splitCount(), std::size_t{6});  // 384 CPUs / 64
        std::size_t total = 0;
        for (std::size_t i = 1; i <= 6; ++i)
            total += s.trees().tree(int(i)).size();
        QCOMPARE(total, std::size_t{6000});
    }

    void badSourceThrowsAndKeepsTheSession() {
        session::Session s;
        s.loadDefault();
        QVERIFY_THROWS_EXCEPTION(procfs::ParseError, s.load("maps:/nonexistent/maps"));
        QVERIFY_THROWS_EXCEPTION(procfs::ParseError, s.load("bogus:thing"));
        QCOMPARE(s.trees().liveCount(), std::size_t{6000});
        QCOMPARE(s.file().name(), std::string("libc.so.6"));
    }

    // A raised Cancel stops every kind of load with limits::Cancelled, and a session keeps
    // what it had; without it, stage() + commit() is load().
    void stagedLoadsStopOnCancel() {
        session::Session s;
        s.loadDefault();
        const std::string before = s.host().source;
        std::atomic<bool> cancel{true};
        for (const std::string& source :
             {std::string("synthetic:libc?processes=5000"),
              std::string("snapshot:") + IMMAP_SAMPLES "/snapshots/host250",
              std::string("snapshot:") + IMMAP_TEST_DATA "/bad/archive-links.tar"}) {
            QVERIFY_THROWS_EXCEPTION(
                limits::Cancelled,
                session::Session::stage(source, {}, {}, s.splitPolicy(), &cancel));
            QCOMPARE(s.host().source, before);
        }
        cancel = false;
        session::Session::Staged staged = session::Session::stage("synthetic:libc?processes=100",
                                                                  {}, {}, s.splitPolicy(), &cancel);
        s.commit(std::move(staged));
        QCOMPARE(s.host().source, std::string("synthetic:libc?processes=100"));
        QCOMPARE(s.file().name(), std::string("libc.so.6"));
        QCOMPARE(s.trees().liveCount(), s.file().vmas.size());
    }
};

IMMAP_TEST_SUITE(TestSession);
#include "TestSession.moc"
