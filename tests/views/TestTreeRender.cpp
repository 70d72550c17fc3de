// TreeView renders offscreen: red and black pixels exactly where the layout puts red and black
// nodes (and nowhere else); clicks, keys and the wheel do what they say.
#include <QLocale>
#include <QSignalSpy>
#include <QTest>
#include <cmath>

#include "Suites.h"
#include "views/NodePalette.h"
#include "views/TreeView.h"

using namespace immap;

namespace {

session::DrawTree perfect(int levels) {
    session::DrawTree t;
    const int n = (1 << levels) - 1;
    t.nodes.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        auto& d = t.nodes[static_cast<std::size_t>(i)];
        const int tz = __builtin_ctz(static_cast<unsigned>(i + 1));
        d.depth = levels - 1 - tz;
        d.id = 100 + i;
        d.start = d.last = d.subtreeLast = static_cast<itree::Index>(i);
        d.red = (i * 7) % 3 == 0;  // a mix with no pattern tied to depth
        d.homeNode = i % 4;
        if (tz > 0) {
            d.left = i - (1 << (tz - 1));
            d.right = i + (1 << (tz - 1));
        }
    }
    for (int i = 0; i < n; ++i) {
        const auto& d = t.nodes[static_cast<std::size_t>(i)];
        if (d.left >= 0) t.nodes[static_cast<std::size_t>(d.left)].parent = i;
        if (d.right >= 0) t.nodes[static_cast<std::size_t>(d.right)].parent = i;
    }
    t.root = n / 2;
    t.height = levels;
    return t;
}

QImage render(views::TreeView& v) {
    QImage img(v.size(), QImage::Format_ARGB32_Premultiplied);
    QPainter p(&img);
    v.paintTo(p, v.rect());
    p.end();
    return img;
}

}  // namespace

class TestTreeRender : public QObject {
    Q_OBJECT
private slots:
    void nodePixelsAreWhereTheLayoutSays() {
        views::TreeView v;
        v.resize(800, 420);
        v.setTree(perfect(4));
        v.fitToWindow();
        const QImage img = render(v);
        const auto& l = v.layout();
        const QRgb red = views::NodePalette::red().rgb(), black = views::NodePalette::black().rgb();
        // Every node's centre has its fill colour.
        for (int i = 0; i < l.columns; ++i) {
            const QPoint c = l.center(i).toPoint();
            const QRgb want = v.tree().nodes[static_cast<std::size_t>(i)].red ? red : black;
            QCOMPARE(img.pixel(c), want);
        }
        // And every exactly-red or exactly-black pixel lies inside a disc of that colour.
        int seen = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QRgb px = img.pixel(x, y);
                if (px != red && px != black) continue;
                ++seen;
                bool inside = false;
                for (int i = 0; i < l.columns && !inside; ++i) {
                    const QPointF c = l.center(i);
                    const bool isRed = v.tree().nodes[static_cast<std::size_t>(i)].red;
                    inside =
                        std::hypot(c.x() - x, c.y() - y) <= l.radiusFor(i) && (px == red) == isRed;
                }
                QVERIFY2(inside,
                         qPrintable(QStringLiteral("stray node pixel at %1,%2").arg(x).arg(y)));
            }
        QVERIFY(seen > l.columns * 20);  // discs, not specks
    }

    void denseTreeRastersInsideItsRows() {
        // 4,095 nodes in 300 px: the bottom levels are dots; their pixels stay in node rows.
        views::TreeView v;
        v.resize(320, 400);
        v.setTree(perfect(12));
        v.fitToWindow();
        const QImage img = render(v);
        const auto& l = v.layout();
        QCOMPARE(l.detail(0), views::TreeLayout::Detail::Dot);
        const QRgb bg = views::NodePalette::background().rgb();
        // The bottom row's centre line is mostly painted (2,048 leaves over ~300 columns).
        const int y = static_cast<int>(l.center(0).y());
        int painted = 0;
        const QRect area = v.treeArea();
        for (int x = area.left() + 2; x < area.right() - 2; ++x)
            painted += img.pixel(x, y) != bg;
        QVERIFY2(painted > (area.width() - 4) * 9 / 10, qPrintable(QString::number(painted)));
        // Between the bottom two rows, nothing but edges of upper levels: no raster there.
        const int gapY = static_cast<int>(l.center(0).y() - l.sy / 2);
        for (int x = area.left(); x < area.right(); ++x) {
            const QColor c = img.pixelColor(x, gapY);
            QVERIFY(c.rgb() != views::NodePalette::red().rgb());
        }
    }

    void theLegendNamesTheBars() {
        // 4,095 nodes in 320 px: the legend says which depths are bars and how many nodes:
        // here, every node on screen whose level leaves under 7.2 px between neighbours.
        views::TreeView v;
        v.resize(320, 400);
        v.setTree(perfect(12));
        v.setLegend(4);
        v.fitToWindow();
        render(v);
        const auto& l = v.layout();
        int dots = 0, lo = 99, hi = -1;
        for (int i = 0; i < l.columns; ++i)
            if (l.levelGap[static_cast<std::size_t>(i)] * l.sx < 7.2 && l.center(i).x() >= 0 &&
                l.center(i).x() < v.width()) {
                ++dots;
                lo = std::min(lo, l.depth[static_cast<std::size_t>(i)]);
                hi = std::max(hi, l.depth[static_cast<std::size_t>(i)]);
            }
        QVERIFY(dots > 2000);
        QCOMPARE(v.aggregate().nodes, dots);
        QVERIFY2(v.aggregateText().startsWith(QStringLiteral("depth %1-%2: %3 nodes")
                                                  .arg(lo)
                                                  .arg(hi)
                                                  .arg(QLocale().toString(dots))),
                 qPrintable(v.aggregateText()));
        // Zoomed in far enough, every node in view is a disc and the entry goes.
        for (int k = 0; k < 8; ++k)
            v.zoomBy(2);
        render(v);
        QCOMPARE(v.aggregate().nodes, 0);
        QVERIFY(v.aggregateText().isEmpty());
        // The legend keeps its band: panned so nodes sit under it, none of their colour shows.
        views::TreeView w;
        w.resize(600, 300);
        w.setTree(perfect(5));
        w.setLegend(4);
        w.fitToWindow();
        w.zoomBy(3);  // about the middle: the bottom levels now lie below the tree area
        QVERIFY(w.layout().center(0).y() > w.height() - 39);
        const QImage img = render(w);
        const QRgb bg = views::NodePalette::background().rgb();
        for (int y = w.height() - 39; y < w.height(); ++y)
            for (int x = 0; x < w.width(); ++x)
                QVERIFY(img.pixel(x, y) != views::NodePalette::red().rgb() || x < 40);
        QVERIFY(img.pixel(w.width() - 2, w.height() - 2) == bg);
    }

    void clickKeysAndWheel() {
        views::TreeView v;
        v.resize(600, 360);
        v.setTree(perfect(3));
        v.fitToWindow();
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QSignalSpy clicked(&v, &views::TreeView::nodeClicked);
        const auto& l = v.layout();
        QTest::mouseClick(&v, Qt::LeftButton, {}, l.center(2).toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.last().at(0).toInt(), 102);
        QCOMPARE(v.selectedId(), 102);
        QTest::keyClick(&v, Qt::Key_Up);  // node 2's parent is node 1 (depth 1)
        QCOMPARE(v.selectedId(), 101);
        QTest::keyClick(&v, Qt::Key_Up);
        QCOMPARE(v.selectedId(), 103);  // the root
        QTest::keyClick(&v, Qt::Key_Down, Qt::ShiftModifier);
        QCOMPARE(v.selectedId(), 105);  // its right child
        QTest::keyClick(&v, Qt::Key_Left, Qt::ControlModifier);
        QCOMPARE(v.selectedId(), 104);  // in-order predecessor
        const double before = v.layout().sx;
        QWheelEvent wheel(QPointF(300, 200), v.mapToGlobal(QPointF(300, 200)), {}, {0, 240},
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&v, &wheel);
        QVERIFY(qFuzzyCompare(v.layout().sx, before * 1.5625));
        QTest::keyClick(&v, Qt::Key_F);
        QVERIFY(qFuzzyCompare(v.layout().sx, before));
    }

    void rotationsMoveNodesThenSettle() {
        // The same three ids in a different shape (a rotation): with motion on, nodes start
        // where they were and end where the new layout puts them.
        auto chain = [] {
            session::DrawTree t;
            t.nodes.resize(3);
            for (int i = 0; i < 3; ++i) {
                t.nodes[static_cast<std::size_t>(i)].id = 100 + i;
                t.nodes[static_cast<std::size_t>(i)].depth = i;  // 0 -> 1 -> 2 down the right
            }
            t.nodes[0].right = 1;
            t.nodes[1].parent = 0;
            t.nodes[1].right = 2;
            t.nodes[2].parent = 1;
            t.root = 0;
            t.height = 3;
            return t;
        }();
        views::TreeView v;
        v.resize(600, 400);
        v.setTree(chain);
        v.fitToWindow();
        const QPointF wasTop = v.layout().center(0);
        const QImage chainImg = render(v);
        v.setMotionDuration(200);
        v.setTree(perfect(2), true);  // ids 100, 101, 102: 101 comes up
        QVERIFY(v.moving());
        const QImage mid = render(v);
        // At the start of the motion node 100 is still drawn where it was, at the top (in its
        // new colour: colours change at once, positions glide).
        const QRgb red = views::NodePalette::red().rgb(), black = views::NodePalette::black().rgb();
        QCOMPARE(chainImg.pixel(wasTop.toPoint()), black);
        QCOMPARE(mid.pixel(wasTop.toPoint()), red);
        QTRY_VERIFY_WITH_TIMEOUT(!v.moving(), 20000);  // 200 ms of motion; a loaded machine is slow
        const QImage settled = render(v);
        views::TreeView fresh;
        fresh.resize(600, 400);
        fresh.setTree(perfect(2));
        fresh.fitToWindow();
        QCOMPARE(settled, render(fresh));
        const QRgb after = settled.pixel(wasTop.toPoint());
        QVERIFY(after != red && after != black);  // nothing is left at the old place
    }
};

IMMAP_TEST_SUITE(TestTreeRender);
#include "TestTreeRender.moc"
