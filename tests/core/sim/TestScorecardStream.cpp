// The scorecard's rows as they finish: every row comes once, the rows without a model before
// any run, each row's line exactly the one the finished scorecard has (the known answer: the
// run without a callback), the counts rising to every row and every run.
#include <QTest>
#include <set>

#include "Suites.h"
#include "sim/Scorecard.h"

using namespace immap::sim;

class TestScorecardStream : public QObject {
    Q_OBJECT

private slots:
    void rowsArriveOnceAsTheFinalLines() {
        ScorecardConfig c;
        c.bands = 1;
        c.seeds = 1;
        c.durationMs = 2;
        c.threads = 2;
        const std::vector<ScoreLine> plain = Scorecard::run(c);
        std::vector<ScoreUpdate> rows;
        const std::vector<ScoreLine> streamed =
            Scorecard::run(c, {}, nullptr, [&](const ScoreUpdate& u) { rows.push_back(u); });
        QCOMPARE(Scorecard::toMarkdown(streamed), Scorecard::toMarkdown(plain));
        QCOMPARE(rows.size(), plain.size());
        std::set<std::size_t> seen;
        bool modelledYet = false;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const ScoreUpdate& u = rows[i];
            QVERIFY(seen.insert(u.index).second);
            QCOMPARE(u.rowsDone, i + 1);
            QCOMPARE(u.rows, plain.size());
            QCOMPARE(u.runs, Scorecard::runsPerSet() * 2);
            QCOMPARE(Scorecard::markdownRow(u.line), Scorecard::markdownRow(plain[u.index]));
            // Rows with nothing to run come first, with no run done.
            if (!u.line.modelled) {
                QVERIFY(!modelledYet);
                QCOMPARE(u.runsDone, std::size_t{0});
            }
            modelledYet = modelledYet || u.line.modelled;
            if (i > 0) QVERIFY(u.runsDone >= rows[i - 1].runsDone);
        }
        QCOMPARE(rows.back().runsDone, rows.back().runs);
        QVERIFY(rows.back().text().find("rows: " + std::to_string(plain.size()) + "/") == 0);
    }

    void progressLineByHand() {
        ScoreUpdate u;
        u.rowsDone = 3;
        u.rows = 12;
        u.runsDone = 120;
        u.runs = 324;
        u.secondsLeft = 39.5;
        QCOMPARE(u.text(), std::string("rows: 3/12 \u00b7 runs: 120/324 \u00b7 about 40 s left"));
        u.runsDone = 324;
        QCOMPARE(u.text(), std::string("rows: 3/12 \u00b7 runs: 324/324"));
    }
};

IMMAP_TEST_SUITE(TestScorecardStream);
#include "TestScorecardStream.moc"
