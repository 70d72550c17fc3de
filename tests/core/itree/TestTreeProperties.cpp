// Property tests: long op sequences against the brute-force model, every invariant checked
// after every op, queries compared with a linear filter. Over a million ops in all.
#include <QTest>
#include <limits>

#include "BruteForceModel.h"
#include "Suites.h"
#include "itree/LibcChurn.h"

using namespace immap::test;
using immap::itree::kLibcSegments;

namespace {

constexpr Index kMax = std::numeric_limits<Index>::max();

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
    void remove(TestNode* n) {
        removeAt(static_cast<std::size_t>(std::find(live.begin(), live.end(), n) - live.begin()));
    }
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
    void randomMixed_data() {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<quint64>("keySpan");  // small spans give many duplicate starts
        QTest::addColumn<quint64>("maxLen");
        QTest::addColumn<int>("ops");
        QTest::addColumn<int>("peak");  // the live count swings between 0 and this
        QTest::newRow("dense duplicates")
            << quint64(1) << quint64(16) << quint64(8) << 250000 << 600;
        QTest::newRow("nested ranges")
            << quint64(2) << quint64(1000) << quint64(1000) << 150000 << 1500;
        QTest::newRow("sparse small")
            << quint64(3) << quint64(1000000) << quint64(50) << 150000 << 2500;
        QTest::newRow("full 64-bit range")
            << quint64(4) << quint64(kMax) << quint64(kMax) << 60000 << 800;
    }
    void randomMixed() {
        QFETCH(quint64, seed);
        QFETCH(quint64, keySpan);
        QFETCH(quint64, maxLen);
        QFETCH(int, ops);
        QFETCH(int, peak);
        Harness h(seed);
        h.spanHint = keySpan;
        bool growing = true;
        for (int i = 0; i < ops; ++i) {
            if (h.live.size() >= static_cast<std::size_t>(peak)) growing = false;
            if (h.live.empty()) growing = true;
            // Mostly move towards the target size, with both op kinds throughout.
            const bool insert = h.live.empty() || h.uniform(0, 9) < (growing ? 7u : 3u);
            if (insert) {
                const Index start = h.uniform(0, keySpan);
                const Index len = h.uniform(0, maxLen);
                h.insert(start, start > kMax - len ? kMax : start + len);
            } else {
                h.removeAt(h.uniform(0, h.live.size() - 1));
            }
            QVERIFY2(h.check(), h.failure.c_str());
        }
        totalOps += h.ops;
    }

    void adversarialOrders_data() {
        QTest::addColumn<QString>("insertOrder");
        QTest::addColumn<QString>("removeOrder");
        for (const char* ins : {"ascending", "descending", "zigzag", "equal"})
            for (const char* rem : {"ascending", "descending", "zigzag", "random", "root"})
                QTest::addRow("%s/%s", ins, rem) << QString(ins) << QString(rem);
    }
    void adversarialOrders() {
        QFETCH(QString, insertOrder);
        QFETCH(QString, removeOrder);
        constexpr Index kN = 2500;
        Harness h(7);
        h.spanHint = kN;
        auto zigzag = [](Index i) { return i % 2 ? kN - 1 - i / 2 : i / 2; };
        for (Index i = 0; i < kN; ++i) {
            Index k = i;
            if (insertOrder == "descending") k = kN - 1 - i;
            if (insertOrder == "zigzag") k = zigzag(i);
            if (insertOrder == "equal") k = 42;
            h.insert(k, k + i % 7);
            QVERIFY2(h.check(), h.failure.c_str());
        }
        // Removal in key order uses the model's sequence (ties in insertion order).
        std::vector<const Node*> order = h.model.sequence();
        if (removeOrder == "descending") std::reverse(order.begin(), order.end());
        if (removeOrder == "zigzag") {
            std::vector<const Node*> z;
            for (std::size_t i = 0; i < order.size(); ++i)
                z.push_back(order[zigzag(i)]);
            order = z;
        }
        if (removeOrder == "random") std::shuffle(order.begin(), order.end(), h.rng);
        for (std::size_t i = 0; i < kN; ++i) {
            // "root": always remove the root, the two-children case with the deepest successor.
            const Node* victim = removeOrder == "root" ? h.tree.root() : order[i];
            h.remove(static_cast<TestNode*>(const_cast<Node*>(victim)));
            QVERIFY2(h.check(), h.failure.c_str());
        }
        QVERIFY(h.tree.empty());
        QCOMPARE(h.tree.leftmost(), nullptr);
        totalOps += h.ops;
    }

    // Thousands of copies of libc's five intervals, then exec/exit churn.
    void libcShaped() {
        Harness h(11);
        h.spanHint = 0x1d5;
        std::vector<std::vector<TestNode*>> procs;
        auto exec = [&] {
            std::vector<TestNode*> vmas;
            for (const auto& s : kLibcSegments) {
                vmas.push_back(h.insert(s.pgoff, s.pgoff + s.pages - 1));
                if (!h.check()) return false;
            }
            procs.push_back(vmas);
            return true;
        };
        for (int p = 0; p < 1000; ++p)
            QVERIFY2(exec(), h.failure.c_str());
        for (int c = 0; c < 12000; ++c) {
            const std::size_t victim = h.uniform(0, procs.size() - 1);
            for (TestNode* v : procs[victim]) {
                h.remove(v);
                QVERIFY2(h.check(), h.failure.c_str());
            }
            procs[victim] = procs.back();
            procs.pop_back();
            QVERIFY2(exec(), h.failure.c_str());
        }
        QCOMPARE(h.tree.size(), std::size_t{5000});
        totalOps += h.ops;
    }

    // Fork: dup_mmap puts each child VMA right after its parent's with insert_after.
    void forkChurn() {
        Harness h(13);
        h.spanHint = 0x1d5;
        std::vector<std::vector<TestNode*>> procs;
        for (int p = 0; p < 50; ++p) {
            std::vector<TestNode*> vmas;
            for (const auto& s : kLibcSegments)
                vmas.push_back(h.insert(s.pgoff, s.pgoff + s.pages - 1));
            procs.push_back(vmas);
        }
        QVERIFY2(h.check(), h.failure.c_str());
        for (int c = 0; c < 40000; ++c) {
            const std::size_t who = h.uniform(0, procs.size() - 1);
            if (procs.size() < 400 && (procs.size() < 20 || h.uniform(0, 1) == 0)) {
                std::vector<TestNode*> child;
                for (TestNode* parent : procs[who]) {
                    TestNode* n = h.insertAfter(parent);
                    QVERIFY2(h.check(), h.failure.c_str());
                    QCOMPARE(IntervalTree::next(parent), static_cast<Node*>(n));
                    child.push_back(n);
                }
                procs.push_back(child);
            } else {
                for (TestNode* v : procs[who]) {
                    h.remove(v);
                    QVERIFY2(h.check(), h.failure.c_str());
                }
                procs[who] = procs.back();
                procs.pop_back();
            }
        }
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
