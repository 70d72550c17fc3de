// The B-tree animation (issue 20): recorded frames against the index itself and against
// shapes worked out by hand from the algorithm's rules (split where the item goes, kMinFill a
// quarter, borrow before merge).

#include <QTest>
#include <algorithm>
#include <set>

#include "Suites.h"
#include "session/Session.h"

using namespace immap;

namespace {

const std::vector<std::pair<btree::Index, btree::Index>> kLibc{
    {0x0, 0x25}, {0x26, 0x17b}, {0x17c, 0x1ce}, {0x1cf, 0x1d2}, {0x1d3, 0x1d4}};

std::unique_ptr<session::Session> load(int processes, const char* policy) {
    auto s = std::make_unique<session::Session>();
    s->load("synthetic:libc?processes=" + std::to_string(processes) + "&seed=1",
            "synthetic:numa:2 core:2 pu:1");
    mapping::Policy p;
    std::string error;
    if (!mapping::Policy::parse(policy, p, error)) qFatal("%s", error.c_str());
    s->setSplitPolicy(p);
    return s;
}

session::DrawBTree picture(const session::TreeSet& set, session::TreeId t) {
    return session::DrawBTree::of(set.btree(t), [&](const btree::Item* it, int& id, int& home) {
        set.describe(it, id, home);
    });
}

std::vector<session::TreeOp> execOps(std::int64_t pid) {
    std::vector<session::TreeOp> ops;
    for (const auto& [first, last] : kLibc) {
        session::TreeOp op;
        op.vma = session::ExecRecipe::vma(pid, 0, first, last - first + 1, "r--p");
        op.comm = "t";
        ops.push_back(op);
    }
    return ops;
}

std::vector<session::TreeOp> exitOps(const session::TreeSet& set, std::int64_t pid) {
    std::vector<int> ids = set.idsOfPid(pid);
    std::sort(ids.begin(), ids.end(),
              [&](int a, int b) { return set.entry(a).vma.first() < set.entry(b).vma.first(); });
    std::vector<session::TreeOp> ops;
    for (int id : ids) {
        session::TreeOp op;
        op.kind = session::TreeOp::Kind::Remove;
        op.id = id;
        ops.push_back(op);
    }
    return ops;
}

std::unique_ptr<session::BTreePlayer> asFrames(std::unique_ptr<session::Playback> p) {
    auto* f = dynamic_cast<session::BTreePlayer*>(p.get());
    if (!f) return nullptr;
    p.release();
    return std::unique_ptr<session::BTreePlayer>(f);
}

// The single tree's (under "btree" the split side's one tree repeats its story).
std::vector<std::string> captions(session::BTreePlayer& p) {
    std::vector<std::string> out;
    p.seek(0);
    while (p.forward())
        if (p.currentTree() == 0) out.push_back(p.current()->caption);
    return out;
}

int countOf(const std::vector<std::string>& v, const std::string& what) {
    return static_cast<int>(std::count_if(v.begin(), v.end(), [&](const std::string& c) {
        return c.find(what) != std::string::npos;
    }));
}

// The leaves' starts, left to right.
std::vector<std::vector<btree::Index>> leafStarts(const session::DrawBTree& d) {
    std::vector<std::vector<btree::Index>> out;
    for (int i : d.leaves())
        out.push_back(d.nodes[static_cast<std::size_t>(i)].key);
    return out;
}

}  // namespace

class TestBTreePlayer : public QObject {
    Q_OBJECT
private slots:
    void rbtreePoliciesStillPlayKernelSteps() {
        auto s = load(3, "split-trees");
        QVERIFY(!s->trees().hasBTrees());
        auto p = s->run(execOps(s->freshPid()));
        QVERIFY(dynamic_cast<session::StepPlayer*>(p.get()));
    }

    void endIsTheIndexAndStartIsTheTreeBefore() {
        auto s = load(40, "btree+split-trees");
        session::TreeSet& set = s->trees();
        QVERIFY(set.hasBTrees());
        std::vector<session::DrawBTree> before;
        for (int t = 0; t < int(set.treeCount()); ++t)
            before.push_back(picture(set, t));
        const std::int64_t pid = s->freshPid();
        auto ops = execOps(pid);
        for (auto& op : exitOps(set, 10007))
            ops.push_back(op);
        auto p = asFrames(s->run(ops));
        QVERIFY(p);
        QVERIFY(p->count() > 20);
        QVERIFY(p->touches(0));
        p->seek(p->count());
        for (int t = 0; t < int(set.treeCount()); ++t)
            if (p->touches(t)) QVERIFY(p->draw(t) == picture(set, t));
        // One step at a time back to the start: every tree is the picture from before.
        while (p->backward()) {
        }
        for (int t = 0; t < int(set.treeCount()); ++t)
            if (p->touches(t)) QVERIFY(p->draw(t) == before[static_cast<std::size_t>(t)]);
        // Each frame is a whole tree: every live item once, in start order across the leaves.
        std::size_t expected = before[0].items;
        while (p->forward()) {
            if (p->currentTree() != 0) continue;
            const session::DrawBTree& d = p->draw(0);
            std::vector<btree::Index> starts;
            for (const auto& leaf : leafStarts(d))
                starts.insert(starts.end(), leaf.begin(), leaf.end());
            QVERIFY(std::is_sorted(starts.begin(), starts.end()));
            const std::string& c = p->current()->caption;
            if (c.find("has room") != std::string::npos || c.find("split;") != std::string::npos)
                ++expected;
            if (c.find("closed") != std::string::npos) --expected;
            QCOMPARE(starts.size(), expected);
            QCOMPARE(d.items, expected);
        }
    }

    void aFullLeafSplitsWhereTheItemGoes() {
        // 3 processes: 15 VMAs in one leaf. Exec: 0x0 goes in after the three 0x0 (16, full);
        // 0x26 then belongs at slot 7, so the leaf splits there (7 stay, 9 move: 0x17c x3,
        // 0x1cf x3, 0x1d3 x3) and the item goes left; a new root over the two: height 2.
        auto s = load(3, "btree");
        session::TreeSet& set = s->trees();
        QCOMPARE(set.btree(0).size(), std::size_t(15));
        QCOMPARE(set.btree(0).height(), 1);
        auto p = asFrames(s->run(execOps(s->freshPid())));
        const auto c = captions(*p);
        QCOMPARE(countOf(c, "was full"), 1);
        QCOMPARE(countOf(c, "the root split too: a new root, height 1 -> 2"), 1);
        QCOMPARE(countOf(c, "8 entries here, 9 move to a new leaf"), 1);
        // After the split frame: the hand-worked leaves and the root's bound and max-lasts.
        p->seek(0);
        while (p->forward() && p->current()->caption.find("was full") == std::string::npos) {
        }
        const session::DrawBTree& d = p->draw(0);
        QCOMPARE(d.height, 2);
        const auto leaves = leafStarts(d);
        QCOMPARE(leaves.size(), std::size_t(2));
        QVERIFY(leaves[0] == std::vector<btree::Index>({0, 0, 0, 0, 0x26, 0x26, 0x26, 0x26}));
        QVERIFY(leaves[1] == std::vector<btree::Index>(
                                 {0x17c, 0x17c, 0x17c, 0x1cf, 0x1cf, 0x1cf, 0x1d3, 0x1d3, 0x1d3}));
        const session::DrawBNode& root = d.nodes[0];
        QCOMPARE(root.key[1], btree::Index(0x17c));
        QCOMPARE(root.last[0], btree::Index(0x17b));
        QCOMPARE(root.last[1], btree::Index(0x1d4));
        // The split's frame marks the leaf that split and the path to it.
        QCOMPARE(p->current()->mark.focus.node, d.leaves()[0]);
        QVERIFY(p->current()->mark.touched == std::vector<int>({d.leaves()[1], 0}));
        // Later inserts into the right leaf find its max-last covers them: no writes above.
        QVERIFY(countOf(c, "already covers") >= 3);
    }

    void underFullLeavesBorrowThenMergeAndTheRootShrinks() {
        // From the split above plus the rest of the exec: [0x0 x4, 0x26 x4] and 12 on the
        // right. Each exit takes two from the left and three from the right (kMinFill 4):
        // the new process and one old: 4 | 6. A second old one: 0x0 leaves 3, a borrow from the
        // right (4 | 5); 0x26 leaves 3, another (4 | 4); 0x17c leaves the right 3 and its left
        // sibling has no spare: merge (7), and the root, one child left, goes: height 1. One
        // process of the four is left.
        auto s = load(3, "btree");
        session::TreeSet& set = s->trees();
        const std::int64_t pid = s->freshPid();
        s->run(execOps(pid));
        s->run(exitOps(set, pid));
        s->run(exitOps(set, 10000));
        QCOMPARE(set.btree(0).height(), 2);
        auto p = asFrames(s->run(exitOps(set, 10001)));
        const auto c = captions(*p);
        QCOMPARE(countOf(c, "takes one from its right sibling"), 2);
        QCOMPARE(countOf(c, "merge into one (7 entries"), 1);
        QCOMPARE(countOf(c, "height 2 -> 1"), 1);
        QCOMPARE(set.btree(0).height(), 1);
        QCOMPARE(set.btree(0).size(), std::size_t(5));  // 0x1cf and 0x1d3 leave the merged leaf
        QVERIFY(p->draw(0) == picture(set, 0));
        // The remove frames start from the back pointer, not a descent.
        QCOMPARE(countOf(c, "back pointer names its leaf"), 5);
        QCOMPARE(countOf(c, "go down"), 0);
    }

    void maxLastPropagatesLevelByLevel() {
        // A VMA reaching past every other raises the max-last of every level above its leaf,
        // one frame per write, each showing the old and new value.
        auto s = load(200, "btree");
        session::TreeSet& set = s->trees();
        const int h = set.btree(0).height();
        QVERIFY(h >= 3);
        session::TreeOp op;
        op.vma = session::ExecRecipe::vma(s->freshPid(), 0, 0x10, 0x1000, "r--p");
        op.comm = "t";
        auto p = asFrames(s->run({op}));
        const auto c = captions(*p);
        QCOMPARE(countOf(c, "-> 0x100f (propagating up)"), h - 1);
        p->seek(0);
        int flashed = 0;
        while (p->forward() && p->currentTree() == 0) {
            const auto& m = p->current()->mark;
            if (m.flash.empty()) continue;
            ++flashed;
            const auto& n = p->draw(0).nodes[static_cast<std::size_t>(m.flash[0].node)];
            QCOMPARE(n.last[static_cast<std::size_t>(m.flash[0].slot)], btree::Index(0x100f));
            QCOMPARE(n.level, h - 1 - flashed);  // bottom up
        }
        QCOMPARE(flashed, h - 1);
    }

    void aQueryPrunesOnMaxLastAndFindsWhatBruteForceFinds() {
        auto s = load(3, "btree");
        session::TreeSet& set = s->trees();
        s->run(execOps(s->freshPid()));  // two leaves, root max-lasts 0x17b | 0x1d4
        auto p = s->walkBTrees(0x1d0, 0x1d0);
        while (p->forward() && p->currentTree() == 0) {
        }
        p->backward();  // the single tree's last frame
        QCOMPARE(p->currentTree(), 0);
        const auto m = p->highlight(0);
        QVERIFY(std::find(m.pruned.begin(), m.pruned.end(), session::BTreeMark{0, 0}) !=
                m.pruned.end());
        std::size_t brute = 0;
        for (int id : set.liveIds())
            brute += set.entry(id).vma.first() <= 0x1d0 && set.entry(id).vma.last() >= 0x1d0;
        QCOMPARE(m.matches.size(), brute);
        QCOMPARE(brute, std::size_t(4));
        QCOMPARE(m.visited.size(), std::size_t(2));  // the root and the right leaf
        QVERIFY(p->caption().find("found (4 so far)") != std::string::npos);
    }
};

IMMAP_TEST_SUITE(TestBTreePlayer);
#include "TestBTreePlayer.moc"
