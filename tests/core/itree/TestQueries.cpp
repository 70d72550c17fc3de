// Overlap queries at the edges: empty tree, the O(1) rejections, the ends of the 64-bit range,
// and nested intervals, each against the brute-force filter.
#include <QTest>
#include <limits>

#include "BruteForceModel.h"
#include "Suites.h"

using namespace immap::test;

namespace {
constexpr Index kMax = std::numeric_limits<Index>::max();
}

class TestQueries : public QObject {
    Q_OBJECT

private slots:
    void emptyTree() {
        IntervalTree t;
        QCOMPARE(t.iterFirst(0, kMax), nullptr);
        QCOMPARE(t.leftmost(), nullptr);
    }

    void fastRejections() {
        IntervalTree t;
        TestNode a(1, 100, 200), b(2, 150, 300);
        t.insert(&a);
        t.insert(&b);
        QCOMPARE(t.iterFirst(301, 400), nullptr);  // subtree_last < start
        QCOMPARE(t.iterFirst(0, 99), nullptr);     // leftmost start > last
        QCOMPARE(t.iterFirst(300, 300), static_cast<Node*>(&b));
        QCOMPARE(t.iterFirst(0, 100), static_cast<Node*>(&a));
    }

    void extremes() {
        IntervalTree t;
        BruteForceModel m;
        std::deque<TestNode> nodes;
        const std::pair<Index, Index> iv[] = {{0, 0}, {0, kMax}, {kMax, kMax}, {kMax - 1, kMax},
                                              {1, 1}, {0, 5},    {5, kMax - 1}};
        for (auto [s, l] : iv) {
            TestNode& n = nodes.emplace_back(nodes.size() + 1, s, l);
            t.insert(&n);
            m.insert(&n);
        }
        QVERIFY(mismatch(t, m).empty());
        const std::pair<Index, Index> qs[] = {{0, 0}, {kMax, kMax}, {0, kMax},
                                              {2, 4}, {6, 6},       {kMax - 1, kMax - 1}};
        for (auto [s, l] : qs)
            QVERIFY(query(t, s, l) == m.overlapping(s, l));
    }

    // Every point of a nested, duplicated set: results in in-order order, no duplicates.
    void everyPointOfNestedIntervals() {
        IntervalTree t;
        BruteForceModel m;
        std::deque<TestNode> nodes;
        std::mt19937_64 rng(3);
        for (int i = 0; i < 400; ++i) {
            const Index s = rng() % 200, l = s + rng() % (i % 10 == 0 ? 200 : 10);
            TestNode& n = nodes.emplace_back(i, s, l);
            t.insert(&n);
            m.insert(&n);
        }
        for (Index p = 0; p < 420; ++p)
            QVERIFY(query(t, p, p) == m.overlapping(p, p));
        for (Index a = 0; a < 420; a += 7)
            for (Index b = a; b < 420; b += 13)
                QVERIFY(query(t, a, b) == m.overlapping(a, b));
    }
};

IMMAP_TEST_SUITE(TestQueries);
#include "TestQueries.moc"
