// SweepShard: the slices partition the grid and share its work out; the parts of N shards merge
// into byte for byte what one run of the whole grid writes; the merge refuses parts of another
// sweep, a shard given twice or missing, and broken files.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <algorithm>
#include <set>

#include "Suites.h"
#include "sim/Sweep.h"
#include "sim/SweepShard.h"
#include "topology/Topology.h"

using namespace immap;
using namespace immap::sim;

namespace {

const topology::Topology& fourCpus() {
    static const topology::Topology t =
        topology::Topology::fromSpec("synthetic:package:2 numa:1 core:2 pu:1");
    return t;
}

SweepConfig grid() {
    SweepConfig c;
    c.run.topology = &fourCpus();
    c.run.durationMs = 2;
    c.run.params.windowTotalExecs = 20;
    for (const char* name : {"single", "split-locks"}) {
        mapping::Policy p;
        std::string error;
        mapping::Policy::parse(name, p, error);
        c.policies.push_back(p);
    }
    c.copies = {1, 2, 3, 4, 8};
    c.seeds = 2;
    return c;
}

// Every shard of n run and written as its part, in shard order.
std::vector<SweepPart> partsOf(const SweepConfig& whole, unsigned n) {
    std::vector<SweepPart> parts;
    for (unsigned k = 1; k <= n; ++k) {
        SweepConfig c = whole;
        c.points = SweepShard::points(whole, k, n);
        parts.push_back(
            {"part" + std::to_string(k), SweepShard::part(SweepShard::identity(c, ""), k, n,
                                                          *c.points, Sweep::rows(Sweep::run(c)))});
    }
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
        const SweepConfig c = grid();
        for (unsigned n : {1u, 2u, 3u, 4u, 10u, 11u}) {
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
            QCOMPARE(seen.size(), c.policies.size() * c.copies.size());
            for (std::size_t i = 0; i < seen.size(); ++i)
                QCOMPARE(seen.count(i), std::size_t{1});
            const auto [lo, hi] = std::minmax_element(work.begin(), work.end());
            QVERIFY2(*hi - *lo <= 8,
                     qPrintable(QString("n=%1: %2 to %3").arg(n).arg(*lo).arg(*hi)));
        }
    }

    // The parts of 3 shards, in any order, merge into exactly one run's CSV and JSON.
    void mergeEqualsOneRun() {
        const SweepConfig c = grid();
        const std::vector<SimResult> whole = Sweep::run(c);
        std::vector<SweepPart> parts = partsOf(c, 3);
        std::reverse(parts.begin(), parts.end());
        std::vector<SweepRow> rows;
        std::string error;
        QVERIFY2(SweepShard::merge(parts, rows, error), error.c_str());
        QCOMPARE(SweepRow::toCsv(rows), Sweep::toCsv(whole));
        QCOMPARE(SweepRow::toJson(rows), Sweep::toJson(whole));
        // One shard is the whole grid too; with more shards than points, the extra ones run
        // nothing (not the whole grid) and still count.
        QVERIFY(SweepShard::merge(partsOf(c, 1), rows, error));
        QCOMPARE(SweepRow::toCsv(rows), Sweep::toCsv(whole));
        const std::vector<SweepPart> many = partsOf(c, 12);  // 10 points
        QVERIFY(many[11].text.find("\"index\"") == std::string::npos);
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
        const std::string split = mergeError({parts[0], partsOf(c, 2)[1]});
        QVERIFY2(
            split.find("part2: is shard 2 of 2, the first part's sweep has 3") != std::string::npos,
            split.c_str());
        QVERIFY(mergeError({{"junk", "{"}}).find("junk: not JSON") != std::string::npos);
        QVERIFY(mergeError({{"csv", "policy,copies\n"}}).find("csv: not JSON") !=
                std::string::npos);
        QVERIFY(mergeError({{"obj", "{}"}}).find("obj: not an immap sweep part") !=
                std::string::npos);
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
