// Property tests of the B-tree interval index: long op sequences (random, adversarial orders,
// libc's thousands of equal starts, fork churn) against the brute-force model and the kernel's
// rbtree, every invariant checked after every op, queries compared item for item and in order.
// Over a million ops in all.
#include <QTest>
#include <limits>

#include "BTreeHarness.h"
#include "ChurnScenarios.h"
#include "Suites.h"

using namespace immap::test;

namespace {

std::size_t totalOps = 0;

}  // namespace

class TestBTreeProperties : public QObject {
    Q_OBJECT

private slots:
    void randomMixed_data() { randomMixRows(); }
    void randomMixed() {
        QFETCH(quint64, seed);
        QFETCH(quint64, keySpan);
        QFETCH(quint64, maxLen);
        QFETCH(int, ops);
        QFETCH(int, peak);
        BTreeHarness h(seed);
        h.spanHint = keySpan;
        QVERIFY2(randomMix(h, keySpan, maxLen, ops, peak, true), h.failure.c_str());
        totalOps += h.ops;
    }

    void adversarialOrders_data() { adversarialRows("leftmost"); }
    void adversarialOrders() {
        QFETCH(QString, insertOrder);
        QFETCH(QString, removeOrder);
        BTreeHarness h(7);
        // "leftmost": always the first in order, so the leftmost leaf keeps underflowing.
        QVERIFY2(adversarial(h, insertOrder.toStdString(), removeOrder.toStdString(),
                             [&] { return h.model.front(); }),
                 h.failure.c_str());
        QVERIFY(h.tree.empty());
        QCOMPARE(h.tree.height(), 0);
        QCOMPARE(h.tree.leafCount(), std::size_t{0});
        totalOps += h.ops;
    }

    // Thousands of copies of libc's five intervals, then exec/exit churn: runs of equal starts
    // far longer than a leaf.
    void libcShaped() {
        BTreeHarness h(11);
        h.spanHint = 0x1d5;
        QVERIFY2(libcExecExit(h, 1000, 12000), h.failure.c_str());
        QCOMPARE(h.tree.size(), std::size_t{5000});
        totalOps += h.ops;
    }

    // Fork churn: each child VMA right after its parent's (insertAfter); the harness's model
    // comparison after every op checks the place.
    void forkChurn() {
        BTreeHarness h(13);
        h.spanHint = 0x1d5;
        QVERIFY2(forkExit(h, 40000, [](const Vma*, const Vma*) { return true; }),
                 h.failure.c_str());
        totalOps += h.ops;
    }

    void cleanupTestCase() {
        // Only meaningful when the whole class ran (no single-function selection).
        if (QCoreApplication::arguments().size() <= 2) {
            qInfo("property ops checked: %zu", totalOps);
            QVERIFY2(totalOps >= 1000000, "fewer than a million checked ops");
        }
    }
};

IMMAP_TEST_SUITE(TestBTreeProperties);
#include "TestBTreeProperties.moc"
