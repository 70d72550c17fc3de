// The run cache (docs/cache.md): every field that decides a run decides its key (each changed in
// turn, and a model version bump); a result comes back bit for bit (field by field against a
// real run); a served result is the simulator's; a torn, corrupt or foreign entry is ignored and
// rewritten; the size cap evicts the least recently used; two writers on one directory agree.
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "SmallSweep.h"
#include "Suites.h"
#include "sim/ResultCodec.h"
#include "sim/RunCache.h"
#include "sim/RunKey.h"
#include "sim/Sweep.h"
#include "topology/Topology.h"

using namespace immap;
using namespace immap::sim;
namespace fs = std::filesystem;

namespace {

SimConfig base() {
    SimConfig c;
    c.topology = &testing::fourCpus();
    c.copies = 2;
    c.durationMs = 2;
    c.params.windowTotalExecs = 20;
    c.walkersPerSecond = 2000;  // walks in the window, so that the walker fields are not 0
    return c;
}

std::string fileText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// Field by field, doubles by their bits (==, as NaN does not occur in a run).
void compare(const SimResult& a, const SimResult& b) {
    QCOMPARE(a.policy, b.policy);
    QCOMPARE(a.topology, b.topology);
    QCOMPARE(a.recipe, b.recipe);
    QCOMPARE(a.copies, b.copies);
    QCOMPARE(a.seed, b.seed);
    QVERIFY(a.durationMs == b.durationMs && a.warmupMs == b.warmupMs);
    QVERIFY(a.walkersPerSecond == b.walkersPerSecond && a.execsPerSecond == b.execsPerSecond);
    QVERIFY(a.seedRates == b.seedRates && a.bandRates == b.bandRates);
    QCOMPARE(a.overload, b.overload);
    QCOMPARE(a.execs, b.execs);
    QCOMPARE(a.execsPerCopyMin, b.execsPerCopyMin);
    QCOMPARE(a.locks.size(), b.locks.size());
    for (std::size_t i = 0; i < a.locks.size(); ++i) {
        QCOMPARE(a.locks[i].name, b.locks[i].name);
        QCOMPARE(a.locks[i].file, b.locks[i].file);
        QVERIFY(a.locks[i].stats == b.locks[i].stats);
        QCOMPARE(a.locks[i].lineTransfers, b.locks[i].lineTransfers);
    }
    QCOMPARE(a.cpus.size(), b.cpus.size());
    for (std::size_t i = 0; i < a.cpus.size(); ++i) {
        const CpuResult &x = a.cpus[i], &y = b.cpus[i];
        QVERIFY(x.cpu == y.cpu && x.node == y.node && x.copies == y.copies);
        QVERIFY(x.workNs == y.workNs && x.waitNs == y.waitNs && x.holdNs == y.holdNs &&
                x.spinNs == y.spinNs);
    }
    QCOMPARE(a.files.size(), b.files.size());
    for (std::size_t i = 0; i < a.files.size(); ++i) {
        const FileResult &x = a.files[i], &y = b.files[i];
        QVERIFY(x.name == y.name && x.trees == y.trees && x.inserts == y.inserts &&
                x.removes == y.removes && x.finalVmas == y.finalVmas && x.heights == y.heights &&
                x.unlinkedVmas == y.unlinkedVmas);
    }
    QVERIFY(a.walks == b.walks && a.walksSkipped == b.walksSkipped);
    QVERIFY(a.walkVmasMean == b.walkVmasMean && a.walkerLatencyMeanNs == b.walkerLatencyMeanNs &&
            a.walkerLatencyP99Ns == b.walkerLatencyP99Ns);
    QVERIFY(a.memoryPerInodeBytes == b.memoryPerInodeBytes &&
            a.linkBytesPerVma == b.linkBytesPerVma);
    QVERIFY(a.lockHolds == b.lockHolds && a.treeOps == b.treeOps &&
            a.nodesPerTreeOp == b.nodesPerTreeOp);
    QVERIFY(a.cacheHits == b.cacheHits && a.cacheL1Hits == b.cacheL1Hits &&
            a.cacheTransfers == b.cacheTransfers && a.cacheMemoryReads == b.cacheMemoryReads &&
            a.cacheUpgrades == b.cacheUpgrades && a.lockLineTransfers == b.lockLineTransfers &&
            a.events == b.events);
    QCOMPARE(a.sharedLines.size(), b.sharedLines.size());
    for (std::size_t i = 0; i < a.sharedLines.size(); ++i) {
        const SharedLineResult &x = a.sharedLines[i], &y = b.sharedLines[i];
        QVERIFY(x.name == y.name && x.scope == y.scope && x.touches == y.touches &&
                x.transfers == y.transfers && x.delayNs == y.delayNs);
    }
    for (const CostParams::Info& i : CostParams::table())
        QVERIFY2(a.params.*(i.field) == b.params.*(i.field), i.name);
}

}  // namespace

class TestRunCache : public QObject {
    Q_OBJECT
private slots:
    // Each field of SimConfig changed in turn changes the key; the observer alone does not
    // (it decides nothing, and observed runs are never served). A field added to SimConfig
    // fails to compile in RunKey.cpp (structured bindings) until it is keyed.
    void everyFieldDecidesTheKey() {
        QCOMPARE(sizeof(CostParams), CostParams::table().size() * sizeof(double));
        const SimConfig c0 = base();
        const std::string k0 = RunKey::of(c0);
        QVERIFY(RunKey::wellFormed(k0));
        QCOMPARE(RunKey::of(base()), k0);  // the same config, the same key
        std::set<std::string> keys{k0};
        auto differs = [&](const char* what, const SimConfig& c) {
            const std::string k = RunKey::of(c);
            QVERIFY2(keys.insert(k).second, what);
        };
        const topology::Topology other =
            topology::Topology::fromSpec("synthetic:package:1 numa:2 core:2 pu:1");
        SimConfig c = c0;
        c.topology = &other;
        differs("topology", c);
        c = c0;
        mapping::Policy p;
        std::string error;
        QVERIFY(mapping::Policy::parse("split-locks", p, error));
        c.policy = p;
        differs("policy kind", c);
        QVERIFY(mapping::Policy::parse("sharded:2", p, error));
        c.policy = p;
        differs("policy sharded:2", c);
        QVERIFY(mapping::Policy::parse("sharded:4", p, error));
        c.policy = p;
        differs("policy cpus per shard", c);
        QVERIFY(mapping::Policy::parse("btree", p, error));
        c.policy = p;
        differs("policy structure", c);
        c = c0;
        c.copies = 3;
        differs("copies", c);
        c = c0;
        c.durationMs = 2.5;
        differs("duration", c);
        c = c0;
        c.seed = 2;
        differs("seed", c);
        c = c0;
        c.walkersPerSecond = 2001;
        differs("walkers", c);
        c = c0;
        c.unlinkBatch = 1;
        differs("unlink batch", c);
        c = c0;
        Recipe r = Recipe::builtinDefault();
        c.recipe = &r;
        QCOMPARE(RunKey::of(c), k0);  // the built-in recipe named or not: the same content
        r.sourceFile = "elsewhere.json";
        QCOMPARE(RunKey::of(c), k0);  // where it was read from decides nothing
        r.files[0].perCopy = !r.files[0].perCopy;
        differs("recipe file flag", c);
        r = Recipe::builtinDefault();
        r.steps.back().weight += 1;
        differs("recipe step weight", c);
        r = Recipe::builtinDefault();
        r.walkerFile = r.walkerFile == 0 ? 1 : 0;
        differs("recipe walker file", c);
        c = c0;
        SharedLineKind kind;
        kind.name = "extra";
        c.extraSharedLines.push_back({kind, 0, 1});
        differs("an extra shared line", c);
        c.extraSharedLines.back().touches = 2;
        differs("its touches", c);
        for (const CostParams::Info& i : CostParams::table()) {
            c = c0;
            c.params.*(i.field) = i.defaultValue == i.max ? i.min : i.max;
            differs(i.name, c);
        }
        // The observer sees events and decides nothing.
        struct Nobody : SimObserver {
            void onEvent(const SimEvent&) override {}
        } nobody;
        c = c0;
        c.observer = &nobody;
        QCOMPARE(RunKey::of(c), k0);
        // A model version bump changes every key.
        QVERIFY(RunKey::of(c0, kModelVersion + 1) != k0);
    }

    void resultsRoundTripExactly() {
        const SimResult r = Simulator(base()).run();
        QVERIFY(r.walks > 0 && !r.cpus.empty() && !r.locks.empty() && !r.sharedLines.empty());
        SimResult back;
        std::string error;
        QVERIFY2(ResultCodec::decode(ResultCodec::encode(r), back, error), error.c_str());
        compare(r, back);
        QCOMPARE(ResultCodec::encode(back), ResultCodec::encode(r));
        // Values JSON numbers cannot carry: past 2^53, infinities, thirds.
        SimResult odd = r;
        odd.seed = ~std::uint64_t{0};
        odd.events = (std::uint64_t{1} << 60) + 1;
        odd.walkerLatencyP99Ns = std::numeric_limits<double>::infinity();
        odd.execsPerSecond = 1.0 / 3.0;
        odd.seedRates = {0.1, 0.2 + 0.1};
        QVERIFY2(ResultCodec::decode(ResultCodec::encode(odd), back, error), error.c_str());
        compare(odd, back);
    }

    // The second run is served from disk, equal to the simulator's; a bumped model version
    // does not see the old entry.
    void servesWhatTheSimulatorGives() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        const SimResult fresh = Simulator(base()).run();
        RunCache a(d);
        compare(a.run(base()), fresh);
        QCOMPARE(a.counts().misses, 1u);
        RunCache b(d);
        compare(b.run(base()), fresh);
        QCOMPARE(b.counts().diskHits, 1u);
        QCOMPARE(b.counts().misses, 0u);
        RunCache bumped(d, RunCache::kDefaultCapBytes, kModelVersion + 1);
        bumped.run(base());
        QCOMPARE(bumped.counts().diskHits, 0u);
        QCOMPARE(bumped.counts().misses, 1u);
        // A sweep through the cache gives what one without it gives.
        SweepConfig s = testing::smallSweep({1, 2}, 2);
        s.bands = 2;
        const std::string plain = Sweep::toJson(Sweep::run(s));
        s.cache = &a;
        QCOMPARE(Sweep::toJson(Sweep::run(s)), plain);  // filling
        QCOMPARE(Sweep::toJson(Sweep::run(s)), plain);  // served
    }

    // One machine read from two paths (two clones of the repository, a workshop baked in one
    // and opened in the other) is one key, and the served result names the machine as the
    // asking run does: what a fresh simulation under that name reports.
    void theMachineIsKeyedByContentNotByPath() {
        const std::string xml =
            topology::Topology::fromSpec("synthetic:package:2 numa:1 core:2 pu:1").toXml();
        const topology::Topology here = topology::Topology::fromXmlString(xml, "/a/machine.xml");
        const topology::Topology there = topology::Topology::fromXmlString(xml, "/b/machine.xml");
        QVERIFY(here.spec() != there.spec());
        SimConfig onHere = base(), onThere = base();
        onHere.topology = &here;
        onThere.topology = &there;
        QCOMPARE(RunKey::of(onThere), RunKey::of(onHere));
        QTemporaryDir dir;
        RunCache cache(dir.path().toStdString());
        cache.run(onHere);
        const SimResult served = cache.run(onThere);
        QCOMPARE(cache.counts().misses, 1u);
        compare(served, Simulator(onThere).run());
        QCOMPARE(served.topology, there.spec());
    }

    void badEntriesAreIgnoredAndRewritten() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        const SimResult fresh = Simulator(base()).run();
        RunCache cache(d);
        cache.run(base());
        const std::string path = cache.entryPath(RunKey::of(base()));
        const std::string good = fileText(path);
        const SimConfig other = [] {
            SimConfig c = base();
            c.seed = 9;
            return c;
        }();
        const std::string otherEntry =
            RunCache::entryText(RunKey::of(other), Simulator(other).run());
        std::string flipped = good;
        flipped[flipped.size() - 20] ^= 1;
        std::uint64_t rejected = 0;
        for (const std::string& bad : {good.substr(0, good.size() - 7), good.substr(0, 40), flipped,
                                       otherEntry, std::string()}) {
            writeText(path, bad);
            compare(cache.run(base()), fresh);
            QCOMPARE(cache.counts().rejected, ++rejected);
            QCOMPARE(fileText(path), good);  // rewritten whole
        }
    }

    // Past the cap, the least recently used go: a hit refreshes an entry's place.
    void evictsTheLeastRecentlyUsed() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        std::vector<SimConfig> configs;
        for (std::uint64_t s = 1; s <= 5; ++s) {
            SimConfig c = base();
            c.seed = s;
            configs.push_back(c);
        }
        RunCache fill(d, ~std::uint64_t{0});
        for (const SimConfig& c : configs)
            fill.run(c);
        const auto now = fs::file_time_type::clock::now();
        std::uint64_t each = 0;
        for (std::size_t i = 0; i < configs.size(); ++i) {
            const std::string p = fill.entryPath(RunKey::of(configs[i]));
            fs::last_write_time(p, now - std::chrono::hours(10 - i));  // 0 oldest
            each = std::max<std::uint64_t>(each, fs::file_size(p));
        }
        // Room for three (and the 90% trim target keeps three).
        RunCache cache(d, each * 3 + each / 2);
        cache.run(configs[0]);  // a hit: 0 is now the most recent
        QCOMPARE(cache.counts().diskHits, 1u);
        cache.trim();
        QCOMPARE(cache.counts().evicted, 2u);
        for (std::size_t i : {0, 3, 4})
            QVERIFY(fs::exists(cache.entryPath(RunKey::of(configs[i]))));
        for (std::size_t i : {1, 2})
            QVERIFY(!fs::exists(cache.entryPath(RunKey::of(configs[i]))));
    }

    // Two writers (as two processes: separate caches on one directory) fill the same entries
    // at once: both get the simulator's results, and the entries read back whole.
    void concurrentWritersAgree() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        SweepConfig s = testing::smallSweep({1, 2, 3, 4}, 2);
        s.threads = 1;
        const std::string plain = Sweep::toJson(Sweep::run(s));
        std::string outA, outB;
        std::thread a([&] {
            RunCache c(d);
            SweepConfig x = s;
            x.cache = &c;
            outA = Sweep::toJson(Sweep::run(x));
        });
        std::thread b([&] {
            RunCache c(d);
            SweepConfig x = s;
            x.cache = &c;
            outB = Sweep::toJson(Sweep::run(x));
        });
        a.join();
        b.join();
        QCOMPARE(outA, plain);
        QCOMPARE(outB, plain);
        RunCache reader(d);
        s.cache = &reader;
        QCOMPARE(Sweep::toJson(Sweep::run(s)), plain);
        QCOMPARE(reader.counts().misses, 0u);
        QCOMPARE(reader.counts().rejected, 0u);
        for (const auto& e : fs::directory_iterator(d))
            QVERIFY2(!e.path().filename().string().starts_with("."), "a temporary was left");
    }
};

IMMAP_TEST_SUITE(TestRunCache);
#include "TestRunCache.moc"
