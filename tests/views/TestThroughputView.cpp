// The throughput view holds exactly the sweep's values (and speedups computed from them),
// marks the proposal's claims only on a 384-PU machine, and exports PNG, PDF and CSV; the PNG
// shows each policy's colour. A sweep with walkers side by side has two curves per policy, the
// walker one dashed in the same colour, its speedups over single at its own rate, named by its
// rate in the legend (which stays off the plot at 1280x720) and on hover; its CSV has the rate.
#include <qcustomplot.h>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QMouseEvent>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <map>

#include "Suites.h"
#include "views/PlotLabelPlacer.h"
#include "views/ThroughputView.h"

using namespace immap;

namespace {

sim::SimResult run(const char* policy, unsigned copies, double execs) {
    sim::SimResult r;
    r.policy = policy;
    r.copies = copies;
    r.execsPerSecond = execs;
    return r;
}

sim::SimResult run(const char* policy, unsigned copies, double execs, double walkers,
                   double walkNs) {
    sim::SimResult r = run(policy, copies, execs);
    r.walkersPerSecond = walkers;
    r.walkerLatencyMeanNs = walkNs;
    r.walks = walkers > 0 ? 10 : 0;
    return r;
}

// Two policies without walkers and at 100 walks/s. The walkers cost single more than
// split-locks, so split-locks' speedup at 100 walks/s (over single at 100 walks/s) differs from
// its speedup over single without walkers: a view comparing the wrong curves shows the wrong one.
std::vector<sim::SimResult> sideBySide() {
    return {run("single", 1, 1000, 0, 0),
            run("single", 16, 12000, 0, 0),
            run("split-locks", 1, 1100, 0, 0),
            run("split-locks", 16, 24000, 0, 0),
            run("single", 16, 8000, 100, 2'008'000),
            run("single", 1, 990, 100, 71'000),
            run("split-locks", 1, 1080, 100, 73'800),
            run("split-locks", 16, 20000, 100, 340'900)};
}

std::vector<sim::SimResult> sweep() {
    return {run("single", 1, 1000),          run("single", 16, 12000),
            run("single", 384, 6000),        run("split-trees", 1, 1100),
            run("split-trees", 16, 15000),   run("split-trees", 384, 12000),
            run("split-locks", 384, 300000), run("split-locks", 1, 1100),
            run("split-locks", 16, 17000)};
}

}  // namespace

class TestThroughputView : public QObject {
    Q_OBJECT

private slots:
    void graphsHoldTheSweep() {
        views::ThroughputView v;
        v.resize(900, 700);
        v.setRuns(sweep(), "test", 384);
        QCPGraph* locks = v.throughputGraph("split-locks");
        QVERIFY(locks);
        QCOMPARE(locks->data()->size(), 3);  // sorted by copies whatever the input order
        QCOMPARE(locks->data()->at(0)->key, 1.0);
        QCOMPARE(locks->data()->at(2)->key, 384.0);
        QCOMPARE(locks->data()->at(2)->value, 300000.0);
        QCPGraph* speed = v.speedupGraph("split-trees");
        QCOMPARE(speed->data()->at(1)->value, 15000.0 / 12000.0);
        QCOMPARE(speed->data()->at(2)->value, 2.0);
        QCOMPARE(v.speedupGraph("single")->data()->at(0)->value, 1.0);
        QVERIFY(v.claimsShown());
        // Two claims, each a mark, a dotted level and a label, and the (hidden) overlay card.
        QCOMPARE(v.plot()->itemCount(), 7);
        QVERIFY(!v.overlayItem()->visible());
        v.setRuns(sweep(), "two nodes", 128);
        QVERIFY(!v.claimsShown());
        QCOMPARE(v.plot()->itemCount(), 1);
        // The overlay outlives a rebuild and hides when cleared.
        v.setOverlay(QStringLiteral("Simulating: 3 of 9 runs"));
        v.setRuns(sweep(), "two nodes", 128);
        QVERIFY(v.overlayItem()->visible());
        QCOMPARE(v.overlayItem()->text(), QStringLiteral("Simulating: 3 of 9 runs"));
        v.setOverlay({});
        QVERIFY(!v.overlayItem()->visible());
        QVERIFY(!v.throughputGraph("sharded:32"));
    }

    // A point whose run had no steady state (SimResult::overload) is crossed in both panes, at
    // its own throughput and speedup, with a legend entry; a sweep without one has no crosses.
    void pointsWithoutASteadyStateAreCrossed() {
        std::vector<sim::SimResult> runs = sweep();
        views::ThroughputView v;
        v.resize(900, 700);
        v.setRuns(runs, "test", 128);
        QVERIFY(!v.overloadGraph());
        runs[6].overload = "the walkers saturate libc.so.6: ...";  // split-locks at 384: 300,000/s
        v.setRuns(runs, "test", 128);
        QCPGraph* crosses = v.overloadGraph();
        QVERIFY(crosses);
        QCOMPARE(crosses->data()->size(), 1);
        QCOMPARE(crosses->data()->at(0)->key, 384.0);
        QCOMPARE(crosses->data()->at(0)->value, 300000.0);
        QCOMPARE(crosses->scatterStyle().shape(), QCPScatterStyle::ssCross);
        QCOMPARE(crosses->name(), QStringLiteral("no steady state"));
        // In the speedup pane: 300,000 / 6,000 = 50 by hand, crossed in the same red.
        bool speedCrossed = false;
        for (int i = 0; i < v.plot()->graphCount(); ++i) {
            QCPGraph* g = v.plot()->graph(i);
            if (g != crosses && g->scatterStyle().shape() == QCPScatterStyle::ssCross &&
                g->data()->size() == 1 && g->data()->at(0)->value == 50.0)
                speedCrossed = true;
        }
        QVERIFY(speedCrossed);
        // On screen: the cross's red where the point is drawn.
        v.plot()->replot();
        const QImage img = v.plot()->toPixmap(900, 700).toImage();
        const QPointF at(crosses->keyAxis()->coordToPixel(384),
                         crosses->valueAxis()->coordToPixel(300000));
        int red = 0;
        for (int dx = -7; dx <= 7; ++dx)
            for (int dy = -7; dy <= 7; ++dy) {
                const QColor c = img.pixelColor(int(at.x()) + dx, int(at.y()) + dy);
                if (c.red() > 180 && c.green() < 80 && c.blue() < 80) ++red;
            }
        QVERIFY2(red >= 10, qPrintable(QString::number(red)));
    }

    // Every policy the app offers has its own colour, the B-tree's among them.
    void everyPolicyHasItsOwnColour() {
        QSet<QRgb> seen;
        const QStringList all = {"single",  "split-trees", "split-locks",      "sharded:32",
                                 "no-rmap", "btree",       "btree+split-locks"};
        for (const QString& p : all)
            seen.insert(views::ThroughputView::policyColor(p).rgb());
        QCOMPARE(seen.size(), all.size());
    }

    void walkerCurvesSideBySide() {
        views::ThroughputView v;
        v.resize(1280, 720);
        v.setRuns(sideBySide(), "test", 16);
        for (const char* policy : {"single", "split-locks"}) {
            QCPGraph* without = v.throughputGraph(policy);
            QCPGraph* with = v.throughputGraph(policy, 100);
            QVERIFY(without && with && without != with);
            QCOMPARE(v.throughputGraph(policy, 0), without);
            // The same colour; solid without walkers, dashed with them, in both panes.
            const QColor c = views::ThroughputView::policyColor(policy);
            for (QCPGraph* g : {without, v.speedupGraph(policy)}) {
                QCOMPARE(g->pen().color(), c);
                QCOMPARE(g->pen().style(), Qt::SolidLine);
            }
            for (QCPGraph* g : {with, v.speedupGraph(policy, 100)}) {
                QCOMPARE(g->pen().color(), c);
                QCOMPARE(g->pen().style(), Qt::DashLine);
            }
            QCOMPARE(without->name(), QString(policy));
            QCOMPARE(with->name(), QString(policy) + ", 100 walks/s");
        }
        QVERIFY(!v.throughputGraph("single", 50));
        // Each curve holds its own points, sorted by copies.
        const auto points = [](QCPGraph* g) {
            std::vector<std::pair<double, double>> out;
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                out.push_back({it->key, it->value});
            return out;
        };
        using P = std::vector<std::pair<double, double>>;
        QCOMPARE(points(v.throughputGraph("single")), (P{{1, 1000}, {16, 12000}}));
        QCOMPARE(points(v.throughputGraph("single", 100)), (P{{1, 990}, {16, 8000}}));
        QCOMPARE(points(v.throughputGraph("split-locks", 100)), (P{{1, 1080}, {16, 20000}}));
        // Speedups over single at the same rate: 24,000 / 12,000 without walkers, 20,000 / 8,000
        // with (not 20,000 / 12,000).
        QCOMPARE(points(v.speedupGraph("split-locks")), (P{{1, 1.1}, {16, 2.0}}));
        QCOMPARE(points(v.speedupGraph("split-locks", 100)), (P{{1, 1080.0 / 990}, {16, 2.5}}));
        QCOMPARE(points(v.speedupGraph("single", 100)), (P{{1, 1.0}, {16, 1.0}}));

        // The legend: one entry per curve, outside both plot areas at 1280x720.
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QCOMPARE(v.plot()->size(), QSize(1280, 720));
        v.plot()->replot();
        QCPLegend* legend = nullptr;
        for (QCPLayoutElement* e : v.plot()->plotLayout()->elements(true))
            if (auto* l = qobject_cast<QCPLegend*>(e)) legend = l;
        QVERIFY(legend);
        QCOMPARE(legend->itemCount(), 4);
        QVERIFY(legend->outerRect().height() > 0);
        for (QCPAxisRect* r : v.plot()->axisRects())
            QVERIFY2(!legend->outerRect().intersects(r->rect()),
                     qPrintable(QString("legend %1,%2 %3x%4")
                                    .arg(legend->outerRect().x())
                                    .arg(legend->outerRect().y())
                                    .arg(legend->outerRect().width())
                                    .arg(legend->outerRect().height())));
        QVERIFY(legend->outerRect().width() < 1280 / 2);  // compact, not spread across
    }

    // Hovering a point of the walker curve names its rate (and walk latency); the walker-free
    // point says "no walkers".
    void hoverSaysTheRate() {
        views::ThroughputView v;
        v.resize(1280, 720);
        v.show();
        v.setRuns(sideBySide(), "test", 16);
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.plot()->replot();
        const auto hover = [&](QCPGraph* g, double key, double value) {
            const QPointF at = g->coordsToPixels(key, value);
            QMouseEvent move(QEvent::MouseMove, at, v.plot()->mapToGlobal(at), Qt::NoButton,
                             Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(v.plot(), &move);
            return QToolTip::text();
        };
        const QString with = hover(v.throughputGraph("split-locks", 100), 16, 20000);
        QVERIFY2(with.startsWith("split-locks, 100 walks/s, 16 copies: 20") &&
                     with.contains("execs/s") && with.contains("walk 340.9 µs"),
                 qPrintable(with));
        const QString without = hover(v.throughputGraph("split-locks"), 16, 24000);
        QVERIFY2(without.startsWith("split-locks, no walkers, 16 copies: 24"), qPrintable(without));
        const QString speed = hover(v.speedupGraph("split-locks", 100), 16, 2.5);
        QVERIFY2(speed.contains("2.50x single at 100 walks/s"), qPrintable(speed));
    }

    // One rate only (side by side off): its curves are the walker ones; no walker-free graph.
    void oneWalkerRateAlone() {
        std::vector<sim::SimResult> runs;
        for (const sim::SimResult& r : sideBySide())
            if (r.walkersPerSecond > 0) runs.push_back(r);
        views::ThroughputView v;
        v.setRuns(runs, "test", 16);
        QVERIFY(!v.throughputGraph("single"));
        QVERIFY(v.throughputGraph("single", 100));
        QCOMPARE(v.throughputGraph("split-locks", 100)->pen().style(), Qt::DashLine);
        QCOMPARE(v.speedupGraph("split-locks", 100)->data()->at(1)->value, 2.5);
    }

    void csvHasTheWalkerRate() {
        QTemporaryDir dir;
        views::ThroughputView v;
        v.setRuns(sideBySide(), "test", 16);
        QString error;
        QVERIFY(v.exportCsv(dir.filePath("t.csv"), error));
        QFile csv(dir.filePath("t.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 9);
        QVERIFY(lines[0].endsWith(",walkers_per_s"));
        // split-locks at 16 copies and 100 walks/s: 20,000 execs/s, 2.5x single at 100 walks/s.
        QVERIFY2(lines[8].startsWith("split-locks,16,20000,2.5,") && lines[8].endsWith(",100"),
                 lines[8].constData());
    }

    // A banded sweep: each curve of the lowest walker rate has its 10-90% band over the draws
    // (type-7 quantiles, by hand below), the speedup band from each draw's own ratio, shaded in
    // the policy's colour under the curves; the walker curves are not shaded.
    void bandsShaded() {
        std::vector<sim::SimResult> runs = sideBySide();
        const std::map<std::pair<std::string, unsigned>, std::vector<double>> draws = {
            {{"single", 1}, {900, 1000, 1100, 950, 1050}},
            {{"single", 16}, {10000, 14000, 11000, 13000, 12000}},
            {{"split-locks", 1}, {1000, 1200, 1100, 1150, 1050}},
            {{"split-locks", 16}, {22000, 27000, 24000, 23000, 26000}}};
        for (sim::SimResult& r : runs)
            r.bandRates = r.walkersPerSecond > 0 ? std::vector<double>{1, 2, 3, 4, 5}
                                                 : draws.at({r.policy, r.copies});
        views::ThroughputView v;
        v.resize(1280, 720);
        v.setRuns(runs, "test", 16);
        const auto [low, high] = v.throughputBand("split-locks");
        QVERIFY(low && high);
        // Sorted 22,000 23,000 24,000 26,000 27,000: p10 at rank 0.4, p90 at rank 3.6.
        QCOMPARE(low->data()->size(), 2);
        QCOMPARE(low->data()->at(1)->key, 16.0);
        QCOMPARE(low->data()->at(1)->value, 22000 + 0.4 * 1000);
        QCOMPARE(high->data()->at(1)->value, 26000 + 0.6 * 1000);
        QCOMPARE(high->channelFillGraph(), low);
        QColor tint = views::ThroughputView::policyColor("split-locks");
        tint.setAlpha(48);
        QCOMPARE(high->brush().color(), tint);
        // Speedup at 16: each draw over single's same draw, 2.2 2.5 1.714 1.769 2.167, sorted
        // 1.714 1.769 2.167 2.2 2.5.
        const auto [slow, shigh] = v.speedupBand("split-locks");
        QVERIFY(slow && shigh);
        std::vector<double> ratios = {22000.0 / 10000, 27000.0 / 14000, 24000.0 / 11000,
                                      23000.0 / 13000, 26000.0 / 12000};
        std::sort(ratios.begin(), ratios.end());
        QVERIFY(std::abs(slow->data()->at(1)->value - (ratios[0] + 0.4 * (ratios[1] - ratios[0]))) <
                1e-12);
        QVERIFY(std::abs(shigh->data()->at(1)->value -
                         (ratios[3] + 0.6 * (ratios[4] - ratios[3]))) < 1e-12);
        QCOMPARE(v.throughputBand("split-locks", 100).first, nullptr);
        QVERIFY(v.throughputBand("single").first);

        // On the picture: inside split-locks' band at 16 copies, away from its line, the
        // policy's colour at 48/255 over the white plot.
        QTemporaryDir dir;
        QString error;
        QVERIFY(v.exportPng(dir.filePath("b.png"), 1280, 720, error));
        const QImage img(dir.filePath("b.png"));
        const QPointF top = high->coordsToPixels(16, 26600),
                      bottom = low->coordsToPixels(16, 22400);
        const QPointF curve = v.throughputGraph("split-locks")->coordsToPixels(16, 24000);
        const int y = static_cast<int>(top.y() + 0.2 * (bottom.y() - top.y()));
        QVERIFY(std::abs(y - curve.y()) > 4);
        const QColor got = img.pixelColor(static_cast<int>(top.x()) - 3, y);
        const QColor c = views::ThroughputView::policyColor("split-locks");
        auto blend = [](int ch) { return 255 + (ch - 255) * 48 / 255; };
        QVERIFY2(std::abs(got.red() - blend(c.red())) <= 6 &&
                     std::abs(got.green() - blend(c.green())) <= 6 &&
                     std::abs(got.blue() - blend(c.blue())) <= 6,
                 qPrintable(got.name()));

        // Without bands: nothing shaded.
        v.setRuns(sideBySide(), "test", 16);
        QCOMPARE(v.throughputBand("split-locks").first, nullptr);
        QCOMPARE(v.speedupBand("single").second, nullptr);
    }

    // A slide: at a slide's plot size (1280 x 430, what a workshop slide leaves the plot) and
    // in workshop type, both panes keep a real height, each left title fits its own pane (they
    // ran into each other), the legend sits inside the upper pane and the panes' copies axes
    // line up.
    void compactFitsASlide() {
        qApp->setProperty("immapFontScale", 1.6);
        std::vector<sim::SimResult> runs = sideBySide();
        for (sim::SimResult& r : runs)
            r.bandRates = {r.execsPerSecond * 0.9, r.execsPerSecond, r.execsPerSecond * 1.1};
        views::ThroughputView v;
        v.resize(1280, 430);
        v.setCompact(true);
        v.setRuns(runs, "numa12-384cpu.xml (12 NUMA nodes, 384 CPUs)", 384);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.plot()->replot();
        QCPAxisRect* top = v.throughputRect();
        QCPAxisRect* speed = v.speedupRect();
        const int plotHeight = v.plot()->height();
        QVERIFY2(top->rect().height() >= plotHeight / 4 && speed->rect().height() >= plotHeight / 4,
                 qPrintable(QString("panes %1 and %2 px of %3")
                                .arg(top->rect().height())
                                .arg(speed->rect().height())
                                .arg(plotHeight)));
        for (QCPAxisRect* r : {top, speed}) {
            QCPAxis* left = r->axis(QCPAxis::atLeft);
            const int titleLength =
                QFontMetrics(left->labelFont()).horizontalAdvance(left->label());
            QVERIFY2(titleLength <= r->rect().height(), qPrintable(left->label()));
        }
        QCOMPARE(top->rect().left(), speed->rect().left());
        QCOMPARE(top->rect().right(), speed->rect().right());
        QVERIFY(!top->axis(QCPAxis::atBottom)->tickLabels());
        QVERIFY(speed->axis(QCPAxis::atBottom)->tickLabels());
        // One text element (the title): the shading's note is the slide's summary's to say.
        int texts = 0;
        for (int i = 0; i < v.plot()->plotLayout()->elementCount(); ++i)
            texts += qobject_cast<QCPTextElement*>(v.plot()->plotLayout()->elementAt(i)) != nullptr;
        QCOMPARE(texts, 1);
        QCOMPARE(top->insetLayout()->elementCount(), 1);
        auto* legend = qobject_cast<QCPLegend*>(top->insetLayout()->elementAt(0));
        QVERIFY(legend);
        // One row: the two policies, then the dash of 100 walks/s once.
        QCOMPARE(legend->itemCount(), 3);
        QCOMPARE(legend->rowCount(), 1);
        // No point of any curve under the legend.
        for (int g = 0; g < v.plot()->graphCount(); ++g) {
            QCPGraph* graph = v.plot()->graph(g);
            if (graph->valueAxis()->axisRect() != top) continue;
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                QVERIFY2(!legend->outerRect().contains(
                             graph->coordsToPixels(it->key, it->value).toPoint()),
                         qPrintable(graph->name()));
        }
        // Not compact: the note and the legend have rows of their own again.
        v.setCompact(false);
        texts = 0;
        for (int i = 0; i < v.plot()->plotLayout()->elementCount(); ++i)
            texts += qobject_cast<QCPTextElement*>(v.plot()->plotLayout()->elementAt(i)) != nullptr;
        QCOMPARE(texts, 2);
        QCOMPARE(v.throughputRect()->insetLayout()->elementCount(), 0);
        qApp->setProperty("immapFontScale", QVariant());
    }

    // Slide 4's plot: the quoted figures' cards are opaque, so they sit where they cover no
    // other curve's line if the pane has such a place (libc-384's "54,197 execs/s" once hid
    // split-locks' curve from 192 to 256 copies), and never beside a mark that is not theirs
    // (a claim's square); the claims are named where no curve runs, at the left end.
    void cardsKeepOffTheCurvesAndOtherMarks_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<unsigned>("copies");
        QTest::newRow("split-trees (slide 4)") << QStringLiteral("split-trees") << 384u;
        QTest::newRow("split-locks, the top curve (slide 5)")
            << QStringLiteral("split-locks") << 384u;
        // The first point, at the pane's left edge: its cards go right of it, not off screen;
        // two figures quoted at one point stack (walkers-and-memory slide 2).
        QTest::newRow("split-locks at 1 copy") << QStringLiteral("split-locks") << 1u;
        QTest::newRow("single and split-locks at 1 copy")
            << QStringLiteral("single,split-locks") << 1u;
    }
    void cardsKeepOffTheCurvesAndOtherMarks() {
        QFETCH(QString, policy);
        QFETCH(unsigned, copies);
        qApp->setProperty("immapFontScale", 1.6);
        std::vector<sim::SimResult> runs;
        for (unsigned c : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u, 192u, 256u, 384u}) {
            const double single = 1000.0 * std::min(c, 24u) - (c > 24 ? 8.0 * c : 0.0);
            const double spread = c <= 16 ? 1.0 : std::min(3.0, c / 40.0);
            runs.push_back(run("single", c, single));
            runs.push_back(run("split-trees", c, single * std::max(1.0, spread)));
            runs.push_back(run("split-locks", c, single * std::max(1.0, c / 36.0)));
        }
        views::ThroughputView v;
        v.resize(1280, 430);
        v.setCompact(true);
        std::vector<views::ThroughputView::Mark> quoted;
        for (const QString& p : policy.split(QLatin1Char(',')))
            quoted.push_back({p, copies, false});
        v.setMarks(quoted);
        v.setRuns(runs, "numa12-384cpu.xml (12 NUMA nodes, 384 CPUs)", 384);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.plot()->replot();
        // execs/s and, but for single, the ratio.
        const auto expected =
            static_cast<qsizetype>(quoted.size() * 2 - (policy.contains("single") ? 1 : 0));
        QCOMPARE(v.markTexts().size(), expected);
        std::vector<QCPItemText*> cards, claims;
        std::vector<QCPItemTracer*> marks;
        for (int i = 0; i < v.plot()->itemCount(); ++i) {
            if (auto* t = qobject_cast<QCPItemText*>(v.plot()->item(i)); t && t->visible())
                (v.markTexts().contains(t->text()) ? cards : claims).push_back(t);
            if (auto* m = qobject_cast<QCPItemTracer*>(v.plot()->item(i))) marks.push_back(m);
        }
        QCOMPARE(static_cast<qsizetype>(cards.size()), expected);
        QCOMPARE(claims.size(), 2u);
        for (QCPItemText* card : cards) {
            const QRectF box = views::PlotLabelPlacer::boxOf(card);
            QVERIFY2(QRectF(v.throughputRect()->rect()).contains(box) ||
                         QRectF(v.speedupRect()->rect()).contains(box),
                     qPrintable(card->text() + " leaves its pane"));
            for (QCPItemTracer* m : marks)
                if (m->position != card->position->parentAnchor())
                    QVERIFY2(!box.intersects(QRectF(
                                 m->position->pixelPosition() - QPointF(m->size(), m->size()) / 2,
                                 QSizeF(m->size(), m->size()))),
                             qPrintable(card->text() + " beside another mark"));
            for (QCPItemText* other : cards)
                if (other != card) QVERIFY(!box.intersects(views::PlotLabelPlacer::boxOf(other)));
        }
        // The execs/s pane has room above and below the last points: that figure covers no
        // curve there (at 1 copy every curve starts under it).
        if (copies == 384)
            QCOMPARE(views::PlotLabelPlacer::crossings(v.plot(),
                                                       views::PlotLabelPlacer::boxOf(cards[0])),
                     0);
        for (QCPItemText* claim : claims) {
            const QRectF box = views::PlotLabelPlacer::boxOf(claim);
            QVERIFY2(v.speedupRect()->rect().contains(box.toRect()), qPrintable(claim->text()));
            QCOMPARE(views::PlotLabelPlacer::crossings(v.plot(), box), 0);
        }
        qApp->setProperty("immapFontScale", QVariant());
    }

    void exportsWriteFiles() {
        QTemporaryDir dir;
        views::ThroughputView v;
        v.resize(900, 700);
        v.setRuns(sweep(), "test", 384);
        QString error;
        QVERIFY(v.exportPng(dir.filePath("t.png"), 900, 700, error));
        QVERIFY(v.exportPdf(dir.filePath("t.pdf"), 900, 700, error));
        QVERIFY(v.exportCsv(dir.filePath("t.csv"), error));
        QImage img(dir.filePath("t.png"));
        QCOMPARE(img.size(), QSize(900, 700));
        // Each policy's line colour is on the picture.
        for (const char* policy : {"single", "split-trees", "split-locks"}) {
            const QColor c = views::ThroughputView::policyColor(policy);
            bool found = false;
            for (int y = 0; y < img.height() && !found; ++y)
                for (int x = 0; x < img.width() && !found; ++x)
                    found = img.pixelColor(x, y) == c;
            QVERIFY2(found, policy);
        }
        QFile pdf(dir.filePath("t.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QFile csv(dir.filePath("t.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), 10);
        QVERIFY(!v.exportPng("/nonexistent-dir/x.png", 100, 100, error));
        QVERIFY(error.contains("/nonexistent-dir/x.png"));
    }
};

IMMAP_TEST_SUITE(TestThroughputView);
#include "TestThroughputView.moc"
