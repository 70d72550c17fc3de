// The topology view on the 12-node sample: every PU drawn once, inside its node's box, none
// overlapping; the distance grid's colours follow the matrix; heat lands on the right PU; the
// node graph keeps each package's nodes together (the layout itself, in pixels).
#include <QImage>
#include <QTest>
#include <cmath>

#include "Suites.h"
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

    void pixelsFollowTheModel() {
        views::TopologyView v;
        v.resize(1400, 900);
        v.setTopology(numa12());
        v.setHeat({{5, 1.0}, {6, 0.0}}, "test");
        const QImage img = v.grab().toImage();
        auto at = [&](QPointF p) { return img.pixel(p.toPoint()); };
        QCOMPARE(at(v.puRect(5).center()), v.heatColor(1.0).rgb());
        QCOMPARE(at(v.puRect(6).center()), v.heatColor(0.0).rgb());
        // Local (10) and cross-package (32) cells differ; two cross-package cells agree.
        const QRgb local =
            at(v.matrixCell(0, 0).center() + QPointF(0, v.matrixCell(0, 0).height() / 3));
        const QRgb far =
            at(v.matrixCell(0, 11).center() + QPointF(0, v.matrixCell(0, 11).height() / 3));
        const QRgb far2 =
            at(v.matrixCell(11, 0).center() + QPointF(0, v.matrixCell(11, 0).height() / 3));
        QVERIFY(local != far);
        QCOMPARE(far, far2);
        QCOMPARE(far, v.heatColor(1.0).rgb());
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
