// Help > Validation in the window: Ctrl+Shift+V opens the scorecard beside the window, listing
// every published observation before it runs; a run (on a short window here) fills the table
// with what core/sim's Scorecard gives for the same configuration, with progress to its end;
// Cancel stops one; Save writes Markdown or JSON atomically and refuses before a run.
#include <QAction>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <map>

#include "MainWindow.h"
#include "Suites.h"
#include "ValidationDialog.h"
#include "sim/Scorecard.h"
#include "views/ScorecardModel.h"
#include "views/ScorecardPanel.h"

using namespace immap;

namespace {

// Small and short: one seed, one drawn set, a 2 ms window.
sim::ScorecardConfig quick() {
    sim::ScorecardConfig c;
    c.bands = 1;
    c.seeds = 1;
    c.durationMs = 2;
    c.threads = 2;
    return c;
}

}  // namespace

class TestValidation : public QObject {
    Q_OBJECT

private slots:
    void menuOpensTheScorecard() {
        gui::MainWindow w(false);
        w.loadDefault();
        QAction* action = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->shortcut() == QKeySequence(QStringLiteral("Ctrl+Shift+V"))) action = a;
        QVERIFY(action);
        QVERIFY(action->text().contains("Validation"));
        gui::ValidationDialog* d = w.showValidation(false);
        QVERIFY(d->isVisible());
        QVERIFY(!d->running());
        QCOMPARE(d->panel()->model()->rowCount(), static_cast<int>(sim::Observation::all().size()));
        // The window's parameters: one changed there is held fixed in the scorecard.
        QCOMPARE(d->config().params.unlockedNsPerExec,
                 w.session().settings().params.unlockedNsPerExec);
        QVERIFY(d->config().threads >= 1);
        QTemporaryDir dir;
        QVERIFY(!d->save(dir.filePath("early.md")));  // not run yet: a dialog, no file
        QVERIFY(!QFile::exists(dir.filePath("early.md")));
        if (auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorDialog"))) box->close();
    }

    void runFillsTheTable() {
        gui::MainWindow w(false);
        w.loadDefault();
        gui::ValidationDialog* d = w.showValidation(false);
        d->setConfig(quick());
        QSignalSpy finished(d, &gui::ValidationDialog::finished);
        QTest::mouseClick(d->panel()->runButton(), Qt::LeftButton);
        QVERIFY(d->running());
        QVERIFY(d->panel()->cancelButton()->isEnabled());
        QVERIFY(finished.wait(300000));
        QVERIFY(!d->running());
        const int total = static_cast<int>(sim::Scorecard::runsPerSet() * 2);
        QCOMPARE(d->panel()->progress()->maximum(), total);
        QCOMPARE(d->panel()->progress()->value(), total);
        QVERIFY(d->panel()->saveButton()->isEnabled());

        // Line for line what core/sim gives for the same configuration.
        const std::vector<sim::ScoreLine> expected = sim::Scorecard::run(quick());
        const auto& got = d->panel()->model()->lines();
        QCOMPARE(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].observation, expected[i].observation);
            QCOMPARE(got[i].point, expected[i].point);
            QCOMPARE(got[i].band.p10, expected[i].band.p10);
            QCOMPARE(got[i].hit, expected[i].hit);
        }
        QVERIFY(d->panel()->summary()->text().contains(
            QString("%1 of").arg(d->panel()->model()->hits())));

        // Saves: Markdown by default, JSON by extension, the same text immap validate writes.
        QTemporaryDir dir;
        QVERIFY(d->save(dir.filePath("score.md")));
        QFile md(dir.filePath("score.md"));
        QVERIFY(md.open(QIODevice::ReadOnly));
        QCOMPARE(md.readAll().toStdString(), sim::Scorecard::toMarkdown(expected));
        QVERIFY(d->save(dir.filePath("score.json")));
        QFile js(dir.filePath("score.json"));
        QVERIFY(js.open(QIODevice::ReadOnly));
        QCOMPARE(js.readAll().toStdString(), sim::Scorecard::toJson(expected, quick()));
        QVERIFY(!d->save("/nonexistent-dir/score.md"));
        if (auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorDialog"))) {
            QVERIFY(box->text().contains("nonexistent") ||
                    box->informativeText().contains("nonexistent") ||
                    box->detailedText().contains("nonexistent"));
            box->close();
        }
    }

    // Each row is filled in as soon as its runs finish, before the run ends, with the line the
    // finished table has; a row still waiting says so.
    void rowsAppearBeforeTheEnd() {
        gui::MainWindow w(false);
        w.loadDefault();
        gui::ValidationDialog* d = w.showValidation(false);
        d->setConfig(quick());
        views::ScorecardModel* model = d->panel()->model();
        std::map<int, std::string> early;  // row -> its line while the run was going
        connect(model, &QAbstractItemModel::dataChanged, this,
                [&](const QModelIndex& from, const QModelIndex&) {
                    if (d->running() && model->rowDone(from.row()))
                        early[from.row()] = sim::Scorecard::markdownRow(
                            model->lines()[static_cast<std::size_t>(from.row())]);
                });
        QSignalSpy finished(d, &gui::ValidationDialog::finished);
        QVERIFY(d->start());
        // Not-modelled rows are filled at once; the others wait.
        int waiting = 0;
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->data(model->index(r, views::ScorecardModel::Verdict)).toString() ==
                QStringLiteral("running…"))
                ++waiting;
        QVERIFY(waiting > 0);
        QVERIFY(finished.wait(300000));
        // Every row arrived before the end, as the end has it.
        const auto& lines = model->lines();
        QCOMPARE(early.size(), lines.size());
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const int row = static_cast<int>(i);
            QVERIFY2(early.count(row), lines[i].observation->claim.c_str());
            QCOMPARE(early[row], sim::Scorecard::markdownRow(lines[i]));
        }
    }

    void cancelStopsARun() {
        gui::MainWindow w(false);
        w.loadDefault();
        gui::ValidationDialog* d = w.showValidation(false);
        sim::ScorecardConfig slow = quick();
        slow.bands = 50;
        slow.durationMs = 200;
        d->setConfig(slow);
        QVERIFY(d->start());
        QVERIFY(!d->start());  // one at a time
        QTest::mouseClick(d->panel()->cancelButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 120000);
        QVERIFY(!d->panel()->model()->ran());
        QVERIFY(d->panel()->runButton()->isEnabled());
        QCOMPARE(d->panel()->summary()->text(), QString("Cancelled."));
    }
};

IMMAP_TEST_SUITE(TestValidation);
#include "TestValidation.moc"
