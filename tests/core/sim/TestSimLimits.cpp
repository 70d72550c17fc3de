// What the simulator refuses before it starts (issue 15): parameters outside their ranges,
// subnormal costs, recipe weights that overflow the clock, a window too short for the copies;
// and its guard against a clock that stopped. Also the limits helpers' messages.
#include <QTest>
#include <new>
#include <stdexcept>

#include "Suites.h"
#include "limits/InputLimits.h"
#include "limits/LimitError.h"
#include "limits/MemoryBudget.h"
#include "limits/UserReason.h"
#include "sim/ResultMath.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

using namespace immap;

namespace {

const topology::Topology& numa12() {
    static const topology::Topology t =
        topology::Topology::fromSpec("synthetic:package:2 numa:6 core:16 pu:2;distances=10:12:32");
    return t;
}

std::string recipeJson(const std::string& steps) {
    return R"({"format": "immap-recipe", "version": 1, "name": "t", "walker_file": "f",
               "files": [{"name": "f", "background": false}], "steps": )" +
           steps + "}";
}

std::string refusal(const sim::SimConfig& cfg) {
    try {
        sim::Simulator::checkConfig(cfg);
    } catch (const limits::LimitError& e) {
        return e.what();
    }
    return {};
}

std::string reasonFor(const std::exception_ptr& e) {
    return limits::UserReason::of(e, "the test");
}

}  // namespace

class TestSimLimits : public QObject {
    Q_OBJECT

private slots:
    void parameterRanges() {
        sim::CostParams p;
        std::string error;
        QVERIFY(!p.setFromText("lock_atomic_ns=0", error));
        QVERIFY2(error.find("between 1 and 1000000") != std::string::npos, error.c_str());
        QVERIFY(!p.setFromText("lock_atomic_ns=0.4", error));
        QVERIFY(!p.setFromText("write_fraction=10", error));
        QVERIFY2(error.find("between 0 and 1 ") != std::string::npos, error.c_str());
        QVERIFY(!p.setFromText("unlocked_ns_per_exec=1e-320", error));
        QVERIFY2(error.find("too small") != std::string::npos, error.c_str());
        // Still valid: the calibration's "locked work only" run, and the bounds themselves.
        QVERIFY2(p.setFromText("unlocked_ns_per_exec=0", error), error.c_str());
        QVERIFY(p.setFromText("mem_local_ns=0", error));
        QVERIFY(p.setFromText("lock_atomic_ns=1", error));
        QVERIFY(p.setFromText("write_fraction=1", error));
        // Every default is inside its own range.
        for (const sim::CostParams::Info& i : sim::CostParams::table())
            QVERIFY2(i.defaultValue >= i.min && i.defaultValue <= i.max, i.name);
    }

    // Every parameter's plausible range (where its source puts it) lies inside what the model
    // accepts and holds the default; the shared lines' ranges are the ones their sources give.
    void plausibleRangesHoldTheDefaults() {
        for (const sim::CostParams::Info& i : sim::CostParams::table()) {
            QVERIFY2(i.min <= i.low && i.low <= i.defaultValue && i.defaultValue <= i.high &&
                         i.high <= i.max,
                     i.name);
            QCOMPARE(sim::CostParams{}.get(i.name), i.defaultValue);
        }
        auto range = [](const char* name) {
            for (const sim::CostParams::Info& i : sim::CostParams::table())
                if (std::string(name) == i.name) return std::make_pair(i.low, i.high);
            return std::make_pair(-1.0, -1.0);
        };
        QCOMPARE(range("pcpu_lock_lines"), std::make_pair(6.0, 30.0));
        QCOMPARE(range("smt_thread_share"), std::make_pair(0.5, 0.75));
        QCOMPARE(range("window_execs"), std::make_pair(20.0, 20.0));  // a setting
    }

    void configRefusedBeforeWork() {
        sim::SimConfig cfg;
        cfg.topology = &numa12();
        cfg.copies = 100000;
        cfg.durationMs = 1;
        cfg.params.windowMaxMs = 1;     // no longer wait for window_execs either
        cfg.params.clearSharedLines();  // the unlocked work alone (the next test adds the rest)
        // ceil(100000 / 384) = 261 copies per CPU, each exec at least 261 x 888 us.
        const std::string why = refusal(cfg);
        QVERIFY2(why.find("too short for 100000 copies on 384 CPUs") != std::string::npos,
                 why.c_str());
        QVERIFY2(why.find("at least 232 ms") != std::string::npos, why.c_str());
        cfg.durationMs = 232;
        QVERIFY2(refusal(cfg).empty(), refusal(cfg).c_str());
        cfg.copies = 384;
        cfg.durationMs = 1;  // one copy per CPU: 0.9 ms per exec fits
        QVERIFY2(refusal(cfg).empty(), refusal(cfg).c_str());
        cfg.copies = 100001;
        QVERIFY(refusal(cfg).find("copies must be from 1 to 100000") != std::string::npos);
        cfg.copies = 1;
        cfg.params.lockAtomicNs = 0;  // set directly, past CostParams::set: still checked
        QVERIFY(refusal(cfg).find("lock_atomic_ns") != std::string::npos);
        bool threw = false;
        try {
            sim::Simulator s(cfg);
        } catch (const limits::LimitError&) {
            threw = true;
        }
        QVERIFY(threw);
    }

    // The floor covers every cost that adds to an exec, not only unlocked_ns_per_exec. One copy
    // on 2 CPUs, a 1 ms window (window_max_ms too), unlocked work 0 and every shared line off
    // but the folios: a recipe file mapping P pages costs P x folio_touches_per_page (3) x
    // lock_atomic_ns (10) = 30 P ns per exec on its folios alone, so P = 40,000 (1.2 ms) must
    // be refused and P = 30,000 (0.9 ms, plus the default recipe's 33 holds of a few us) not.
    // Then the holds alone: tree_op_ns at 20,000 ns x the recipe's 66 operations is 1.32 ms.
    void windowFloorCoversEveryCostOfAnExec() {
        const topology::Topology two = topology::Topology::fromSpec("synthetic:pu:2");
        auto recipeWith = [](std::uint64_t pages) {
            sim::Recipe r = sim::Recipe::builtinDefault();
            for (sim::RecipeFile& f : r.files)
                f.mappedPages = 0;
            r.files[1].mappedPages = pages;
            return r;
        };
        sim::SimConfig cfg;
        cfg.topology = &two;
        cfg.durationMs = 1;
        cfg.params.windowMaxMs = 1;
        cfg.params.unlockedNsPerExec = 0;
        cfg.params.clearSharedLines();
        cfg.params.folioTouchesPerPage = 3;
        const sim::Recipe big = recipeWith(40'000), fits = recipeWith(30'000);
        cfg.recipe = &big;
        const std::string why = refusal(cfg);
        QVERIFY2(why.find("too short for 1 copies") != std::string::npos, why.c_str());
        QVERIFY2(why.find("1.2e+06 ns of shared-line atomics") != std::string::npos, why.c_str());
        cfg.recipe = &fits;
        QVERIFY2(refusal(cfg).empty(), refusal(cfg).c_str());
        cfg.recipe = nullptr;  // the default recipe, its folios off: the holds alone
        cfg.params.folioTouchesPerPage = 0;
        cfg.params.treeOpNs = 20'000;
        const std::string holds = refusal(cfg);
        QVERIFY2(holds.find("33 holds") != std::string::npos, holds.c_str());
        cfg.params.treeOpNs = 10'000;  // 0.66 ms and the holds' other costs: fits
        QVERIFY2(refusal(cfg).empty(), refusal(cfg).c_str());
        // The warm-up bound (the larger of warmup_ms and warmup_max_ms) asks for warmup_execs
        // (3) floors: 3 x 0.66 ms > 1 ms.
        cfg.params.warmupMs = 0;
        cfg.params.warmupMaxMs = 1;
        const std::string warm = refusal(cfg);
        QVERIFY2(warm.find("a warm-up of 1 ms is too short") != std::string::npos, warm.c_str());
        cfg.params.warmupMaxMs = 3;
        QVERIFY2(refusal(cfg).empty(), refusal(cfg).c_str());
    }

    // mapped_pages is pages of the file one exec maps: at most its 2^32-page region (it was
    // up to 2^53, whose atomics alone took months of simulated time per exec).
    // The walkers' reads within a run's bound, by hand: walkers_per_s x (warmup_max_ms +
    // window) x (background processes + copies). 1e4 walks/s over 1e6 processes for 10 s is
    // 1e11 VMA reads (a run that did not end in 300 s), refused; 1e6 walks/s over 998 + 2
    // processes is exactly 1e10, the bound, accepted.
    void walkersReadsWithinTheBound() {
        const topology::Topology two = topology::Topology::fromSpec("synthetic:pu:2");
        sim::SimConfig cfg;
        cfg.topology = &two;
        cfg.copies = 2;
        cfg.durationMs = 1;
        cfg.params.warmupMaxMs = 5000;
        cfg.params.windowMaxMs = 5000;
        cfg.walkersPerSecond = 1e4;
        cfg.params.backgroundProcesses = 1e6;
        const std::string why = refusal(cfg);
        QVERIFY2(why.find("read up to 1e+11 VMAs") != std::string::npos, why.c_str());
        cfg.walkersPerSecond = 1e6;
        cfg.params.backgroundProcesses = 998;
        QVERIFY2(refusal(cfg).empty(), refusal(cfg).c_str());
        cfg.params.backgroundProcesses = 999;
        QVERIFY(!refusal(cfg).empty());
    }

    void mappedPagesRange() {
        auto recipe = [](const std::string& pages) {
            return std::string(R"({"format": "immap-recipe", "version": 1, "walker_file": "f",
  "files": [{"name": "f", "mapped_pages": )") +
                   pages + R"(}],
  "steps": [{"op": "mmap", "file": "f", "at": 0, "pages": 1, "pgoff": 0, "prot": "r"},
            {"op": "work", "weight": 1}]})";
        };
        QCOMPARE(sim::Recipe::fromJson(recipe("4294967296"), "r.json").files[0].mappedPages,
                 std::uint64_t{1} << 32);
        for (const char* bad : {"4294967297", "9007199254740992"}) {
            try {
                sim::Recipe::fromJson(recipe(bad), "r.json");
                QFAIL(bad);
            } catch (const sim::RecipeError& e) {
                QVERIFY2(
                    std::string(e.what()).find("r.json:2:") != std::string::npos &&
                        std::string(e.what()).find("from 0 to 2^32 pages") != std::string::npos,
                    e.what());
            }
        }
    }

    void recipeWeights() {
        for (const char* steps :
             {R"([{"op": "work", "weight": 1e-320}])", R"([{"op": "work", "weight": 1e-7}])",
              R"([{"op": "work", "weight": 1e308}, {"op": "work", "weight": 1e308}])"}) {
            bool refused = false;
            try {
                sim::Recipe::fromJson(recipeJson(steps), "r.json");
            } catch (const sim::RecipeError& e) {
                refused =
                    std::string(e.what()).find("\"weight\" must be from") != std::string::npos;
            }
            QVERIFY2(refused, steps);
        }
        const sim::Recipe ok = sim::Recipe::fromJson(
            recipeJson(R"([{"op": "work", "weight": 0}, {"op": "work", "weight": 1e6}])"),
            "r.json");
        QCOMPARE(ok.totalWeight(), 1e6);
    }

    // Only work steps and no time for them: every exec is instant. The guard stops the run
    // with a reason instead of looping forever.
    void clockThatStopsIsCaught() {
        const sim::Recipe r =
            sim::Recipe::fromJson(recipeJson(R"([{"op": "work", "weight": 1}])"), "r.json");
        sim::SimConfig cfg;
        cfg.topology = &numa12();
        cfg.recipe = &r;
        cfg.copies = 2;
        cfg.params.unlockedNsPerExec = 0;
        cfg.params.clearSharedLines();  // they would take time
        sim::Simulator s(cfg);
        std::string why;
        try {
            s.run();
        } catch (const limits::LimitError& e) {
            why = e.what();
        }
        QVERIFY2(why.find("the simulation stopped advancing") != std::string::npos, why.c_str());
        // The bound: 1,000,000 + 1,000 per agent events at one instant, not many more.
        QVERIFY(s.eventsHandled() <= 1'000'000 + 1000 * 2 + 10);
        QVERIFY(s.now() <= 1);  // the copies start at 0 or 1 ns
    }

    // The same recipe with time per exec runs to its end.
    void workOnlyRecipeWithTimeRuns() {
        const sim::Recipe r =
            sim::Recipe::fromJson(recipeJson(R"([{"op": "work", "weight": 1}])"), "r.json");
        sim::SimConfig cfg;
        cfg.topology = &numa12();
        cfg.recipe = &r;
        cfg.copies = 2;
        cfg.durationMs = 10;
        cfg.params.unlockedNsPerExec = 1000;
        cfg.params.clearSharedLines();  // the work alone
        const sim::SimResult res = sim::Simulator(cfg).run();
        // Two copies on their own CPUs, 1 us per exec, for 10 ms: 2,000,000 execs/s.
        QVERIFY2(std::abs(res.execsPerSecond - 2e6) < 2e4,
                 qPrintable(QString::number(res.execsPerSecond)));
    }

    // A million copies on a few CPUs: grouped by CPU correctly (by hash, not a linear search).
    void cpuSplitOfManyCopies() {
        const sim::PhaseClock clock;
        std::vector<sim::CopyPlace> places;
        for (unsigned c = 0; c < 1'000'000; ++c)
            places.push_back({c % 1000, 0, &clock});
        const auto cpus = sim::cpuSplit(places, 10, 0, true);
        QCOMPARE(cpus.size(), std::size_t{1000});
        for (std::size_t i = 0; i < cpus.size(); ++i) {
            QCOMPARE(cpus[i].cpu, static_cast<unsigned>(i));
            QCOMPARE(cpus[i].copies, 1000u);
        }
    }

    void memoryEstimates() {
        QCOMPARE(limits::MemoryBudget::count(10'000'000), std::string("10,000,000"));
        QCOMPARE(limits::MemoryBudget::size(24.0 * (1ull << 30)), std::string("24 GiB"));
        QVERIFY(limits::MemoryBudget::physicalBytes() > (64ull << 20));
        std::string why;
        try {
            limits::MemoryBudget::require("10,000,000,000 processes", 1e18);
        } catch (const limits::LimitError& e) {
            why = e.what();
        }
        QVERIFY2(
            why.rfind("10,000,000,000 processes need about 888 PiB; this machine has ", 0) == 0,
            why.c_str());
        limits::MemoryBudget::require("a few bytes", 100);  // fits: no throw
    }

    void plainReasons() {
        const std::string mem = reasonFor(std::make_exception_ptr(std::bad_alloc()));
        QVERIFY2(mem.rfind("not enough memory for the test (this machine has ", 0) == 0,
                 mem.c_str());
        const std::string logic = reasonFor(std::make_exception_ptr(
            std::logic_error("RwSemModel::acquire: requester 0 already holds the lock")));
        QVERIFY2(logic.find("::") == std::string::npos, logic.c_str());
        QVERIFY2(logic.find("internal check failed") != std::string::npos, logic.c_str());
        const std::string inv = reasonFor(std::make_exception_ptr(
            std::invalid_argument("EventQueue::schedule: time -9 is before now 0")));
        QVERIFY2(inv.find("::") == std::string::npos, inv.c_str());
        // A message written for users passes as it is.
        const std::string plain =
            reasonFor(std::make_exception_ptr(std::runtime_error("f.json:3: no such step")));
        QCOMPARE(plain, std::string("f.json:3: no such step"));
        QVERIFY(reasonFor(std::make_exception_ptr(42)).find("internal") != std::string::npos);
    }

    void inputLimitsTable() {
        std::string error;
        QVERIFY(limits::InputLimits::check("copies", 100000, error));
        QVERIFY(!limits::InputLimits::check("copies", 0, error, "--copies"));
        QCOMPARE(error, std::string("--copies must be from 1 to 100000 copies"));
        QVERIFY(!limits::InputLimits::check("copies", std::nan(""), error));
        for (const auto& r : limits::InputLimits::table())
            QVERIFY2(r.min <= r.max, r.name);
    }
};

IMMAP_TEST_SUITE(TestSimLimits);
#include "TestSimLimits.moc"
