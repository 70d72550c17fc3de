// The checker is only worth its name if it catches broken trees: corrupt a valid tree through
// the (public) key fields and expect the precise complaint.
#include <QTest>

#include "BruteForceModel.h"
#include "Suites.h"

using namespace immap::test;
using immap::itree::InvariantChecker;

class TestInvariantChecker : public QObject {
    Q_OBJECT

    std::deque<TestNode> nodes;
    IntervalTree tree;

private slots:
    void init() {
        tree.clear();
        nodes.clear();
        for (Index k = 0; k < 31; ++k)
            tree.insert(&nodes.emplace_back(k, k * 10, k * 10 + 5));
    }

    void validTreeShape() {
        const auto r = InvariantChecker::check(tree);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.shape.nodes, std::size_t{31});
        // 31 ascending inserts: height between log2(32) and 2*log2(32).
        QVERIFY(r.shape.height >= 5 && r.shape.height <= 10);
        QVERIFY(r.shape.blackHeight >= 3);
    }

    void catchesStaleSubtreeLast() {
        nodes[30].last = 1000;  // the root's subtree_last no longer covers it
        const auto r = InvariantChecker::check(tree);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("subtree_last") != std::string::npos, r.error.c_str());
    }

    void catchesOrder() {
        nodes[3].start = 999;  // an inner node now sorts out of place
        nodes[3].last = 999;
        const auto r = InvariantChecker::check(tree);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("in-order") != std::string::npos, r.error.c_str());
    }

    void catchesStartAfterLast() {
        nodes[30].start = 310;
        nodes[30].last = 300;
        const auto r = InvariantChecker::check(tree);
        QVERIFY(!r.ok);
    }
};

IMMAP_TEST_SUITE(TestInvariantChecker);
#include "TestInvariantChecker.moc"
