// The B-tree drawn (issue 20): node boxes where the hand-worked geometry puts them, the step's
// marks in their colours at the slots they name, a magnified copy of a step's node too small to
// read, clicks on a leaf slot selecting its VMA.
#include <QSignalSpy>
#include <QTest>

#include "Suites.h"
#include "views/NodePalette.h"
#include "views/TreeView.h"

using namespace immap;

namespace {

// libc's 20 VMAs after a split, as TestBTreePlayer works it out: a root over two leaves.
session::DrawBTree twoLeaves() {
    session::DrawBTree t;
    t.height = 2;
    session::DrawBNode root;
    root.leaf = false;
    root.key = {0, 0x17c};
    root.last = {0x17b, 0x1d4};
    root.child = {1, 2};
    t.nodes.push_back(root);
    session::DrawBNode a, b;
    a.level = b.level = 1;
    a.parent = b.parent = 0;
    a.parentSlot = 0;
    b.parentSlot = 1;
    int id = 0;
    for (btree::Index s : {0x0, 0x0, 0x0, 0x0, 0x26, 0x26, 0x26, 0x26}) {
        a.key.push_back(s);
        a.last.push_back(s == 0 ? 0x25 : 0x17b);
        a.id.push_back(id);
        a.home.push_back(id++ % 2);
    }
    for (btree::Index s : {0x17c, 0x17c, 0x17c, 0x1cf, 0x1cf, 0x1cf, 0x1d3, 0x1d3, 0x1d3}) {
        b.key.push_back(s);
        b.last.push_back(s == 0x17c ? 0x1ce : s == 0x1cf ? 0x1d2 : 0x1d4);
        b.id.push_back(id);
        b.home.push_back(id++ % 2);
    }
    t.nodes.push_back(a);
    t.nodes.push_back(b);
    t.items = 17;
    return t;
}

QRgb at(const QImage& img, const QPointF& p) {
    return img.pixelColor(p.toPoint()).rgb();
}

}  // namespace

class TestBTreeRender : public QObject {
    Q_OBJECT
private slots:
    void layoutIsTheHandWorkedGeometry() {
        // World: leaves at x 0-16 and 18-34 (16 slots, 2 of gap), the root centred over them
        // at 17. Fitted into 340 x 200: 10 px a slot, too narrow to write in (10 / 3.5 px of
        // type), so 54 px stay free at the bottom for the magnified step (34 + 20): rows
        // (200 - 54) / 2 = 73 px, boxes 36.5 px high (half a row, at most 40).
        // A leaf's room is its neighbour's distance less the gap (16 slots: no wider); the
        // lone root's is the whole width less the gap (32 slots: 20 px a slot).
        views::BTreeLayout l = views::BTreeLayout::of(twoLeaves());
        QCOMPARE(l.width, 34.0);
        l.fit(QRectF(0, 0, 340, 200));
        QCOMPARE(l.sx, 10.0);
        QCOMPARE(l.sy, 73.0);
        QCOMPARE(l.box(1), QRectF(0, 91.25, 160, 36.5));
        QCOMPARE(l.box(2), QRectF(180, 91.25, 160, 36.5));
        QCOMPARE(l.box(0), QRectF(10, 18.25, 320, 36.5));
        QCOMPARE(l.slotRect(0, 1), QRectF(30, 18.25, 20, 36.5));
        QCOMPARE(l.slotAt(QPointF(195, 100)), std::make_pair(2, 1));
        QCOMPARE(l.slotAt(QPointF(170, 100)), std::make_pair(-1, -1));  // the gap
        // The root's 20 px slots would take 5.7 px type: no labels at this size.
        QVERIFY(!l.labelled(0));
        l.zoomAt(QPointF(0, 0), 4);
        QVERIFY(l.labelled(0) && l.labelled(1));
    }

    void marksAreDrawnAtTheSlotsTheyName() {
        views::TreeView v;
        v.resize(420, 330);
        v.setBTree(twoLeaves());
        QVERIFY(v.showsBTree());
        session::BTreeHighlight h;
        h.path = {0, 2};
        h.focus = {2, 3};
        h.flash = {{0, 1}};
        v.setBTreeHighlight(h);
        const QImage img = v.grab().toImage();
        const views::BTreeLayout& l = v.btreeLayout();
        auto inside = [&](int node, int slot) {
            const QRectF r = l.slotRect(node, slot);
            return QPointF(r.left() + 3, r.top() + 3);  // clear of any text and the stripe
        };
        QCOMPARE(at(img, inside(0, 1)), views::NodePalette::flash().rgb());
        QCOMPARE(at(img, inside(2, 3)), views::NodePalette::focus().lighter(170).rgb());
        QCOMPARE(at(img, inside(1, 3)), QColor(Qt::white).rgb());  // a plain leaf slot
        // The path's ring, outside the box's own frame; none around the other leaf.
        const QRectF b = l.box(2), other = l.box(1);
        QCOMPARE(at(img, QPointF(b.center().x(), b.top() - 3)), views::NodePalette::path().rgb());
        QVERIFY(at(img, QPointF(other.center().x(), other.top() - 3)) !=
                views::NodePalette::path().rgb());
        // Slot 3 of the leaf is too small to read here: its node is drawn again, magnified,
        // with the same mark.
        const QRectF inset = views::BTreePainter::insetFor(l, 2, v.treeArea());
        QVERIFY(!inset.isEmpty());
        QVERIFY(inset.width() > 2 * b.width());
        const double w = inset.width() / l.capacity;
        QCOMPARE(at(img, QPointF(inset.left() + 3 * w + 3, inset.top() + 3)),
                 views::NodePalette::focus().lighter(170).rgb());
    }

    void clickingALeafSlotSelectsItsVma() {
        views::TreeView v;
        v.resize(420, 330);
        v.setBTree(twoLeaves());
        QSignalSpy clicked(&v, &views::TreeView::nodeClicked);
        const QRectF r = v.btreeLayout().slotRect(2, 4);
        QTest::mouseClick(&v, Qt::LeftButton, {}, r.center().toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), 12);  // the right leaf's fifth: 8 + 4
        QCOMPARE(v.selectedId(), 12);
        // An inner slot or an empty one is no VMA.
        QTest::mouseClick(&v, Qt::LeftButton, {},
                          v.btreeLayout().slotRect(0, 1).center().toPoint());
        QTest::mouseClick(&v, Qt::LeftButton, {},
                          v.btreeLayout().slotRect(2, 12).center().toPoint());
        QCOMPARE(clicked.count(), 1);
    }

    void ctrlArrowsStepThroughTheVmasInKeyOrder() {
        views::TreeView v;
        v.resize(420, 330);
        v.setBTree(twoLeaves());
        QSignalSpy clicked(&v, &views::TreeView::nodeClicked);
        v.setSelectedId(7);  // the left leaf's last
        QTest::keyClick(&v, Qt::Key_Right, Qt::ControlModifier);
        QCOMPARE(v.selectedId(), 8);  // the right leaf's first
        QTest::keyClick(&v, Qt::Key_Left, Qt::ControlModifier);
        QTest::keyClick(&v, Qt::Key_Left, Qt::ControlModifier);
        QCOMPARE(v.selectedId(), 6);
        QCOMPARE(clicked.count(), 3);
        v.setSelectedId(16);
        QTest::keyClick(&v, Qt::Key_Right, Qt::ControlModifier);
        QCOMPARE(v.selectedId(), 16);  // the last stays the last
    }

    void anRbtreeAfterwardsIsDrawnAsAnRbtree() {
        views::TreeView v;
        v.resize(420, 330);
        v.setBTree(twoLeaves());
        session::DrawTree t;
        t.nodes.resize(1);
        t.root = 0;
        t.height = 1;
        v.setTree(t);
        QVERIFY(!v.showsBTree());
        QCOMPARE(v.tree().nodes.size(), std::size_t(1));
    }
};

IMMAP_TEST_SUITE(TestBTreeRender);
#include "TestBTreeRender.moc"
