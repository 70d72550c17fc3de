// TreeLayout: where nodes go, worked out by hand, and what hit-testing and zoom do with it.
#include <QTest>

#include "Suites.h"
#include "views/TreeLayout.h"

using namespace immap;
using views::TreeLayout;

namespace {

// A perfect tree of 2^levels - 1 nodes, in order: node i's depth is levels-1 minus its
// number of trailing zero bits of (i+1).
session::DrawTree perfect(int levels) {
    session::DrawTree t;
    const int n = (1 << levels) - 1;
    t.nodes.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        auto& d = t.nodes[static_cast<std::size_t>(i)];
        d.depth = levels - 1 - __builtin_ctz(static_cast<unsigned>(i + 1));
        d.id = 100 + i;
        d.start = static_cast<itree::Index>(i);
        d.last = d.start;
        d.red = d.depth % 2 == 1;
    }
    t.root = n / 2;
    t.height = levels;
    return t;
}

}  // namespace

class TestTreeLayout : public QObject {
    Q_OBJECT
private slots:
    void threeNodesFitByHand() {
        const TreeLayout l = [] {
            TreeLayout x = TreeLayout::of(perfect(2));
            x.fit(QRectF(0, 0, 300, 300));
            return x;
        }();
        QCOMPARE(l.columns, 3);
        QCOMPARE(l.rows, 2);
        // sx = 300 / 3; sy = min(300 / 2, 90): shallow trees stay compact.
        QCOMPARE(l.center(0), QPointF(50, 135));
        QCOMPARE(l.center(1), QPointF(150, 45));
        QCOMPARE(l.center(2), QPointF(250, 135));
        QCOMPARE(l.levelGap, (std::vector<int>{2, 3, 2}));
        QCOMPARE(l.nodeAt(QPointF(150, 45)), 1);
        QCOMPARE(l.nodeAt(QPointF(52, 137)), 0);
        QCOMPARE(l.nodeAt(QPointF(150, 135)), -1);  // rank 1 sits on row 0, not row 1
        QCOMPARE(l.nodeAt(QPointF(50, 45)), -1);
        QCOMPARE(l.detail(1), TreeLayout::Detail::Label);  // 300 px of room, 90 px rows
    }

    void offsetAreaAndZoomKeepTheAnchor() {
        TreeLayout l = TreeLayout::of(perfect(4));  // 15 nodes, 4 levels
        l.fit(QRectF(20, 30, 150, 200));
        QCOMPARE(l.center(0), QPointF(20 + 5, 30 + 3 * 50 + 25));
        const QPointF anchor(97, 61);
        // The world point under the anchor stays under it.
        const double wx = (anchor.x() - l.ox) / l.sx, wy = (anchor.y() - l.oy) / l.sy;
        l.zoomAt(anchor, 2.0);
        QCOMPARE(l.sx, 20.0);
        QVERIFY(qFuzzyCompare(wx * l.sx + l.ox, anchor.x()));
        QVERIFY(qFuzzyCompare(wy * l.sy + l.oy, anchor.y()));
        l.pan(QPointF(-5, 7));
        QVERIFY(qFuzzyCompare(wx * l.sx + l.ox, anchor.x() - 5));
    }

    void levelOfDetailCollapsesCrowdedLevels() {
        // 2^15 - 1 nodes in 1000 px: the bottom level has 2 ranks of room (0.06 px): dots;
        // the root has the whole width: a labelled disc when rows are tall enough.
        TreeLayout l = TreeLayout::of(perfect(15));
        l.fit(QRectF(0, 0, 1000, 15 * 60));
        QCOMPARE(l.detail(0), TreeLayout::Detail::Dot);
        QCOMPARE(l.detail((1 << 14) - 1), TreeLayout::Detail::Label);
        int discs = 0;
        for (int i = 0; i < l.columns; ++i)
            discs += l.detail(i) != TreeLayout::Detail::Dot;
        // Levels with room >= 7 px: 1000 / 7 ~ 142 per level at most, so under 300 in all.
        QVERIFY2(discs < 300, qPrintable(QString::number(discs)));
        QVERIFY(discs >= 127);  // the top 7 levels (room >= 1000/128 px) all get discs
    }

    void aShortAreaSqueezesTheCrowdedLevels() {
        // 2^15 - 1 nodes in 1000 x 100 px: uniform rows would be 6.7 px, too short for any
        // disc. By hand: level d has 2^d nodes 1000 / 2^d px apart, so levels 0-7 have disc
        // room (>= 7.2 px) and 8-14 do not; disc rows get min(16, (100 - 7 x 2.5) / 8) =
        // 10.3 px and the 7 squeezed rows share the remaining 17.5 px: 2.5 px each.
        TreeLayout l = TreeLayout::of(perfect(15));
        l.fit(QRectF(0, 0, 1000, 100));
        QVERIFY(qFuzzyCompare(l.rowHeight(0), 82.5 / 8));
        QVERIFY(qFuzzyCompare(l.rowHeight(7), 82.5 / 8));
        QVERIFY(qFuzzyCompare(l.rowHeight(8), 2.5));
        QVERIFY(qFuzzyCompare(l.rowHeight(14), 2.5));
        QVERIFY(qFuzzyCompare(l.rowTop.back() * l.sy, 100.0));  // exactly the area
        int discs = 0;
        for (int i = 0; i < l.columns; ++i) {
            const int d = l.depth[static_cast<std::size_t>(i)];
            const bool dot = l.detail(i) == TreeLayout::Detail::Dot;
            QCOMPARE(dot, d >= 8);
            if (dot) continue;
            ++discs;
            QVERIFY(2 * l.radiusFor(i) >= 6);  // at least 6 px across
        }
        QCOMPARE(discs, 255);
        // Rows are found by their squeezed heights: the leftmost leaf (depth 14) and the root.
        QCOMPARE(l.rowAt(l.center(0).y()), 14);
        QCOMPARE(l.nodeAt(l.center((1 << 14) - 1)), (1 << 14) - 1);
        QCOMPARE(l.rowAt(100.5), -1);
        // Tall enough, rows stay uniform.
        l.fit(QRectF(0, 0, 1000, 15 * 16));
        QCOMPARE(l.rowHeight(0), 16.0);
        QCOMPARE(l.rowHeight(14), 16.0);
    }
};

IMMAP_TEST_SUITE(TestTreeLayout);
#include "TestTreeLayout.moc"
