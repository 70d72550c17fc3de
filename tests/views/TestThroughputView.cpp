// The throughput view holds exactly the sweep's values (and speedups computed from them),
// marks the proposal's claims only on a 384-PU machine, and exports PNG, PDF and CSV; the PNG
// shows each policy's colour.
#include <qcustomplot.h>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include "Suites.h"
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
        QCOMPARE(v.plot()->itemCount(), 4);  // two claims, each a mark and a label
        v.setRuns(sweep(), "two nodes", 128);
        QVERIFY(!v.claimsShown());
        QCOMPARE(v.plot()->itemCount(), 0);
        QVERIFY(!v.throughputGraph("sharded:32"));
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
