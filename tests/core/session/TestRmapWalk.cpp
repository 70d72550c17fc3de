// RmapWalk: finds exactly what the tree's own query and a brute-force scan find, in the same
// order, and prunes: a walk never visits a subtree whose subtree_last ends before the range.
#include <QTest>
#include <algorithm>
#include <random>

#include "SmallSet.h"
#include "Suites.h"
#include "session/RmapWalk.h"
#include "session/Session.h"
#include "session/WalkPlayer.h"

using namespace immap;
using immap::test::SmallSet;

class TestRmapWalk : public QObject {
    Q_OBJECT
private slots:
    void matchesQueryAndBruteForce() {
        std::mt19937_64 rng(11);
        for (int trial = 0; trial < 20; ++trial) {
            std::vector<std::tuple<itree::Index, itree::Index, int>> vmas;
            const int n = 1 + int(rng() % 400);
            for (int i = 0; i < n; ++i) {
                const itree::Index a = rng() % 1000;
                vmas.emplace_back(a, a + rng() % 60, 0);
            }
            SmallSet small(vmas);
            const auto& tree = small.set->tree(0);
            for (int q = 0; q < 50; ++q) {
                const itree::Index a = rng() % 1100;
                const itree::Index b = a + rng() % 30;
                const auto walk = session::RmapWalk::run(tree, a, b);
                std::vector<int> query;
                for (auto* x = tree.iterFirst(a, b); x; x = itree::IntervalTree::iterNext(x, a, b))
                    query.push_back(session::TreeSet::idOf(x));
                QCOMPARE(walk.matches, query);
                std::size_t brute = 0;
                for (const auto& [s, l, node] : vmas)
                    brute += s <= b && a <= l;
                QCOMPARE(walk.matches.size(), brute);
                QVERIFY(walk.visited <= tree.size());
                QVERIFY(walk.visited >= walk.matches.size());
            }
        }
    }

    void prunesByStartAndSubtreeLast() {
        // Every VMA ends before page 100: the root's subtree_last says so, nothing is visited.
        SmallSet small({{0, 10, 0}, {20, 30, 0}, {40, 50, 0}, {60, 99, 0}});
        const auto walk = session::RmapWalk::run(small.set->tree(0), 100, 200);
        QCOMPARE(walk.visited, std::size_t{0});
        QVERIFY(walk.matches.empty());
        QCOMPARE(walk.events.size(), std::size_t{1});
        QVERIFY(walk.events[0].kind == session::WalkEvent::Kind::Prune);
        // A page in the last VMA only: subtrees that end before it are skipped, not walked.
        const auto hit = session::RmapWalk::run(small.set->tree(0), 70, 70);
        QCOMPARE(hit.matches.size(), std::size_t{1});
        QVERIFY(hit.visited < 4);
        bool pruned = false;
        for (const auto& e : hit.events)
            pruned = pruned || e.kind == session::WalkEvent::Kind::Prune;
        QVERIFY(pruned);
    }

    void walkPlayerCoversEveryTree() {
        session::Session s;
        s.load("synthetic:libc?processes=120&seed=4", "synthetic:numa:6 core:4 pu:1");
        // Page 0x1d0 is in libc's RELRO segment [0x1cf, 0x1d2]: one VMA per process.
        session::WalkPlayer w(s.trees(), 0x1d0, 0x1d0);
        QCOMPARE(w.singleMatches(), std::size_t{120});
        QCOMPARE(w.splitMatches(), std::size_t{120});
        QCOMPARE(w.splitTrees(), std::size_t{6});
        QCOMPARE(w.splitTreesWithMatches(), std::size_t{6});
        // Every match is a VMA that really maps the page.
        for (const auto& tw : w.walks())
            for (int id : tw.result.matches) {
                const auto& v = s.trees().entry(id).vma;
                QVERIFY(v.first() <= 0x1d0 && 0x1d0 <= v.last());
            }
        QVERIFY(w.atStart());
        QVERIFY(w.state(0).visited.empty());
        w.forward();
        QVERIFY(w.caption().find("single tree, vma_interval_tree_iter_first: visit") == 0);
        w.seek(w.count());
        QCOMPARE(w.state(0).matches.size(), std::size_t{120});
        std::size_t inSplit = 0;
        for (int t = 1; t <= 6; ++t)
            inSplit += w.state(t).matches.size();
        QCOMPARE(inSplit, std::size_t{120});
        QVERIFY(w.caption().find("rmap walk of pages [0x1d0, 0x1d0]") != std::string::npos);
        w.backward();
        QVERIFY(w.caption().find("iter_next") != std::string::npos);
        // A page nobody maps: every tree is still locked and walked, nothing found.
        session::WalkPlayer none(s.trees(), 0x5000, 0x5000);
        QCOMPARE(none.singleMatches() + none.splitMatches(), std::size_t{0});
        QCOMPARE(none.singleVisited() + none.splitVisited(), std::size_t{0});  // pruned at roots
    }

    // The strides stop where their rule says, counted from the walks' own events: by decision,
    // once per prune or match plus once per tree that ends on a plain visit; by tree, once per
    // tree; and stepping back retraces exactly the stops stepping forward made.
    void walkPlayerStrides() {
        session::Session s;
        s.load("synthetic:libc?processes=120&seed=4", "synthetic:numa:6 core:4 pu:1");
        session::WalkPlayer w(s.trees(), 0x1c0, 0x1d0);
        std::size_t decisions = 0, events = 0;
        for (const auto& tw : w.walks()) {
            const auto& ev = tw.result.events;
            for (std::size_t i = 0; i < ev.size(); ++i)
                decisions += ev[i].kind != session::WalkEvent::Kind::Visit || i + 1 == ev.size();
            events += ev.size();
        }
        QCOMPARE(w.count(), events);
        const std::size_t trees = w.walks().size();  // 7, none empty: the range maps in each
        auto stops = [&](session::WalkPlayer::Stride st) {
            w.setStride(st);
            w.seek(0);
            std::vector<std::size_t> fwd{0};
            while (w.forward())
                fwd.push_back(w.position());
            std::vector<std::size_t> back{w.position()};
            while (w.backward())
                back.push_back(w.position());
            std::reverse(back.begin(), back.end());
            if (fwd != back) return std::size_t{0};
            return fwd.size() - 1;
        };
        QCOMPARE(stops(session::WalkPlayer::Stride::Node), events);
        QCOMPARE(stops(session::WalkPlayer::Stride::Decision), decisions);
        QCOMPARE(stops(session::WalkPlayer::Stride::Tree), trees);
        QVERIFY(decisions < events / 2);  // what the stride is for
        // A tree stride's stop names the tree's totals.
        w.setStride(session::WalkPlayer::Stride::Tree);
        w.seek(0);
        w.forward();
        const auto& first = w.walks().front().result;
        QCOMPARE(w.position(), first.events.size());
        QVERIFY(w.caption().find("this tree done: " + std::to_string(first.visited) +
                                 " nodes visited, " + std::to_string(first.matches.size()) +
                                 " VMAs found") != std::string::npos);
    }
};

IMMAP_TEST_SUITE(TestRmapWalk);
#include "TestRmapWalk.moc"
