// Property tests: long op sequences against the brute-force model, every invariant checked
// after every op, queries compared with a linear filter. Over a million ops in all.
#include <QTest>
#include <limits>

#include "BruteForceModel.h"
#include "ChurnScenarios.h"
#include "Suites.h"
#include "itree/LibcChurn.h"

using namespace immap::test;

namespace {

// Tree, model and pool driven together; every op is followed by a full check.
struct Harness {
    IntervalTree tree;
    BruteForceModel model;
    NodePool pool;
    std::vector<TestNode*> live;
    std::mt19937_64 rng;
    std::size_t ops = 0;
    std::size_t queryEvery = 4;
    std::string failure;

    explicit Harness(std::uint64_t seed) : rng(seed) {}

    TestNode* insert(Index start, Index last) {
        TestNode* n = pool.make(start, last);
        tree.insert(n);
        model.insert(n);
        live.push_back(n);
        return n;
    }
    TestNode* insertAfter(TestNode* prev) {
        TestNode* n = pool.make(prev->start, prev->last);
        if (!tree.insertAfter(n, prev)) failure = "insertAfter refused a fork copy";
        model.insertAfter(n, prev);
        live.push_back(n);
        return n;
    }
    void removeAt(std::size_t i) {
        TestNode* n = live[i];
        live[i] = live.back();
        live.pop_back();
        tree.remove(n);
        model.remove(n);
        pool.release(n);
    }
    void remove(const Node* n) {
        removeAt(static_cast<std::size_t>(std::find(live.begin(), live.end(), n) - live.begin()));
    }
    std::vector<const Node*> sequence() const { return model.sequence(); }
    Index uniform(Index lo, Index hi) { return std::uniform_int_distribution<Index>(lo, hi)(rng); }

    // Checks after one op; returns false (with `failure` set) at the first disagreement.
    bool check() {
        ++ops;
        if (failure.empty()) failure = mismatch(tree, model);
        if (failure.empty() && ops % queryEvery == 0) {
            Index a = uniform(0, spanHint), b = uniform(0, spanHint);
            if (a > b) std::swap(a, b);
            if (uniform(0, 3) == 0) b = a;  // a point query, as an rmap walk of one page
            if (query(tree, a, b) != model.overlapping(a, b))
                failure = "query [" + std::to_string(a) + ", " + std::to_string(b) + "] differs";
        }
        if (!failure.empty()) failure += " (after op " + std::to_string(ops) + ")";
        return failure.empty();
    }
    Index spanHint = 1000;
};

std::size_t totalOps = 0;

}  // namespace

class TestTreeProperties : public QObject {
    Q_OBJECT

private slots:
    void randomMixed_data() { randomMixRows(); }
    void randomMixed() {
        QFETCH(quint64, seed);
        QFETCH(quint64, keySpan);
        QFETCH(quint64, maxLen);
        QFETCH(int, ops);
        QFETCH(int, peak);
        Harness h(seed);
        h.spanHint = keySpan;
        QVERIFY2(randomMix(h, keySpan, maxLen, ops, peak, false), h.failure.c_str());
        totalOps += h.ops;
    }

    void adversarialOrders_data() { adversarialRows("root"); }
    void adversarialOrders() {
        QFETCH(QString, insertOrder);
        QFETCH(QString, removeOrder);
        Harness h(7);
        // "root": always remove the root, the two-children case with the deepest successor.
        QVERIFY2(adversarial(h, insertOrder.toStdString(), removeOrder.toStdString(),
                             [&] { return static_cast<const Node*>(h.tree.root()); }),
                 h.failure.c_str());
        QVERIFY(h.tree.empty());
        QCOMPARE(h.tree.leftmost(), nullptr);
        totalOps += h.ops;
    }

    // Thousands of copies of libc's five intervals, then exec/exit churn.
    void libcShaped() {
        Harness h(11);
        h.spanHint = 0x1d5;
        QVERIFY2(libcExecExit(h, 1000, 12000), h.failure.c_str());
        QCOMPARE(h.tree.size(), std::size_t{5000});
        totalOps += h.ops;
    }

    // Fork: dup_mmap puts each child VMA right after its parent's with insert_after.
    void forkChurn() {
        Harness h(13);
        h.spanHint = 0x1d5;
        QVERIFY2(forkExit(h, 40000,
                          [&](TestNode* parent, TestNode* n) {
                              if (IntervalTree::next(parent) == n) return true;
                              h.failure = "a fork copy is not right after its parent";
                              return false;
                          }),
                 h.failure.c_str());
        totalOps += h.ops;
    }

    void insertAfterKeepsLeftmostAndRefusesBadPrecondition() {
        IntervalTree t;
        TestNode a(1, 10, 20), b(2, 5, 30), c(3, 10, 20), wrongStart(4, 11, 20), tooLong(5, 10, 99);
        t.insert(&a);
        t.insert(&b);
        QCOMPARE(t.leftmost(), static_cast<Node*>(&b));
        QVERIFY(!t.insertAfter(&wrongStart, &a));
        QVERIFY(!t.insertAfter(&tooLong, &a));
        QCOMPARE(t.size(), std::size_t{2});
        QVERIFY(t.insertAfter(&c, &a));
        QCOMPARE(t.leftmost(), static_cast<Node*>(&b));
        QCOMPARE(IntervalTree::next(&a), static_cast<Node*>(&c));
        QVERIFY(immap::itree::InvariantChecker::check(t).ok);
    }

    void cleanupTestCase() {
        // Only meaningful when the whole class ran (no single-function selection).
        if (QCoreApplication::arguments().size() <= 2) {
            qInfo("property ops checked: %zu", totalOps);
            QVERIFY2(totalOps >= 1000000, "fewer than a million checked ops");
        }
    }
};

IMMAP_TEST_SUITE(TestTreeProperties);
#include "TestTreeProperties.moc"
