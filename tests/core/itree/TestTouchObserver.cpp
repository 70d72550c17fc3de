// The hooks the simulator prices updates and walks with: an observed tree ends in exactly the
// shape of an unobserved one; an insert reports every node of its descent (found by an
// independent walk beforehand) and writes the new node; a remove reports the removed node; the
// query visitor sees every match (checked against a linear filter) and nothing outside the tree.
#include <QTest>
#include <algorithm>
#include <deque>
#include <random>
#include <set>
#include <vector>

#include "Suites.h"
#include "itree/IntervalQuery.h"
#include "itree/IntervalTree.h"
#include "itree/TouchObserver.h"

using namespace immap::itree;

namespace {

struct Log final : TouchObserver {
    std::vector<const Node*> reads, writes;
    void read(const Node* n) override { reads.push_back(n); }
    void write(const Node* n) override { writes.push_back(n); }
    void clear() {
        reads.clear();
        writes.clear();
    }
};

// Structure as positions: (node index, parent/left/right index, colour) for every node.
std::vector<std::vector<long>> shape(const IntervalTree& t, const std::deque<Node>& nodes) {
    auto idx = [&](const Node* n) -> long {
        if (!n) return -1;
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (&nodes[i] == n) return static_cast<long>(i);
        return -2;
    };
    std::vector<std::vector<long>> out;
    for (const Node* n = t.leftmost(); n; n = IntervalTree::next(n))
        out.push_back({idx(n), idx(n->parent()), idx(n->left()), idx(n->right()),
                       n->isRed() ? 1 : 0, static_cast<long>(n->subtreeLast())});
    return out;
}

}  // namespace

class TestTouchObserver : public QObject {
    Q_OBJECT

private slots:
    void observedTreesTakeTheSameShapeAndReportTheirPath() {
        std::mt19937_64 rng(3);
        std::deque<Node> plainNodes, seenNodes;
        IntervalTree plain, seen;
        Log log;
        seen.setObserver(&log);
        std::vector<std::size_t> in;
        for (int i = 0; i < 4000; ++i) {
            if (in.empty() || rng() % 3) {
                const Index s = rng() % 500, l = s + rng() % 50;
                plainNodes.emplace_back(s, l);
                seenNodes.emplace_back(s, l);
                Node* n = &seenNodes.back();
                // The descent, found independently: equal starts go right.
                std::vector<const Node*> path;
                for (const Node* c = seen.root(); c; c = s < c->start ? c->left() : c->right())
                    path.push_back(c);
                log.clear();
                plain.insert(&plainNodes.back());
                seen.insert(n);
                const std::set<const Node*> reads(log.reads.begin(), log.reads.end());
                for (const Node* p : path)
                    QVERIFY(reads.count(p));
                QVERIFY(std::find(log.writes.begin(), log.writes.end(), n) != log.writes.end());
                in.push_back(plainNodes.size() - 1);
            } else {
                const std::size_t k = rng() % in.size();
                const std::size_t i = in[k];
                in.erase(in.begin() + static_cast<long>(k));
                log.clear();
                plain.remove(&plainNodes[i]);
                seen.remove(&seenNodes[i]);
                QVERIFY(std::find(log.reads.begin(), log.reads.end(), &seenNodes[i]) !=
                        log.reads.end());
            }
        }
        QCOMPARE(shape(seen, seenNodes), shape(plain, plainNodes));
    }

    void queryVisitorSeesEveryMatch() {
        std::mt19937_64 rng(5);
        std::deque<Node> nodes;
        IntervalTree t;
        for (int i = 0; i < 2000; ++i) {
            const Index s = rng() % 10000;
            nodes.emplace_back(s, s + rng() % 300);
            t.insert(&nodes.back());
        }
        std::set<const Node*> all;
        for (const Node& n : nodes)
            all.insert(&n);
        for (int q = 0; q < 500; ++q) {
            const Index s = rng() % 11000, l = s + rng() % 200;
            std::set<const Node*> visited;
            std::size_t visits = 0;
            auto visit = [&](const Node* n) {
                QVERIFY(all.count(n));
                visited.insert(n);
                ++visits;
            };
            std::set<const Node*> found;
            for (Node* n = queryFirst(t, s, l, visit); n; n = queryNext(n, s, l, visit))
                found.insert(n);
            std::set<const Node*> expected;
            for (const Node& n : nodes)
                if (n.start <= l && s <= n.last) expected.insert(&n);
            QCOMPARE(found, expected);
            for (const Node* n : found)
                QVERIFY(visited.count(n));
            QVERIFY(visits <= 2 * nodes.size());
        }
        // Nothing ends late enough: the root alone is read.
        std::size_t visits = 0;
        QVERIFY(!queryFirst(t, 1'000'000, 1'000'001, [&](const Node*) { ++visits; }));
        QCOMPARE(visits, std::size_t{1});
    }
};

IMMAP_TEST_SUITE(TestTouchObserver);
#include "TestTouchObserver.moc"
