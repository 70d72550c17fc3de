// The no-rmap policy (Yibin Liu's RWH_RMAP_EXCLUDE): the recipe's marked files (libc and ld.so
// by default) are in no i_mmap tree and take no i_mmap lock; everything else is single. Its
// cost is on the walkers' side: a whole-file walk of a marked file finds none of its VMAs.
#include <QTest>
#include <cmath>

#include "Suites.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

using namespace immap;
using namespace immap::sim;

namespace {

const topology::Topology& twoSockets() {
    static const topology::Topology t =
        topology::Topology::fromSpec("synthetic:package:2 numa:1 core:8 pu:1;distances=10:21:21");
    return t;
}

SimResult run(const char* pol, unsigned copies, double walkers, const Recipe* recipe = nullptr) {
    SimConfig c;
    c.topology = &twoSockets();
    std::string error;
    if (!mapping::Policy::parse(pol, c.policy, error)) qFatal("%s", error.c_str());
    c.copies = copies;
    c.durationMs = 20;
    c.walkersPerSecond = walkers;
    c.params.walkerTrylock = 0;  // walks that wait: every one runs
    c.recipe = recipe;
    return Simulator(c).run();
}

const FileResult& file(const SimResult& r, const std::string& name) {
    for (const FileResult& f : r.files)
        if (f.name == name) return f;
    qFatal("no file %s", name.c_str());
}

const LockResult& lock(const SimResult& r, const std::string& name) {
    for (const LockResult& l : r.locks)
        if (l.name == name) return l;
    qFatal("no lock %s", name.c_str());
}

}  // namespace

class TestNoRmap : public QObject {
    Q_OBJECT

private slots:
    void parsesAndAddsNoMemory() {
        mapping::Policy p;
        std::string error;
        QVERIFY(mapping::Policy::parse("no-rmap", p, error));
        QCOMPARE(p.name(), std::string("no-rmap"));
        QCOMPARE(p.memoryPerInodeBytes(1), std::size_t{0});
        QVERIFY(!mapping::Policy::parse("no-rmap:2", p, error));
        QVERIFY(error.find("no-rmap") != std::string::npos);
    }

    // The marked files' VMAs are all outside the trees, the copies never take their locks
    // (only walkers do), and the walks of libc find nothing; under single they find VMAs.
    void markedFilesAreInNoTreeAndWalkersFindNothing() {
        const Recipe& recipe = Recipe::builtinDefault();
        QVERIFY(recipe.files[static_cast<std::size_t>(recipe.fileIndex("libc.so.6"))].rmapExclude);
        const SimResult n = run("no-rmap", 16, 2000);
        for (const char* marked : {"libc.so.6", "ld-linux-x86-64.so.2"}) {
            QCOMPARE(file(n, marked).finalVmas, std::uint64_t{0});
            QCOMPARE(file(n, marked).inserts, std::uint64_t{0});
            QVERIFY(file(n, marked).unlinkedVmas > 0);
        }
        QCOMPARE(lock(n, "ld-linux-x86-64.so.2").stats.holds, std::uint64_t{0});
        QVERIFY(n.walks > 0);
        QVERIFY(lock(n, "libc.so.6").stats.holds <= n.walks + 1);  // walkers only
        QCOMPARE(n.walkVmasMean, 0.0);
        QVERIFY(file(n, "execl").finalVmas > 0);  // not marked: as single
        QCOMPARE(file(n, "execl").unlinkedVmas, std::uint64_t{0});

        const SimResult s = run("single", 16, 2000);
        QVERIFY(s.walkVmasMean > 1);
        QVERIFY(file(s, "libc.so.6").finalVmas > 0);
    }

    // Nothing marked: no-rmap is single, to the exec.
    void withNothingMarkedItIsSingle() {
        std::string json = Recipe::builtinDefaultJson();
        for (std::size_t at; (at = json.find(", \"rmap_exclude\": true")) != std::string::npos;)
            json.erase(at, std::string(", \"rmap_exclude\": true").size());
        const Recipe unmarked = Recipe::fromJson(json, "unmarked.json");
        const SimResult n = run("no-rmap", 8, 0, &unmarked);
        const SimResult s = run("single", 8, 0, &unmarked);
        QCOMPARE(n.execs, s.execs);
        QCOMPARE(n.execsPerSecond, s.execsPerSecond);
        QCOMPARE(n.lockHolds, s.lockHolds);
    }
};

IMMAP_TEST_SUITE(TestNoRmap);
#include "TestNoRmap.moc"
