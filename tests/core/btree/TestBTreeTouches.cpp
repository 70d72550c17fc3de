// What the index reports against what it does: after every operation, every cache line of a
// node that is in the tree before and after it and whose bytes changed must have been reported
// written (or the node made anew), and every item whose leaf changed must have had its back
// pointer reported. The simulator prices exactly these reports (sim::Pricer), so a write the
// index does not report would be a line the model gives away for free.
#include <QTest>
#include <array>
#include <cstring>
#include <deque>
#include <map>
#include <random>
#include <set>

#include "Suites.h"
#include "btree/IntervalBTree.h"
#include "btree/TouchObserver.h"

using namespace immap::btree;

namespace {

struct Reports final : TouchObserver {
    std::set<std::uintptr_t> written, made;  // line numbers
    std::set<const Item*> backPointers;
    static void lines(std::set<std::uintptr_t>& into, const void* p, std::size_t bytes) {
        const auto a = reinterpret_cast<std::uintptr_t>(p) >> 6;
        const auto b = (reinterpret_cast<std::uintptr_t>(p) + bytes - 1) >> 6;
        for (auto l = a; l <= b; ++l)
            into.insert(l);
    }
    void read(const void*, std::size_t) override {}
    void write(const void* p, std::size_t bytes) override { lines(written, p, bytes); }
    void readItem(const Item*) override {}
    void backPointer(const Item* item) override { backPointers.insert(item); }
    void created(const void* p, std::size_t bytes) override { lines(made, p, bytes); }
    void clear() {
        written.clear();
        made.clear();
        backPointers.clear();
    }
};

// Every node in the tree, by address, with a copy of its bytes.
using Snapshot = std::map<const void*, std::vector<unsigned char>>;

void snap(const void* node, int level, Snapshot& out) {
    const std::size_t size = level == 1 ? sizeof(Leaf) : sizeof(Inner);
    const auto* bytes = static_cast<const unsigned char*>(node);
    out[node].assign(bytes, bytes + size);
    if (level > 1) {
        const auto* n = static_cast<const Inner*>(node);
        for (int i = 0; i < n->count; ++i)
            snap(n->child[i], level - 1, out);
    }
}
Snapshot snapshot(const IntervalBTree& t) {
    Snapshot s;
    if (t.root()) snap(t.root(), t.height(), s);
    return s;
}

}  // namespace

class TestBTreeTouches : public QObject {
    Q_OBJECT

private slots:
    void everyChangedLineAndMovedItemIsReported_data() {
        QTest::addColumn<int>("starts");  // distinct starts drawn from: few makes long runs
        QTest::newRow("random") << 1'000'000;
        QTest::newRow("libc-like runs") << 5;
    }
    void everyChangedLineAndMovedItemIsReported() {
        QFETCH(int, starts);
        IntervalBTree t;
        Reports r;
        t.setObserver(&r);
        std::deque<Item> pool;
        std::vector<Item*> live, spare;
        std::mt19937_64 rng(7);
        std::size_t changedLines = 0, moves = 0;
        for (int op = 0; op < 12'000; ++op) {
            const Snapshot before = snapshot(t);
            std::map<const Item*, const Leaf*> leafOf;
            for (Item* it : live)
                leafOf[it] = it->leaf();
            r.clear();
            // Grow to about 1,500 items, then churn around it.
            const bool grow = live.size() < 200 || (live.size() < 1500 && rng() % 3 != 0);
            if (grow || live.empty()) {
                Item* it = spare.empty() ? &pool.emplace_back() : spare.back();
                if (!spare.empty()) spare.pop_back();
                it->start = rng() % static_cast<unsigned>(starts);
                it->last = it->start + rng() % 64;
                if (!live.empty() && rng() % 8 == 0) {
                    Item* prev = live[rng() % live.size()];
                    it->start = prev->start;
                    it->last = prev->last;
                    QVERIFY(t.insertAfter(it, prev));
                } else {
                    t.insert(it);
                }
                live.push_back(it);
            } else {
                const std::size_t i = rng() % live.size();
                Item* it = live[i];
                live[i] = live.back();
                live.pop_back();
                t.remove(it);
                spare.push_back(it);
            }
            const Snapshot after = snapshot(t);
            for (const auto& [node, bytes] : after) {
                auto was = before.find(node);
                if (was == before.end()) continue;  // new: made in this op
                for (std::size_t line = 0; line < bytes.size() / 64; ++line) {
                    if (std::memcmp(&bytes[line * 64], &was->second[line * 64], 64) == 0) continue;
                    ++changedLines;
                    const auto l = (reinterpret_cast<std::uintptr_t>(node) >> 6) + line;
                    QVERIFY2(r.written.count(l) || r.made.count(l),
                             qPrintable(QString("op %1: line %2 of a node changed unreported")
                                            .arg(op)
                                            .arg(line)));
                }
            }
            for (Item* it : live) {
                auto was = leafOf.find(it);
                if (was == leafOf.end() || was->second == it->leaf()) continue;
                ++moves;
                QVERIFY2(r.backPointers.count(it),
                         qPrintable(QString("op %1: an item moved unreported").arg(op)));
            }
        }
        // The run split, merged and borrowed: many lines changed, many items moved.
        QVERIFY2(changedLines > 10'000 && moves > 500,
                 qPrintable(QString("%1 lines, %2 moves").arg(changedLines).arg(moves)));
    }
};

IMMAP_TEST_SUITE(TestBTreeTouches);
#include "TestBTreeTouches.moc"
