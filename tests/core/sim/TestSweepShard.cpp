// SweepShard: the slices partition the grid and share its work out; the parts of N shards merge
// into byte for byte what one run of the whole grid writes, with one walker rate and with two
// (each policy without and with walkers); the merge refuses parts of another sweep (another
// walker rate among them), a shard given twice or missing, a point filed under another's index,
// a part of the previous format, and broken files.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <algorithm>
#include <set>

#include "SmallSweep.h"
#include "Suites.h"
#include "sim/Sweep.h"
#include "sim/SweepShard.h"
#include "topology/Topology.h"

using namespace immap;
using namespace immap::sim;

namespace {

SweepConfig grid() {
    return testing::smallSweep({1, 2, 3, 4, 8}, 2);
}

// The same grid without walkers and at 2,000 walks/s, side by side.
SweepConfig twoRates() {
    SweepConfig c = grid();
    c.walkerRates = {0, 2000};
    return c;
}

// Shard k of n run and written as its part.
SweepPart partOf(const SweepConfig& whole, unsigned k, unsigned n) {
    SweepConfig c = whole;
    c.points = SweepShard::points(whole, k, n);
    return {"part" + std::to_string(k), SweepShard::part(SweepShard::identity(c, ""), k, n,
                                                         *c.points, Sweep::rows(Sweep::run(c)))};
}

// Every shard of n run and written as its part, in shard order.
std::vector<SweepPart> partsOf(const SweepConfig& whole, unsigned n) {
    std::vector<SweepPart> parts;
    for (unsigned k = 1; k <= n; ++k)
        parts.push_back(partOf(whole, k, n));
    return parts;
}

std::string mergeError(const std::vector<SweepPart>& parts) {
    std::vector<SweepRow> rows;
    std::string error;
    return SweepShard::merge(parts, rows, error) ? std::string() : error;
}

}  // namespace

class TestSweepShard : public QObject {
    Q_OBJECT

private slots:
    void parsesKOfN() {
        unsigned k = 0, n = 0;
        std::string error;
        QVERIFY(SweepShard::parse("3/8", k, n, error));
        QCOMPARE(k, 3u);
        QCOMPARE(n, 8u);
        for (const char* bad : {"0/3", "4/3", "3", "1/0", "a/b", "1/2/3", "-1/2", "1/100001", ""})
            QVERIFY2(!SweepShard::parse(bad, k, n, error), bad);
    }

    // Each point in exactly one shard; each shard's copies within one point's of the others'.
    void slicesPartitionAndBalance() {
        for (const SweepConfig& c : {grid(), twoRates()})
            for (unsigned n : {1u, 2u, 3u, 4u, 10u, 11u, 21u}) {
                std::multiset<std::size_t> seen;
                std::vector<unsigned> work;
                for (unsigned k = 1; k <= n; ++k) {
                    const auto pts = SweepShard::points(c, k, n);
                    QVERIFY(std::is_sorted(pts.begin(), pts.end()));
                    unsigned sum = 0;
                    for (std::size_t i : pts) {
                        seen.insert(i);
                        sum += c.copies[i % c.copies.size()];
                    }
                    work.push_back(sum);
                }
                QCOMPARE(seen.size(), c.rates().size() * c.policies.size() * c.copies.size());
                for (std::size_t i = 0; i < seen.size(); ++i)
                    QCOMPARE(seen.count(i), std::size_t{1});
                const auto [lo, hi] = std::minmax_element(work.begin(), work.end());
                QVERIFY2(*hi - *lo <= 8,
                         qPrintable(QString("n=%1: %2 to %3").arg(n).arg(*lo).arg(*hi)));
            }
    }

    // The parts of 3 shards, in any order, merge into exactly one run's CSV and JSON.
    void mergeEqualsOneRun_data() {
        QTest::addColumn<bool>("walkersSideBySide");
        QTest::addColumn<unsigned>("bands");
        QTest::newRow("one walker rate") << false << 0u;
        QTest::newRow("without and with walkers") << true << 0u;
        QTest::newRow("banded, 3 parameter sets") << false << 3u;
    }
    void mergeEqualsOneRun() {
        QFETCH(bool, walkersSideBySide);
        QFETCH(unsigned, bands);
        SweepConfig c = walkersSideBySide ? twoRates() : grid();
        c.bands = bands;
        const std::vector<SimResult> whole = Sweep::run(c);
        std::vector<SweepPart> parts = partsOf(c, 3);
        std::reverse(parts.begin(), parts.end());
        std::vector<SweepRow> rows;
        std::string error;
        QVERIFY2(SweepShard::merge(parts, rows, error), error.c_str());
        QCOMPARE(SweepRow::toCsv(rows), Sweep::toCsv(whole));
        QCOMPARE(SweepRow::toJson(rows), Sweep::toJson(whole));
        if (bands > 0) {
            QVERIFY(Sweep::toCsv(whole).find(",speedup_p90\n") != std::string::npos);
            QCOMPARE(rows.front().bandRates.size(), std::size_t{bands});
            // A banded part is not a part of the same sweep without bands.
            SweepConfig plain = c;
            plain.bands = 0;
            const std::string e = mergeError({parts[2], parts[1], partsOf(plain, 3)[2]});
            QVERIFY2(e.find("is a part of another sweep") != std::string::npos, e.c_str());
        }
        // One shard is the whole grid too; with more shards than points, the extra ones run
        // nothing (not the whole grid) and still count.
        QVERIFY(SweepShard::merge(partsOf(c, 1), rows, error));
        QCOMPARE(SweepRow::toCsv(rows), Sweep::toCsv(whole));
        const std::size_t points = c.gridSize();  // 10, or 20 with two rates
        const std::vector<SweepPart> many = partsOf(c, static_cast<unsigned>(points + 2));
        QVERIFY(many.back().text.find("\"index\"") == std::string::npos);
        QVERIFY2(SweepShard::merge(many, rows, error), error.c_str());
        QCOMPARE(SweepRow::toCsv(rows), Sweep::toCsv(whole));
    }

    void refusesWhatIsNotOneSweep() {
        const SweepConfig c = grid();
        const std::vector<SweepPart> parts = partsOf(c, 3);
        QVERIFY(mergeError({}).find("no parts") != std::string::npos);
        QVERIFY(mergeError({parts[0], parts[1]}).find("shard 3 of 3 is missing") !=
                std::string::npos);
        const std::string twice = mergeError({parts[0], parts[1], parts[1]});
        QVERIFY2(twice.find("part2: shard 2 is also in part2") != std::string::npos, twice.c_str());
        // Another sweep: one more seed.
        SweepConfig other = c;
        other.seeds = 3;
        const std::string another = mergeError({parts[0], parts[1], partsOf(other, 3)[2]});
        QVERIFY2(another.find("part3: is a part of another sweep") != std::string::npos,
                 another.c_str());
        // Another sweep: the same grid with walkers at another rate, or without the walker-free
        // slice.
        const std::vector<SweepPart> two = {partOf(twoRates(), 1, 3), partOf(twoRates(), 2, 3)};
        for (const std::vector<double>& rates :
             {std::vector<double>{0, 1000}, std::vector<double>{2000}}) {
            SweepConfig walkers = twoRates();
            walkers.walkerRates = rates;
            const std::string e = mergeError({two[0], two[1], partOf(walkers, 3, 3)});
            QVERIFY2(e.find("part3: is a part of another sweep") != std::string::npos, e.c_str());
        }
        const std::string split = mergeError({parts[0], partsOf(c, 2)[1]});
        QVERIFY2(
            split.find("part2: is shard 2 of 2, the first part's sweep has 3") != std::string::npos,
            split.c_str());
        QVERIFY(mergeError({{"junk", "{"}}).find("junk: not JSON") != std::string::npos);
        QVERIFY(mergeError({{"csv", "policy,copies\n"}}).find("csv: not JSON") !=
                std::string::npos);
        QVERIFY(mergeError({{"obj", "{}"}}).find("obj: not an immap sweep part") !=
                std::string::npos);
        // A part of the format before walker rates (version 1).
        {
            QJsonObject old =
                QJsonDocument::fromJson(QByteArray::fromStdString(parts[0].text)).object();
            old["version"] = 1;
            const std::string e = mergeError(
                {{"old", QJsonDocument(old).toJson().toStdString()}, parts[1], parts[2]});
            QVERIFY2(e.find("old: is a part of version 1; this immap merges version 2") !=
                         std::string::npos,
                     e.c_str());
        }
        // A row filed under another point's index: the walker-free and the walker slice of one
        // (policy, copies) swapped between two parts of a two-rate sweep.
        {
            const SweepConfig two = twoRates();
            std::vector<SweepPart> p = partsOf(two, 1);
            QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(p[0].text)).object();
            QJsonArray pts = o["points"].toArray();
            QJsonObject a = pts[0].toObject(), b = pts[10].toObject();  // rate 0 and 2000
            QCOMPARE(a["index"].toInt(), 0);
            QCOMPARE(b["index"].toInt(), 10);
            const QJsonValue row = a["row"];
            a["row"] = b["row"];
            b["row"] = row;
            pts[0] = a;
            pts[10] = b;
            o["points"] = pts;
            const std::string e =
                mergeError({{"swapped", QJsonDocument(o).toJson().toStdString()}});
            QVERIFY2(e.find("swapped: point 0 is single at 1 copies and 2000 walks/s, not the "
                            "grid's point there") != std::string::npos,
                     e.c_str());
        }
        // A point whose row lost a field, and one outside the grid.
        QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(parts[0].text)).object();
        QJsonArray pts = o["points"].toArray();
        QJsonObject pt = pts[0].toObject();
        QJsonObject row = pt["row"].toObject();
        row.remove("execs_per_s");
        pt["row"] = row;
        pts[0] = pt;
        o["points"] = pts;
        const std::string broken = QJsonDocument(o).toJson().toStdString();
        QVERIFY(
            mergeError({{"p1", broken}, parts[1], parts[2]}).find("\"execs_per_s\" is missing") !=
            std::string::npos);
        pt = pts[0].toObject();
        pt["index"] = 99;
        pts[0] = pt;
        o["points"] = pts;
        QVERIFY(mergeError({{"p1", QJsonDocument(o).toJson().toStdString()}, parts[1], parts[2]})
                    .find("outside the sweep's grid") != std::string::npos);
    }
};

IMMAP_TEST_SUITE(TestSweepShard);
#include "TestSweepShard.moc"
