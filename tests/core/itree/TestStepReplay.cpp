// The step recorder: known kernel cases on small trees, and recordings replayed on a shadow
// tree reproduce the real tree after every op, forwards, and the previous tree backwards.
#include <QTest>

#include "BruteForceModel.h"
#include "Suites.h"
#include "itree/ReplayTree.h"
#include "itree/StepRecorder.h"

using namespace immap::test;
using namespace immap::itree;

namespace {

struct Recorded {
    StepKind kind;
    const Node* a;
    const Node* b;
    int detail;
};

std::vector<Recorded> stepsOf(const StepRecorder& rec, StepKind kind) {
    std::vector<Recorded> out;
    for (const Step& s : rec.steps())
        if (s.kind == kind) out.push_back({s.kind, s.a, s.b, s.detail});
    return out;
}

// A canonical text of a shadow's reachable state, to compare before/after a round trip.
std::string fingerprint(const ReplayTree& r) {
    std::string s = "root " + std::to_string(reinterpret_cast<std::uintptr_t>(r.root())) + " lm " +
                    std::to_string(reinterpret_cast<std::uintptr_t>(r.leftmost()));
    for (const Node* n : r.inorder()) {
        const auto& st = r.state(n);
        for (const void* p :
             {static_cast<const void*>(n), static_cast<const void*>(st.parent),
              static_cast<const void*>(st.left), static_cast<const void*>(st.right)})
            s += ' ' + std::to_string(reinterpret_cast<std::uintptr_t>(p));
        s += st.color == Color::Red ? 'r' : 'b';
        s += std::to_string(st.subtreeLast);
    }
    return s;
}

}  // namespace

class TestStepReplay : public QObject {
    Q_OBJECT

private slots:
    // 10, 20, 30 ascending: the third insert has a red parent, no uncle, and is the outer
    // child, so __rb_insert takes case 3 and rotates left at 10 (20 becomes the black root).
    void insertCase3RotatesAtGrandparent() {
        IntervalTree t;
        StepRecorder rec;
        TestNode a(1, 10, 10), b(2, 20, 20), c(3, 30, 30);
        t.insert(&a);
        t.insert(&b);
        t.setRecorder(&rec);
        t.insert(&c);
        const auto cases = stepsOf(rec, StepKind::FixupCase);
        QCOMPARE(cases.size(), std::size_t{1});
        QCOMPARE(cases[0].detail, 3);
        const auto rot = stepsOf(rec, StepKind::Rotate);
        QCOMPARE(rot.size(), std::size_t{1});
        QCOMPARE(rot[0].a, static_cast<const Node*>(&a));
        QCOMPARE(rot[0].b, static_cast<const Node*>(&b));
        QCOMPARE(rot[0].detail, 0);  // left
        QCOMPARE(t.root(), static_cast<Node*>(&b));
        QVERIFY(b.isBlack() && a.isRed() && c.isRed());
    }

    // 10, 30, 20: the inner child; case 2 rotates right at 30, then case 3 left at 10.
    void insertCase2ThenCase3() {
        IntervalTree t;
        StepRecorder rec;
        TestNode a(1, 10, 10), b(2, 30, 30), c(3, 20, 20);
        t.insert(&a);
        t.insert(&b);
        t.setRecorder(&rec);
        t.insert(&c);
        const auto cases = stepsOf(rec, StepKind::FixupCase);
        QCOMPARE(cases.size(), std::size_t{2});
        QCOMPARE(cases[0].detail, 2);
        QCOMPARE(cases[1].detail, 3);
        const auto rot = stepsOf(rec, StepKind::Rotate);
        QCOMPARE(rot.size(), std::size_t{2});
        QCOMPARE(rot[0].a, static_cast<const Node*>(&b));
        QCOMPARE(rot[0].detail, 1);  // right at 30
        QCOMPARE(rot[1].a, static_cast<const Node*>(&a));
        QCOMPARE(rot[1].detail, 0);  // left at 10
        QCOMPARE(t.root(), static_cast<Node*>(&c));
        // The new root covers the whole tree: subtree_last passed on by the rotate callback.
        QCOMPARE(c.subtreeLast(), Index{30});
    }

    // Red uncle: case 1 recolours parent, uncle and grandparent, then the root goes black.
    void insertCase1Recolours() {
        IntervalTree t;
        StepRecorder rec;
        TestNode a(1, 20, 20), b(2, 10, 10), c(3, 30, 30), d(4, 5, 5);
        for (TestNode* n : {&a, &b, &c})
            t.insert(n);
        t.setRecorder(&rec);
        t.insert(&d);
        const auto cases = stepsOf(rec, StepKind::FixupCase);
        QVERIFY(cases.size() >= 1);
        QCOMPARE(cases[0].detail, 1);
        QVERIFY(stepsOf(rec, StepKind::Rotate).empty());
        QVERIFY(a.isBlack() && b.isBlack() && c.isBlack() && d.isRed());
    }

    // Erase cases: no left child (1), successor is the right child (2), successor deeper (3).
    void eraseCases() {
        IntervalTree t;
        StepRecorder rec;
        TestNode n20(1, 20, 20), n10(2, 10, 10), n30(3, 30, 30), n25(4, 25, 25);
        for (TestNode* n : {&n20, &n10, &n30, &n25})
            t.insert(n);
        t.setRecorder(&rec);
        t.remove(&n20);  // right subtree 30 has left child 25: the successor is 25, deeper
        auto ec = stepsOf(rec, StepKind::EraseCase);
        QCOMPARE(ec.size(), std::size_t{1});
        QCOMPARE(ec[0].detail, 3);
        QCOMPARE(ec[0].b, static_cast<const Node*>(&n25));
        QCOMPARE(t.root(), static_cast<Node*>(&n25));
        rec.clear();
        t.remove(&n25);  // now 30 is the right child with no left child: case 2
        ec = stepsOf(rec, StepKind::EraseCase);
        QCOMPARE(ec[0].detail, 2);
        rec.clear();
        t.remove(&n10);  // a leaf: case 1
        ec = stepsOf(rec, StepKind::EraseCase);
        QCOMPARE(ec[0].detail, 1);
        QCOMPARE(t.root(), static_cast<Node*>(&n30));
        QCOMPARE(t.leftmost(), static_cast<Node*>(&n30));
    }

    // Inserting 10 5 20 15 25 30 35 gives 10b(5b, 20r(15b, 30b(25r, 35r))). Removing the black
    // leaf 5 leaves 10 one black short with a red sibling 20: erase fix-up case 1 rotates left
    // at 10, then the new sibling 15 has no red child: case 2 recolours it and 10 turns black.
    void eraseFixupCase1ThenCase2() {
        IntervalTree t;
        StepRecorder rec;
        std::deque<TestNode> nodes;
        for (Index k : {10, 5, 20, 15, 25, 30, 35})
            t.insert(&nodes.emplace_back(k, k, k));
        TestNode &n10 = nodes[0], &n5 = nodes[1], &n20 = nodes[2], &n15 = nodes[3];
        QVERIFY(n10.isBlack() && n5.isBlack() && n20.isRed() && n15.isBlack());
        t.setRecorder(&rec);
        t.remove(&n5);
        const auto cases = stepsOf(rec, StepKind::FixupCase);
        QCOMPARE(cases.size(), std::size_t{2});
        QCOMPARE(cases[0].detail, 1);
        QCOMPARE(cases[1].detail, 2);
        const auto rot = stepsOf(rec, StepKind::Rotate);
        QCOMPARE(rot.size(), std::size_t{1});
        QCOMPARE(rot[0].a, static_cast<const Node*>(&n10));
        QCOMPARE(rot[0].b, static_cast<const Node*>(&n20));
        QCOMPARE(t.root(), static_cast<Node*>(&n20));
        QVERIFY(n20.isBlack() && n10.isBlack() && n15.isRed());
        QCOMPARE(t.leftmost(), static_cast<Node*>(&n10));
        QVERIFY(InvariantChecker::check(t).ok);
    }

    // Every op of a long random sequence: forward replay of its steps gives the real tree;
    // backward replay gives the shadow as it was; from empty, all along.
    void replayForwardAndBackward() {
        IntervalTree t;
        StepRecorder rec;
        t.setRecorder(&rec);
        ReplayTree shadow;  // starts empty, sees only recorded changes
        NodePool pool;
        std::vector<TestNode*> live;
        std::mt19937_64 rng(5);
        for (int i = 0; i < 20000; ++i) {
            const std::string before = i % 4 == 0 ? fingerprint(shadow) : std::string();
            rec.clear();
            const int choice = static_cast<int>(rng() % 10);
            if (live.empty() || (choice < 4 && live.size() < 400)) {
                const Index s = rng() % 64, l = s + rng() % 16;
                live.push_back(pool.make(s, l));
                t.insert(live.back());
            } else if (choice < 5 && live.size() < 400) {
                TestNode* prev = live[rng() % live.size()];
                live.push_back(pool.make(prev->start, prev->last));
                QVERIFY(t.insertAfter(live.back(), prev));
            } else {
                const std::size_t k = rng() % live.size();
                t.remove(live[k]);
                pool.release(live[k]);
                live[k] = live.back();
                live.pop_back();
            }
            for (const Step& s : rec.steps())
                QVERIFY2(shadow.forward(rec, s), "change does not fit");
            const std::string diff = shadow.differenceFrom(t);
            QVERIFY2(diff.empty(), diff.c_str());
            if (!before.empty()) {
                for (auto s = rec.steps().rbegin(); s != rec.steps().rend(); ++s)
                    QVERIFY2(shadow.backward(rec, *s), "change does not fit backwards");
                QCOMPARE(fingerprint(shadow), before);
                for (const Step& s : rec.steps())
                    QVERIFY(shadow.forward(rec, s));
            }
        }
    }

    // A whole recorded history, reverted step by step, ends in the empty tree.
    void revertWholeHistoryToEmpty() {
        IntervalTree t;
        StepRecorder rec;
        t.setRecorder(&rec);
        std::deque<TestNode> nodes;
        for (int i = 0; i < 300; ++i)
            t.insert(&nodes.emplace_back(i, (i * 37) % 101, (i * 37) % 101 + 3));
        for (int i = 0; i < 300; i += 2)
            t.remove(&nodes[i]);
        ReplayTree shadow;
        for (const Step& s : rec.steps())
            QVERIFY(shadow.forward(rec, s));
        QVERIFY(shadow.differenceFrom(t).empty());
        for (auto s = rec.steps().rbegin(); s != rec.steps().rend(); ++s)
            QVERIFY(shadow.backward(rec, *s));
        QCOMPARE(shadow.root(), nullptr);
        QCOMPARE(shadow.leftmost(), nullptr);
    }

    // Starting a shadow from a non-empty tree (as the animation does) works too.
    void replayFromSnapshot() {
        IntervalTree t;
        std::deque<TestNode> nodes;
        for (int i = 0; i < 100; ++i)
            t.insert(&nodes.emplace_back(i, i % 7, i % 7 + i));
        ReplayTree shadow(t);
        QVERIFY(shadow.differenceFrom(t).empty());
        StepRecorder rec;
        t.setRecorder(&rec);
        t.remove(&nodes[0]);
        t.insert(&nodes.emplace_back(1000, 3, 3));
        for (const Step& s : rec.steps())
            QVERIFY(shadow.forward(rec, s));
        const std::string diff = shadow.differenceFrom(t);
        QVERIFY2(diff.empty(), diff.c_str());
    }
};

IMMAP_TEST_SUITE(TestStepReplay);
#include "TestStepReplay.moc"
