// The topology view on the 12-node sample: every PU drawn once, inside its node's box, none
// overlapping; the distance grid's colours follow the matrix; heat lands on the right PU; the
// node graph keeps each package's nodes together (the layout itself, in pixels).
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <cmath>

#include "Suites.h"
#include "views/FontScale.h"
#include "views/TopologyView.h"

using namespace immap;

namespace {
const topology::Topology& numa12() {
    static const topology::Topology t =
        topology::Topology::fromSpec("synthetic:package:2 numa:6 core:16 pu:2;distances=10:12:32");
    return t;
}
}  // namespace

class TestTopologyView : public QObject {
    Q_OBJECT

private slots:
    void everyPuOnceInsideItsNode() {
        views::TopologyView v;
        v.resize(1400, 900);
        v.setTopology(numa12());
        std::vector<QRectF> rects;
        for (const auto& pu : numa12().pus()) {
            const QRectF r = v.puRect(pu.osIndex);
            QVERIFY(!r.isEmpty());
            rects.push_back(r);
        }
        for (std::size_t a = 0; a < rects.size(); ++a)
            for (std::size_t b = a + 1; b < rects.size(); ++b)
                QVERIFY(!rects[a].intersects(rects[b]));
    }

    // The distance grid at a projector's size, in workshop type: its digits fit their cells
    // (the widest distance plus a margin), neighbouring cells are kept apart by a gap of
    // background, every row and column carries its node's number, and the heat has a scale.
    void distanceGridIsReadable() {
        qApp->setProperty("immapFontScale", 1.6);
        views::TopologyView v;
        v.resize(1280, 560);
        v.setTopology(numa12());
        v.setHeat({{5, 1.0}}, "lock wait, single at 384 copies");
        v.setHeatChoices({"single", "split-locks"}, 0);
        const QImage img = v.grab().toImage();
        qApp->setProperty("immapFontScale", QVariant());
        const QRectF a = v.matrixCell(0, 0), b = v.matrixCell(0, 1);
        QVERIFY(v.matrixDigitPx() >= views::kSlideMinPx);
        QFont f = v.font();
        f.setPixelSize(v.matrixDigitPx());
        QVERIFY(QFontMetricsF(f).horizontalAdvance(QStringLiteral("32")) + 3 <= a.width());
        const QRgb background = QColor(0xfa, 0xfa, 0xf8).rgb();
        QCOMPARE(img.pixel(QPointF(a.right(), a.center().y() + a.height() / 3).toPoint()) ==
                         background ||
                     img.pixel(QPointF(b.left(), b.center().y() + a.height() / 3).toPoint()) ==
                         background,
                 true);
        // Labels: some dark pixels left of row 11 and above column 11.
        auto darkIn = [&](QRectF r) {
            int dark = 0;
            for (int y = int(r.top()); y < int(r.bottom()); ++y)
                for (int x = int(r.left()); x < int(r.right()); ++x)
                    dark += qGray(img.pixel(x, y)) < 100;
            return dark;
        };
        const QRectF row11 = v.matrixCell(11, 0), col11 = v.matrixCell(0, 11);
        QVERIFY(darkIn(QRectF(row11.left() - row11.width(), row11.top(), row11.width() - 3,
                              row11.height())) > 5);
        QVERIFY(darkIn(QRectF(col11.left(), col11.top() - col11.height(), col11.width(),
                              col11.height() - 2)) > 5);
        // The heat's scale runs from heatColor(0) to heatColor(1).
        const QRectF s = v.heatScale();
        QVERIFY(!s.isEmpty());
        auto near = [](QColor a, QColor b) {
            return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
                       std::abs(a.blue() - b.blue()) <
                   24;
        };
        QVERIFY(near(img.pixel(QPointF(s.left() + 3, s.center().y()).toPoint()), v.heatColor(0)));
        QVERIFY(near(img.pixel(QPointF(s.right() - 3, s.center().y()).toPoint()), v.heatColor(1)));
        QVERIFY(!v.heatChip(1).isEmpty());
        QSignalSpy chosen(&v, &views::TopologyView::heatChoiceRequested);
        QTest::mouseClick(&v, Qt::LeftButton, {}, v.heatChip(1).center().toPoint());
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.first().first().toInt(), 1);
    }

    void pixelsFollowTheModel() {
        views::TopologyView v;
        v.resize(1400, 900);
        v.setTopology(numa12());
        v.setHeat({{5, 1.0}, {6, 0.0}}, "test");
        const QImage img = v.grab().toImage();
        auto at = [&](QPointF p) { return img.pixel(p.toPoint()); };
        QCOMPARE(at(v.puRect(5).center()), v.heatColor(1.0).rgb());
        QCOMPARE(at(v.puRect(6).center()), v.heatColor(0.0).rgb());
        // The legend marks the mean of the PUs with heat (1 and 0; the rest have none) on its
        // scale, in black: half way.
        QCOMPARE(v.heatMean(), 0.5);
        const QRectF scale = v.heatScale();
        const double mx = scale.left() + 0.5 * scale.width();
        QVERIFY(qGray(at(QPointF(mx, scale.center().y()))) < 40);
        QVERIFY(qGray(at(QPointF(mx - 8, scale.center().y()))) > 100);
        // Local (10) and cross-package (32) cells differ; two cross-package cells agree.
        const QRgb local =
            at(v.matrixCell(0, 0).center() + QPointF(0, v.matrixCell(0, 0).height() / 3));
        const QRgb far =
            at(v.matrixCell(0, 11).center() + QPointF(0, v.matrixCell(0, 11).height() / 3));
        const QRgb far2 =
            at(v.matrixCell(11, 0).center() + QPointF(0, v.matrixCell(11, 0).height() / 3));
        QVERIFY(local != far);
        QCOMPARE(far, far2);
        QCOMPARE(far, views::TopologyView::distanceColor(1.0).rgb());
        // The heat and the distances never share a colour: no heat step is within 40 (sum of
        // channel differences) of any distance step.
        for (int i = 0; i <= 20; ++i)
            for (int j = 0; j <= 20; ++j) {
                const QColor h = v.heatColor(i / 20.0),
                             dc = views::TopologyView::distanceColor(j / 20.0);
                QVERIFY(std::abs(h.red() - dc.red()) + std::abs(h.green() - dc.green()) +
                            std::abs(h.blue() - dc.blue()) >
                        40);
            }
        // Same-package nodes sit closer together than nodes of different packages.
        auto dist = [&](int a, int b) {
            const QPointF d = v.graphNode(a) - v.graphNode(b);
            return std::hypot(d.x(), d.y());
        };
        double same = 0, other = 0;
        int ns = 0, no = 0;
        for (int a = 0; a < 12; ++a)
            for (int b = a + 1; b < 12; ++b) {
                const bool together = numa12().nodes()[static_cast<std::size_t>(a)].package ==
                                      numa12().nodes()[static_cast<std::size_t>(b)].package;
                (together ? same : other) += dist(a, b);
                ++(together ? ns : no);
            }
        QVERIFY2(same / ns < 0.5 * other / no,
                 qPrintable(QString("%1 vs %2").arg(same / ns).arg(other / no)));
    }
};

IMMAP_TEST_SUITE(TestTopologyView);
#include "TestTopologyView.moc"
