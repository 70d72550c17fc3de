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
#include <cctype>
#include <functional>
#include <set>

#include "SmallSweep.h"
#include "Suites.h"
#include "sim/Recipe.h"
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

// "FILE:LINE: reason" with a line, for the reason beginning with `reason`.
bool located(const std::string& error, const std::string& file, const std::string& reason) {
    const std::string head = file + ":";
    if (error.compare(0, head.size(), head) != 0) return false;
    std::size_t at = head.size();
    const std::size_t digits = at;
    while (at < error.size() && std::isdigit(static_cast<unsigned char>(error[at])))
        ++at;
    return at > digits && error.compare(at, 2 + reason.size(), ": " + reason) == 0;
}

std::string mergeError(const std::vector<SweepPart>& parts) {
    std::vector<SweepRow> rows;
    std::string error;
    return SweepShard::merge(parts, rows, error) ? std::string() : error;
}

// The part with `edit` applied to its parsed JSON.
SweepPart edited(const SweepPart& part, const std::function<void(QJsonObject&)>& edit) {
    QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(part.text)).object();
    edit(o);
    return {part.name, QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString()};
}

// The part with `edit` applied to its first point's row.
SweepPart editedRow(const SweepPart& part, const std::function<void(QJsonObject&)>& edit) {
    return edited(part, [&](QJsonObject& o) {
        QJsonArray pts = o["points"].toArray();
        QJsonObject pt = pts[0].toObject();
        QJsonObject row = pt["row"].toObject();
        edit(row);
        pt["row"] = row;
        pts[0] = pt;
        o["points"] = pts;
    });
}

// The 1-based line of the first point's row's own `"key":` in a part written indented (Qt
// indents 4 spaces a level: root, "points", the point, "row", so the row's own keys sit 16
// spaces in, its summary's 20): where a refusal of the first point's field must point.
int lineOfRowKey(const std::string& text, const std::string& key) {
    const std::size_t points = text.find("\"points\"");
    const std::size_t at = text.find("\n" + std::string(16, ' ') + "\"" + key + "\":", points);
    return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')) +
           2;  // the line after the newline found
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

    // The part's lists size the merged grid: one larger than `immap sweep` runs is refused at
    // the sweep's line before anything is allocated (1,000 policies x 10,000 copies took 1.5 GB
    // from a 40 KB part), and every entry is checked as the sweep's own option would be.
    void refusesAGridNoSweepRuns() {
        const SweepPart part = partsOf(grid(), 1)[0];
        const SweepPart huge = edited(part, [](QJsonObject& o) {
            QJsonObject sweep = o["sweep"].toObject();
            QJsonArray policies, copies;
            for (int i = 0; i < 1000; ++i)
                policies.append("single");
            for (int i = 0; i < 10000; ++i)
                copies.append(1);
            sweep["policies"] = policies;
            sweep["copies"] = copies;
            o["sweep"] = sweep;
        });
        const std::string e = mergeError({huge});
        QVERIFY2(located(e, "part1", "the sweep's grid is larger than a sweep runs"), e.c_str());
        QVERIFY2(e.find("the policy list must be from 1 to 256 entries") != std::string::npos,
                 e.c_str());
        // Within each list's bound, over the grid's: 200 policies x 600 copy counts.
        const std::string e2 = mergeError({edited(part, [](QJsonObject& o) {
            QJsonObject sweep = o["sweep"].toObject();
            QJsonArray policies, copies;
            for (int i = 0; i < 200; ++i)
                policies.append("single");
            for (int i = 0; i < 600; ++i)
                copies.append(1);
            sweep["policies"] = policies;
            sweep["copies"] = copies;
            o["sweep"] = sweep;
        })});
        QVERIFY2(e2.find("make 120,000 points; the grid must be from 1 to 100000 points") !=
                     std::string::npos,
                 e2.c_str());
        struct Case {
            const char* key;
            QJsonValue value;
            const char* reason;
        };
        const Case cases[] = {
            {"copies", QJsonArray{1, 200000}, "a copy count must be from 1 to 100000 copies"},
            {"copies", QJsonArray{1.5}, "a copy count is not a whole number"},
            {"policies", QJsonArray{"single", "frob"}, "the sweep's policy \"frob\" is unknown"},
            {"walker_rates", QJsonArray{-1}, "a walker rate must be from 0 to "},
            {"seeds", 0, "the sweep's \"seeds\" must be a whole number from 1 to 1000"},
            {"bands", 5000, "the sweep's \"bands\" must be a whole number from 0 to 1000"},
        };
        for (const Case& c : cases) {
            const SweepPart bad = edited(part, [&](QJsonObject& o) {
                QJsonObject sweep = o["sweep"].toObject();
                sweep[c.key] = c.value;
                o["sweep"] = sweep;
            });
            const std::string why = mergeError({bad});
            // At the key's line inside the sweep object.
            const std::size_t sweepAt = bad.text.find("\"sweep\":");
            const std::size_t keyAt = bad.text.find(std::string("\"") + c.key + "\":", sweepAt);
            const int line =
                static_cast<int>(std::count(bad.text.begin(),
                                            bad.text.begin() + static_cast<long>(keyAt), '\n')) +
                1;
            QVERIFY2(why.find("part1:" + std::to_string(line) + ": " + c.reason) == 0, why.c_str());
        }
    }

    // Each row's values, not only its place in the grid: what no run makes is refused at the
    // field's line, and so is a summary (printed by the JSON output) that disagrees with the
    // fields (printed by the CSV).
    void refusesRowsNoRunMakes() {
        SweepConfig c = grid();  // 2 seeds
        const std::vector<SweepPart> parts = partsOf(c, 2);
        struct Case {
            const char* name;
            std::function<void(QJsonObject&)> edit;
            const char* field;  // where the message must point
            const char* reason;
        };
        const Case cases[] = {
            {"negative rate", [](QJsonObject& r) { r["execs_per_s"] = -5.0; }, "execs_per_s",
             "a point's \"execs_per_s\" is -5; it must be a finite number, not negative"},
            {"negative seed rate",
             [](QJsonObject& r) {
                 r["seed_rates"] = QJsonArray{-1.0, 1.0};
             },
             "seed_rates", "a point's seed_rates holds something other than a rate"},
            {"negative latency", [](QJsonObject& r) { r["walker_latency_p99_ns"] = -1.0; },
             "walker_latency_p99_ns", "a point's \"walker_latency_p99_ns\" is -1"},
            {"memory -1", [](QJsonObject& r) { r["memory_per_inode_bytes"] = -1; },
             "memory_per_inode_bytes",
             "a point's \"memory_per_inode_bytes\" is -1; it must be a whole number of bytes"},
            {"memory 1e300", [](QJsonObject& r) { r["memory_per_inode_bytes"] = 1e300; },
             "memory_per_inode_bytes", "a point's \"memory_per_inode_bytes\" is 1e+300"},
            {"memory 0.5", [](QJsonObject& r) { r["memory_per_inode_bytes"] = 0.5; },
             "memory_per_inode_bytes", "a point's \"memory_per_inode_bytes\" is 0.5"},
            {"copies 200000", [](QJsonObject& r) { r["copies"] = 200000; }, "copies",
             "a point's copies must be from 1 to 100000 copies"},
            {"unknown policy", [](QJsonObject& r) { r["policy"] = "frob"; }, "policy",
             "a point's policy \"frob\" is unknown"},
            {"lock busy 150%", [](QJsonObject& r) { r["max_lock_utilisation"] = 1.5; },
             "max_lock_utilisation", "a point's \"max_lock_utilisation\" is 1.5"},
            {"walkers", [](QJsonObject& r) { r["walkers_per_s"] = -3; }, "walkers_per_s",
             "a point's walkers_per_s must be from 0 to "},
            {"not the seeds' mean", [](QJsonObject& r) { r["execs_per_s"] = 1.0; }, "execs_per_s",
             "a point's \"execs_per_s\" is not the mean of its seed_rates"},
            {"summary's rate",
             [](QJsonObject& r) {
                 QJsonObject s = r["summary"].toObject();
                 s["execs_per_s"] = s["execs_per_s"].toDouble() * 2;
                 r["summary"] = s;
             },
             "summary", "a point's summary disagrees with its \"execs_per_s\""},
            {"summary's lock",
             [](QJsonObject& r) {
                 QJsonObject s = r["summary"].toObject();
                 QJsonArray locks = s["locks"].toArray();
                 QJsonObject l = locks[0].toObject();
                 l["utilisation"] = 0.99;
                 locks[0] = l;
                 s["locks"] = locks;
                 r["summary"] = s;
             },
             "summary", "a point's summary disagrees with its \"max_lock_utilisation\""},
            {"summary's seeds",
             [](QJsonObject& r) {
                 QJsonObject s = r["summary"].toObject();
                 s.remove("execs_per_s_seeds");
                 r["summary"] = s;
             },
             "summary", "a point's summary disagrees with its \"seed_rates\""},
            // Three seeds, their mean the rate and the summary agreeing: a row of another sweep
            // than the identity's two seeds.
            {"more seeds than the sweep runs",
             [](QJsonObject& r) {
                 const double x = r["execs_per_s"].toDouble();
                 r["seed_rates"] = QJsonArray{x, x, x};
                 QJsonObject s = r["summary"].toObject();
                 s["execs_per_s_seeds"] = QJsonArray{x, x, x};
                 s["execs_per_s_min"] = x;
                 s["execs_per_s_max"] = x;
                 r["summary"] = s;
             },
             "seed_rates", "point 0 has 3 seed rates; the sweep runs 2 seeds"},
        };
        for (const Case& k : cases) {
            const SweepPart bad = editedRow(parts[0], k.edit);
            const std::string e = mergeError({bad, parts[1]});
            const std::string want =
                "part1:" + std::to_string(lineOfRowKey(bad.text, k.field)) + ": " + k.reason;
            QVERIFY2(e.compare(0, want.size(), want) == 0,
                     (std::string(k.name) + ": " + e + "\n want: " + want).c_str());
        }
        // Unedited, the same parts merge.
        QCOMPARE(mergeError(parts), std::string());
    }

    // Shards whose machine or recipe changed between them, under the same spec and name, are
    // two sweeps: refused naming both parts and what differs. Without the contents in the
    // identity these merged into a chimera.
    void refusesAMachineOrRecipeChangedBetweenShards() {
        const SweepConfig c = grid();
        const std::vector<SweepPart> parts = partsOf(c, 2);
        // The recipe: the built-in one with its first work step twice as long, under the same
        // name (as a file edited in place).
        std::string json = Recipe::builtinDefaultJson();
        const std::size_t w = json.find("\"weight\":");
        QVERIFY(w != std::string::npos);
        const std::size_t digit = json.find_first_of("0123456789", w);
        json = json.substr(0, digit) + "1" + json.substr(digit);
        const Recipe longer = Recipe::fromJson(json, "built-in:execl-glibc236.json");
        QVERIFY(longer.sha256 != Recipe::builtinDefault().sha256);
        SweepConfig other = c;
        other.run.recipe = &longer;
        std::string e = mergeError({parts[0], partOf(other, 2, 2)});
        QVERIFY2(located(e, "part2",
                         "is a part of another sweep than part1: the recipe's contents differ"),
                 e.c_str());
        // The machine: the same spec ("xml:machine.xml"), another distance across packages.
        const topology::Topology a = topology::Topology::fromXmlString(
            topology::Topology::fromSpec(
                "synthetic:package:2 numa:1 core:2 pu:1;distances=10:12:32")
                .toXml(),
            "machine.xml");
        const topology::Topology b = topology::Topology::fromXmlString(
            topology::Topology::fromSpec(
                "synthetic:package:2 numa:1 core:2 pu:1;distances=10:12:21")
                .toXml(),
            "machine.xml");
        QCOMPARE(a.spec(), b.spec());
        SweepConfig onA = c, onB = c;
        onA.run.topology = &a;
        onB.run.topology = &b;
        e = mergeError({partOf(onA, 1, 2), partOf(onB, 2, 2)});
        QVERIFY2(located(e, "part2",
                         "is a part of another sweep than part1: the machine as read differs"),
                 e.c_str());
        // The same machine read twice is one sweep, whatever spec text reads it.
        const topology::Topology a2 = topology::Topology::fromXmlString(a.toXml(), "machine.xml");
        SweepConfig onA2 = c;
        onA2.run.topology = &a2;
        QCOMPARE(mergeError({partOf(onA, 1, 2), partOf(onA2, 2, 2)}), std::string());
        // Another program version.
        const SweepPart newer = edited(parts[1], [](QJsonObject& o) {
            QJsonObject sweep = o["sweep"].toObject();
            sweep["immap_version"] = "9.9.9";
            o["sweep"] = sweep;
        });
        e = mergeError({parts[0], newer});
        QVERIFY2(located(e, "part2",
                         "is a part of another sweep than part1: it was made by immap 9.9.9"),
                 e.c_str());
    }

    void refusesWhatIsNotOneSweep() {
        const SweepConfig c = grid();
        const std::vector<SweepPart> parts = partsOf(c, 3);
        QVERIFY(mergeError({}).find("no parts") != std::string::npos);
        QVERIFY(mergeError({parts[0], parts[1]}).find("shard 3 of 3 is missing") !=
                std::string::npos);
        const std::string twice = mergeError({parts[0], parts[1], parts[1]});
        QVERIFY2(located(twice, "part2", "shard 2 is also in part2"), twice.c_str());
        // Another sweep: one more seed.
        SweepConfig other = c;
        other.seeds = 3;
        const std::string another = mergeError({parts[0], parts[1], partsOf(other, 3)[2]});
        QVERIFY2(another.find("is a part of another sweep than part1: its \"seeds\" differs") !=
                     std::string::npos,
                 another.c_str());
        // Another sweep: the same grid with walkers at another rate, or without the walker-free
        // slice.
        const std::vector<SweepPart> two = {partOf(twoRates(), 1, 3), partOf(twoRates(), 2, 3)};
        for (const std::vector<double>& rates :
             {std::vector<double>{0, 1000}, std::vector<double>{2000}}) {
            SweepConfig walkers = twoRates();
            walkers.walkerRates = rates;
            const std::string e = mergeError({two[0], two[1], partOf(walkers, 3, 3)});
            QVERIFY2(e.find("is a part of another sweep than part1: its \"walker_rates\"") !=
                         std::string::npos,
                     e.c_str());
        }
        const std::string split = mergeError({parts[0], partsOf(c, 2)[1]});
        QVERIFY2(located(split, "part2", "is shard 2 of 2, the first part's sweep has 3"),
                 split.c_str());
        QVERIFY(located(mergeError({{"junk", "{"}}), "junk", "not JSON"));
        QVERIFY(located(mergeError({{"csv", "policy,copies\n"}}), "csv", "not JSON"));
        QVERIFY(mergeError({{"obj", "{}"}}).find("obj: not an immap sweep part") !=
                std::string::npos);
        // A part of the format before walker rates (version 1).
        {
            QJsonObject old =
                QJsonDocument::fromJson(QByteArray::fromStdString(parts[0].text)).object();
            old["version"] = 1;
            const std::string e = mergeError(
                {{"old", QJsonDocument(old).toJson().toStdString()}, parts[1], parts[2]});
            QVERIFY2(located(e, "old", "is a part of version 1; this immap merges version 3"),
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
            QVERIFY2(e.find("point 0 is single at 1 copies and 2000 walks/s, not the "
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
