// StepPlayer: replaying recorded updates forwards and backwards lands exactly on the real trees,
// captions name the kernel's cases (worked out by hand on tiny trees), highlights follow the op.
#include <QTest>
#include <random>

#include "SmallSet.h"
#include "Suites.h"
#include "itree/InvariantChecker.h"
#include "session/DrawTree.h"
#include "session/Session.h"
#include "session/StepPlayer.h"

using namespace immap;
using immap::test::SmallSet;

namespace {

// Runs ops on the set the way Session::run does (single tree first, then the splits).
std::unique_ptr<session::StepPlayer> run(session::TreeSet& set,
                                         const std::vector<session::TreeOp>& ops) {
    auto player = std::make_unique<session::StepPlayer>(set);
    std::vector<int> ids;
    for (const auto& op : ops)
        ids.push_back(op.kind == session::TreeOp::Kind::Insert ? set.add(op.vma, op.comm) : op.id);
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const int t = pass == 0 ? session::kSingleTree : set.splitTreeId(ids[i]);
            auto& rec = player->beginOp(t);
            if (ops[i].kind == session::TreeOp::Kind::Insert)
                set.link(ids[i], t, &rec);
            else
                set.unlink(ids[i], t, &rec);
            player->endOp(t);
        }
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (ops[i].kind == session::TreeOp::Kind::Remove) set.markDead(ids[i]);
    return player;
}

bool sameDraw(const session::DrawTree& a, const session::DrawTree& b) {
    if (a.nodes.size() != b.nodes.size() || a.root != b.root) return false;
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const auto &x = a.nodes[i], &y = b.nodes[i];
        if (x.id != y.id || x.red != y.red || x.depth != y.depth ||
            x.subtreeLast != y.subtreeLast || x.parent != y.parent)
            return false;
    }
    return true;
}

}  // namespace

class TestStepPlayer : public QObject {
    Q_OBJECT
private slots:
    void forwardToEndIsTheRealTreeBackToStartIsTheOldOne() {
        session::Session s;
        s.load("synthetic:libc?processes=200&seed=5", "synthetic:numa:4 core:4 pu:1");
        auto& set = s.trees();
        std::vector<session::DrawTree> before;
        for (int t = 0; t < int(set.treeCount()); ++t)
            before.push_back(session::DrawTree::of(set.tree(t), set));
        // exec of a new process, then exit of an old one: inserts and removes, every tree kind.
        std::vector<session::TreeOp> ops = session::ExecRecipe{}.ops(set, s.freshPid(), 1);
        for (auto& op : session::ExitRecipe{}.ops(set, 10007, 0))
            ops.push_back(op);
        auto played = s.run(ops);
        auto* player = dynamic_cast<session::StepPlayer*>(played.get());
        QVERIFY(player);
        QVERIFY(player->count() > 20);
        QVERIFY(player->atStart());
        player->seek(player->count());
        for (int t : player->trees()) {
            QCOMPARE(player->replay(t).differenceFrom(set.tree(t)), std::string());
            QVERIFY(sameDraw(player->draw(t), session::DrawTree::of(set.tree(t), set)));
        }
        // One step at a time back to the start: each tree's picture is the one from before.
        while (player->backward()) {
        }
        QVERIFY(player->atStart());
        for (int t : player->trees())
            QVERIFY(sameDraw(player->draw(t), before[static_cast<std::size_t>(t)]));
        // Stepping never re-ran the algorithm: the real trees are still the final ones.
        QCOMPARE(set.tree(0).size(), std::size_t{1000 + 5 - 5});
    }

    void rotationCaptionNamesTheCase() {
        // Empty tree, insert [0,0] [1,1] [2,2]: the third is the right child of a red right
        // child, the outer case: __rb_insert case 3 rotates left at [0,0], [1,1] comes up.
        SmallSet small({});
        auto player =
            run(*small.set, {SmallSet::insertOp(1, 0, 0, 0), SmallSet::insertOp(2, 1, 1, 0),
                             SmallSet::insertOp(3, 2, 2, 0)});
        bool sawRotate = false;
        while (player->forward()) {
            const itree::Step* st = player->current();
            if (st->kind != itree::StepKind::Rotate || player->currentTree() != 0) continue;
            sawRotate = true;
            const std::string c = player->caption();
            QVERIFY2(c.find("insert fix-up, case 3") != std::string::npos, c.c_str());
            QVERIFY2(c.find("rotate left at pid 1 [0x0, 0x0]") != std::string::npos, c.c_str());
            QVERIFY2(c.find("pid 2 [0x1, 0x1] comes up") != std::string::npos, c.c_str());
            QVERIFY2(c.find("__rb_insert") != std::string::npos, c.c_str());
        }
        QVERIFY(sawRotate);
        const auto d = player->draw(0);
        QCOMPARE(d.nodes.size(), std::size_t{3});
        QCOMPARE(d.nodes[1].pid, std::int64_t{2});  // the root, in the middle
        QCOMPARE(d.root, 1);
        QVERIFY(!d.nodes[1].red && d.nodes[0].red && d.nodes[2].red);
    }

    void highlightFollowsTheDescent() {
        // Root [10,10], children [5,5] and [20,20]; insert [7,7]: compare 10 (left), 5 (right),
        // link as right child of 5; subtree_last of 10 and 5 unchanged (7 < 10 but > 5).
        SmallSet small({{10, 10, 0}, {5, 5, 0}, {20, 20, 0}});
        auto player = run(*small.set, {SmallSet::insertOp(9, 7, 7, 0)});
        const int newId = 3;
        std::vector<int> descents;
        bool flashed5 = false;
        while (player->forward() && player->currentTree() == 0) {
            const auto h = player->highlight();
            const itree::Step* st = player->current();
            if (st->kind == itree::StepKind::Descend) {
                descents.push_back(h.path.back());
                QCOMPARE(h.pending, newId);  // not linked yet: still floating
                QCOMPARE(h.pendingNode.start, itree::Index{7});
            }
            if (st->kind == itree::StepKind::Link) {
                QCOMPARE(h.pending, -1);
                QVERIFY(player->caption().find("link as right child of pid 101 [0x5, 0x5]") !=
                        std::string::npos);
            }
            for (int id : h.flash)
                flashed5 = flashed5 || id == 1;
        }
        QCOMPARE(descents, (std::vector<int>{0, 1}));  // [10,10] then [5,5]
        QVERIFY(flashed5);  // [5,5]'s subtree_last rose to 7 on the way down
    }

    void removeReplaysBothWaysOnRandomTrees() {
        std::mt19937_64 rng(7);
        std::vector<std::tuple<itree::Index, itree::Index, int>> vmas;
        for (int i = 0; i < 300; ++i) {
            const itree::Index a = rng() % 500;
            vmas.emplace_back(a, a + rng() % 40, int(rng() % 2));
        }
        SmallSet small(vmas);
        for (int round = 0; round < 30; ++round) {
            const auto live = small.set->liveIds();
            session::TreeOp op;
            op.kind = session::TreeOp::Kind::Remove;
            op.id = live[rng() % live.size()];
            const auto before = session::DrawTree::of(small.set->tree(0), *small.set);
            auto player = run(*small.set, {op});
            player->seek(player->count());
            QCOMPARE(player->replay(0).differenceFrom(small.set->tree(0)), std::string());
            player->seek(0);
            QVERIFY(sameDraw(player->draw(0), before));
            QVERIFY(itree::InvariantChecker::check(small.set->tree(0)).ok);
        }
    }
};

IMMAP_TEST_SUITE(TestStepPlayer);
#include "TestStepPlayer.moc"
