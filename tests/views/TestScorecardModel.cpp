// ScorecardModel: passes QAbstractItemModelTester before and after a run; lists every published
// observation before one; shows a line's point, band and verdict in the observation's unit, hits
// and misses tinted apart; the panel shows the selected row's source as a link.
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <algorithm>

#include "Suites.h"
#include "sim/Observation.h"
#include "views/ScorecardModel.h"
#include "views/ScorecardPanel.h"

using namespace immap;

namespace {

const sim::Observation& observation(const std::string& unit) {
    for (const sim::Observation& o : sim::Observation::all())
        if (o.unit == unit && o.metric != sim::Observation::Metric::NotModelled) return o;
    throw std::logic_error("no observation in " + unit);
}

}  // namespace

class TestScorecardModel : public QObject {
    Q_OBJECT

private slots:
    void beforeAndAfterARun() {
        views::ScorecardModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), static_cast<int>(sim::Observation::all().size()));
        QCOMPARE(m.columnCount(), int(views::ScorecardModel::ColumnCount));
        QVERIFY(!m.ran());
        const sim::Observation& first = sim::Observation::all().front();
        QCOMPARE(m.data(m.index(0, views::ScorecardModel::Claim)).toString(),
                 QString::fromStdString(first.claim));
        QCOMPARE(m.data(m.index(0, views::ScorecardModel::Published)).toString(),
                 QString::fromStdString(first.publishedText));
        QCOMPARE(m.data(m.index(0, views::ScorecardModel::Model)).toString(), QString("-"));
        QCOMPARE(m.data(m.index(0, views::ScorecardModel::Verdict)).toString(),
                 QString("not run yet"));
        QVERIFY(m.data(m.index(0, views::ScorecardModel::Claim), Qt::ToolTipRole)
                    .toString()
                    .contains(QString::fromStdString(first.source)));

        // A hit in x, a miss in %.
        sim::ScoreLine hit;
        hit.observation = &observation("x");
        hit.modelled = true;
        hit.point = 10.56;
        hit.band = {3.94, 6.01, 9.67, true};
        hit.hit = true;
        hit.verdict = "the band reaches it";
        sim::ScoreLine miss;
        miss.observation = &observation("%");
        miss.modelled = true;
        miss.point = 79.3;
        miss.band = {76.1, 80.0, 84.1, true};
        miss.verdict = "above the band";
        QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
        m.setLines({hit, miss});
        QCOMPARE(reset.count(), 1);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.hits(), 1);
        QCOMPARE(m.data(m.index(0, views::ScorecardModel::Model)).toString(), QString("10.6x"));
        QCOMPARE(m.data(m.index(0, views::ScorecardModel::Band)).toString(),
                 QString("3.94x - 9.67x"));
        QCOMPARE(m.data(m.index(0, views::ScorecardModel::Verdict)).toString(),
                 QString("hit: the band reaches it"));
        QCOMPARE(m.headerData(views::ScorecardModel::Band, Qt::Horizontal).toString(),
                 QString("10-90% band"));
        // Without parameter sets the column is the seeds' spread, and says so.
        sim::ScoreLine seedsOnly = miss;
        seedsOnly.overSeeds = true;
        m.setLines({seedsOnly});
        QCOMPARE(m.headerData(views::ScorecardModel::Band, Qt::Horizontal).toString(),
                 QString("seeds' 10-90% spread"));
        m.setLines({hit, miss});
        QCOMPARE(m.data(m.index(1, views::ScorecardModel::Model)).toString(), QString("79.3%"));
        QCOMPARE(m.data(m.index(1, views::ScorecardModel::Verdict)).toString(),
                 QString("miss: above the band"));
        QCOMPARE(m.data(m.index(1, views::ScorecardModel::Model), Qt::UserRole).toDouble(), 79.3);
        const QColor hitTint =
            m.data(m.index(0, views::ScorecardModel::Verdict), Qt::BackgroundRole)
                .value<QBrush>()
                .color();
        const QColor missTint =
            m.data(m.index(1, views::ScorecardModel::Verdict), Qt::BackgroundRole)
                .value<QBrush>()
                .color();
        QVERIFY(hitTint.green() > hitTint.red() && missTint.red() > missTint.green());
        // A prediction (nothing published) is neither a hit nor a miss, and tinted apart.
        const auto predicted = std::find_if(
            sim::Observation::all().begin(), sim::Observation::all().end(),
            [](const sim::Observation& o) { return o.bound == sim::Observation::Bound::None; });
        QVERIFY(predicted != sim::Observation::all().end());
        sim::ScoreLine prediction;
        prediction.observation = &*predicted;
        prediction.modelled = true;
        prediction.point = 0.99;
        prediction.band = {0.95, 1.0, 1.03, true};
        prediction.verdict = "nothing published to compare with";
        m.setLines({hit, miss, prediction});
        QCOMPARE(m.hits(), 1);
        QCOMPARE(m.data(m.index(2, views::ScorecardModel::Verdict)).toString(),
                 QString("prediction: nothing published to compare with"));
        const QColor predictionTint =
            m.data(m.index(2, views::ScorecardModel::Verdict), Qt::BackgroundRole)
                .value<QBrush>()
                .color();
        QVERIFY(predictionTint.blue() > predictionTint.red() && predictionTint != hitTint);
        m.showObservations();
        QVERIFY(!m.ran());
        QCOMPARE(m.rowCount(), static_cast<int>(sim::Observation::all().size()));
    }

    void panelShowsTheSource() {
        views::ScorecardPanel p;
        QSignalSpy run(&p, &views::ScorecardPanel::runRequested);
        p.runButton()->click();
        QCOMPARE(run.count(), 1);
        QVERIFY(!p.saveButton()->isEnabled());  // nothing run yet
        p.table()->setCurrentIndex(p.model()->index(0, 0));
        const sim::Observation& first = sim::Observation::all().front();
        QVERIFY2(p.detail()->text().contains("href=\"http"), qPrintable(p.detail()->text()));
        QVERIFY(!p.detail()->text().contains(")\">"));  // "(URL)": the bracket is not linked
        QVERIFY(
            p.detail()->text().contains(QString::fromStdString(first.topology).toHtmlEscaped()));
    }
};

IMMAP_TEST_SUITE(TestScorecardModel);
#include "TestScorecardModel.moc"
