// What the index says it touches and holds, against hand counts: the lines an operation
// reports (LineCounter) for a known shape, the back-pointer writes a split makes, and the
// memory the index reports against its node counts.
#include <QTest>
#include <set>

#include "BTreeHarness.h"
#include "Suites.h"
#include "btree/LineCounter.h"

using namespace immap::test;
using namespace immap::btree;

class TestBTreeCounting : public QObject {
    Q_OBJECT

private slots:
    // Sixteen items fill the root leaf; the seventeenth, going last, splits it as far right
    // as the left leaf's fill allows: the kMinFill items that move to the new right leaf and
    // the new item have their back pointers written, and nothing else does.
    void aSplitRewritesTheMovedHalfsBackPointers() {
        IntervalBTree t;
        std::deque<BItem> items;
        for (Index i = 0; i < kFanout; ++i) {
            BItem& it = items.emplace_back();
            it.start = i;
            it.last = i;
            t.insert(&it);
        }
        QCOMPARE(t.height(), 1);
        LineCounter c;
        t.setObserver(&c);
        BItem& extra = items.emplace_back();
        extra.start = extra.last = 100;  // goes last: into the right half
        t.insert(&extra);
        t.setObserver(nullptr);
        QCOMPARE(t.height(), 2);
        QCOMPARE(t.leafCount(), std::size_t{2});
        // 4 moved + the new item's own pointer.
        QCOMPARE(c.backPointers(), std::size_t{kMinFill + 1});
        QVERIFY(BTreeChecker::check(t).ok);
    }

    // A point query on a two-level tree reads the root's header and its key lines, then one
    // leaf's: at most 1 + 3 lines per node (header, keys, maxes or lasts, pointers).
    void aPointQueryReadsOnePathsLines() {
        IntervalBTree t;
        std::deque<BItem> items;
        for (Index i = 0; i < 100; ++i) {
            BItem& it = items.emplace_back();
            it.start = it.last = i * 10;
            t.insert(&it);
        }
        QCOMPARE(t.height(), 2);
        LineCounter c;
        t.setObserver(&c);
        const auto hits = t.overlapping(500, 500);
        t.setObserver(nullptr);
        QCOMPARE(hits.size(), std::size_t{1});
        QCOMPARE(hits[0]->start, Index{500});
        // Root: header + up to 2 lines of each array it scans; one leaf the same.
        QVERIFY2(c.lines() <= 2 * (1 + 2 + 2 + 2), qPrintable(QString::number(c.lines())));
        QVERIFY(c.lines() >= 4);
    }

    void memoryIsItsNodes() {
        IntervalBTree t;
        std::deque<BItem> items;
        for (Index i = 0; i < 5000; ++i) {
            BItem& it = items.emplace_back();
            it.start = i % 5;
            it.last = it.start + 3;
            t.insert(&it);
        }
        // The leaves the index counts are the ones its items live in (counted from the items'
        // back pointers, not from the index), each a whole number of cache lines.
        std::set<const Leaf*> leaves;
        for (const BItem& it : items)
            leaves.insert(it.leaf());
        QCOMPARE(t.leafCount(), leaves.size());
        QVERIFY(t.bytes() >= leaves.size() * sizeof(Leaf));
        QCOMPARE(sizeof(Leaf) % 64, std::size_t{0});
        QCOMPARE(sizeof(Inner) % 64, std::size_t{0});
        // Every leaf at least a quarter full.
        QVERIFY(t.leafCount() <= 5000 / kMinFill + 1);
    }
};

IMMAP_TEST_SUITE(TestBTreeCounting);
#include "TestBTreeCounting.moc"
