// TreeLayout: where nodes go, worked out by hand, and what hit-testing and zoom do with it.
#include <QApplication>
#include <QFontMetrics>
#include <QTest>

#include "Suites.h"
#include "session/Session.h"
#include "views/FontScale.h"
#include "views/TreeLayout.h"
#include "views/TreePainter.h"

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

    // A big tree fitted into a short pane (the slide's 1280 x 170 px for 6,000 VMAs) has rows
    // too low for a label's two lines, yet its top levels are sparse: the nodes whose label
    // box is clear get one beside them, the root among them. Checked against the painter's own
    // box (the real type's metrics and texts): inside the pane, covering no other node and no
    // other label.
    void sparseTopLevelsAreLabelledInShortRows() {
        // 170 px: rows of 16 px; in large type 300 px (rows of 23 px), since a perfect tree's
        // level-2 nodes sit under a level-1 label's 44 px in 16 px rows.
        labelsBeside(perfect(13), 1.0, 170);  // 8,191 nodes, 13 levels
        labelsBeside(perfect(13), 1.8, 300);
        // The slide's own tree: the default scenario's 6,000 libc VMAs, in workshop type in
        // 170 px. Its root's right is over its level-2 nodes; its left is clear.
        session::Session s;
        s.loadDefault();
        labelsBeside(session::DrawTree::of(s.trees().tree(0), s.trees()), 1.6, 170);
        qApp->setProperty("immapFontScale", QVariant());
    }

private:
    static void labelsBeside(const session::DrawTree& tree, double scale, int height) {
        qApp->setProperty("immapFontScale", scale == 1.0 ? QVariant() : QVariant(scale));
        TreeLayout l = TreeLayout::of(tree);
        const QRectF pane(0, 0, 1280, height);
        l.fit(pane);
        QVERIFY(l.rowHeight(0) < TreeLayout::kSideRowHeight * TreeLayout::labelScale());
        QFont font = QApplication::font();
        font.setPixelSize(views::scaledPx(TreeLayout::kLabelPx));
        const QFontMetrics fm(font);
        std::vector<int> discs;
        for (int i = 0; i < l.columns; ++i)
            if (l.detail(i) != TreeLayout::Detail::Dot) discs.push_back(i);
        const std::vector<int> labelled = l.sideLabelled(discs);
        std::vector<QRectF> boxes;
        for (int i : labelled) {
            const auto& n = tree.nodes[static_cast<std::size_t>(i)];
            const int w = std::max(fm.horizontalAdvance(views::TreePainter::intervalText(n)),
                                   fm.horizontalAdvance(views::TreePainter::subtreeText(n))) +
                          6;
            // Where the painter writes it: from the layout's box's disc side (its left on the
            // right of the disc, its right on the left), the real type's size.
            const QRectF beside = l.besideBox(i);
            const QPointF c = l.center(i);
            const bool onLeft = beside.right() < c.x();
            boxes.emplace_back(onLeft ? beside.right() - w : beside.left(), beside.top(), w,
                               2 * fm.height() + 2);
            QVERIFY(std::abs(boxes.back().center().y() - c.y()) <= fm.height() + 1);
            QVERIFY(onLeft ? boxes.back().right() < c.x() - l.radiusFor(i)
                           : boxes.back().left() > c.x() + l.radiusFor(i));
            QVERIFY2(pane.contains(boxes.back()), "inside the pane: the root's is not cut off");
            QVERIFY2(beside.contains(boxes.back()), "the layout's estimate holds the label");
        }
        QVERIFY2(std::find(labelled.begin(), labelled.end(), tree.root) != labelled.end(),
                 "the root has a label");
        for (std::size_t a = 0; a < boxes.size(); ++a) {
            for (int j = 0; j < l.columns; ++j) {
                if (j == labelled[a]) continue;
                QVERIFY2(!boxes[a].contains(l.center(j)),
                         qPrintable(QString("label of %1 covers %2").arg(labelled[a]).arg(j)));
            }
            for (std::size_t b = a + 1; b < boxes.size(); ++b)
                QVERIFY2(!boxes[a].intersects(boxes[b]), "two labels overlap");
        }
        qInfo("%zu nodes, type x%.1f: %zu labels, root row %.1f px", tree.nodes.size(), scale,
              labelled.size(), l.rowHeight(0));
    }
};

IMMAP_TEST_SUITE(TestTreeLayout);
#include "TestTreeLayout.moc"
