// The live driver: two policies in lockstep on one clock; step handles exactly one simulator
// event; pause stops simulated time; cancel stops everything; the slow-down maps wall time to
// simulated time; the running execs/s converges to what Simulator::run() reports; two policies
// on the same seed place the copies on the same CPUs; lanes and queues agree with each other.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <set>

#include "Suites.h"
#include "itree/InvariantChecker.h"
#include "live/LiveDriver.h"
#include "topology/Topology.h"

using namespace immap;
using namespace immap::live;

namespace {

const topology::Topology& twoNodes() {
    static const topology::Topology t =
        topology::Topology::fromSpec("synthetic:package:1 numa:2 core:4 pu:1");
    return t;
}

const topology::Topology& numa12() {
    static const topology::Topology t = topology::Topology::fromSpec(
        std::string("xml:") + IMMAP_SAMPLES + "/topologies/numa12-384cpu.xml");
    return t;
}

mapping::Policy policy(const char* text) {
    mapping::Policy p;
    std::string error;
    if (!mapping::Policy::parse(text, p, error)) qFatal("%s", error.c_str());
    return p;
}

LiveConfig config(const topology::Topology& topo, unsigned copies) {
    LiveConfig c;
    c.run.topology = &topo;
    c.policies = {policy("single"), policy("split-locks")};
    c.run.copies = copies;
    c.run.seed = 7;
    return c;
}

}  // namespace

class TestLiveDriver : public QObject {
    Q_OBJECT

private slots:
    void stepHandlesExactlyOneEvent() {
        LiveDriver d(config(twoNodes(), 8));
        d.advanceTo(200'000);  // into the run
        for (int i = 0; i < 50; ++i) {
            const sim::Time next =
                std::min(d.simulator(0).nextEventTime(), d.simulator(1).nextEventTime());
            const std::uint64_t a = d.simulator(0).eventsHandled();
            const std::uint64_t b = d.simulator(1).eventsHandled();
            QVERIFY(d.step());
            QCOMPARE(d.simulator(0).eventsHandled() + d.simulator(1).eventsHandled(), a + b + 1);
            QCOMPARE(d.now(), std::max<sim::Time>(next, 200'000));
        }
    }

    // Each step's captions belong to the run that stepped, start with its event's CPU, name
    // only locks the simulator has, and are gone once the clock moves on. The simulated
    // execs take the lock to map and to split (the recipe's mmap and mprotect calls).
    void stepCaptionsFollowTheSteppingRun() {
        LiveDriver d(config(twoNodes(), 8));
        d.advanceTo(200'000);
        bool map = false, split = false;
        int quiet = 0;
        for (int i = 0; i < 3000; ++i) {
            const std::uint64_t a = d.simulator(0).eventsHandled();
            QVERIFY(d.step());
            const int ran = d.simulator(0).eventsHandled() > a ? 0 : 1;
            const LiveSnapshot s = d.snapshot(false);
            QVERIFY(s.runs[static_cast<std::size_t>(1 - ran)].stepped.empty());
            if (s.runs[static_cast<std::size_t>(ran)].stepped.empty()) {
                ++quiet;  // the simulator's own bookkeeping: nothing to show
                continue;
            }
            const std::string& first = s.runs[static_cast<std::size_t>(ran)].stepped.front();
            QVERIFY2(first.rfind("CPU ", 0) == 0 || first.rfind("walker ", 0) == 0 ||
                         first.rfind("The warm-up", 0) == 0,
                     first.c_str());
            for (const std::string& c : s.runs[static_cast<std::size_t>(ran)].stepped) {
                const auto names = d.simulator(static_cast<std::size_t>(ran)).lockNames();
                if (c.find(" acquires ") != std::string::npos)
                    QVERIFY2(std::any_of(names.begin(), names.end(),
                                         [&](const std::string& n) {
                                             return c.find(" acquires " + n + " (") !=
                                                    std::string::npos;
                                         }),
                             c.c_str());
                map = map || c.find("to map a new VMA (vma_link_file)") != std::string::npos;
                split = split || c.find("for a split (__split_vma") != std::string::npos;
            }
        }
        QVERIFY(map);
        QVERIFY(split);
        QVERIFY(quiet < 3000);
        // stepVisible runs through the quiet events: one run has captions after each.
        for (int i = 0; i < 200; ++i) {
            const std::uint64_t before = d.eventsHandled();
            QVERIFY(d.stepVisible());
            QVERIFY(d.eventsHandled() > before);
            int withCaptions = 0;
            for (const RunSnapshot& r : d.snapshot(false).runs)
                withCaptions += !r.stepped.empty();
            QCOMPARE(withCaptions, 1);
        }
        d.advanceTo(d.now() + 1000);
        for (const RunSnapshot& r : d.snapshot(false).runs)
            QVERIFY(r.stepped.empty());
    }

    // The snapshot's warm-up is the simulator's: while it lasts the run's end is not fixed
    // (far beyond the live duration); once it is over, the end is at most the duration away.
    void warmUpIsTheSimulatorsWarmUp() {
        LiveDriver d(config(twoNodes(), 8));
        const sim::Time duration = static_cast<sim::Time>(LiveConfig::kLiveDurationMs * 1e6);
        bool sawWarm = false, sawMeasured = false;
        for (sim::Time t = 0; t <= 200'000'000 && !sawMeasured; t += 500'000) {
            d.advanceTo(t);
            const LiveSnapshot s = d.snapshot(false);
            for (std::size_t i = 0; i < 2; ++i) {
                const bool measured = d.simulator(i).endTime() <= d.now() + duration;
                QCOMPARE(s.runs[i].warmingUp, !measured);
            }
            sawWarm = sawWarm || s.runs[0].warmingUp;
            sawMeasured = !s.runs[0].warmingUp && !s.runs[1].warmingUp;
        }
        QVERIFY(sawWarm);
        QVERIFY(sawMeasured);
    }

    void pauseStopsSimulatedTime() {
        LiveDriver d(config(twoNodes(), 8));
        d.setSlowdown(1000);  // 1 ms of wall time = 1 us simulated
        QCOMPARE(d.tick(0.001), sim::Time{1000});
        QCOMPARE(d.now(), sim::Time{1000});
        d.pause();
        const std::uint64_t events = d.eventsHandled();
        QCOMPARE(d.tick(5.0), sim::Time{0});
        QCOMPARE(d.now(), sim::Time{1000});
        QCOMPARE(d.eventsHandled(), events);
        QVERIFY(d.snapshot(false).paused);
        QVERIFY(d.step());  // stepping works while paused
        QCOMPARE(d.eventsHandled(), events + 1);
        d.resume();
        const sim::Time before = d.now();
        QCOMPARE(d.tick(0.002), sim::Time{2000});
        QCOMPARE(d.now(), before + 2000);
    }

    void slowdownIsClampedAndAccumulates() {
        LiveDriver d(config(twoNodes(), 2));
        d.setSlowdown(0.5);
        QCOMPARE(d.slowdown(), 1.0);
        d.setSlowdown(1e9);
        QCOMPARE(d.slowdown(), 1e6);
        // At 1,000,000x a 0.3 ms tick is 0.3 ns: nothing until the pieces add up to 1 ns.
        QCOMPARE(d.tick(0.0003), sim::Time{0});
        QCOMPARE(d.tick(0.0003), sim::Time{0});
        QCOMPARE(d.tick(0.0004), sim::Time{1});
    }

    void cancelStopsEverything() {
        LiveDriver d(config(twoNodes(), 8));
        d.tick(0.01);
        d.cancel();
        const std::uint64_t events = d.eventsHandled();
        QCOMPARE(d.tick(1.0), sim::Time{0});
        QVERIFY(!d.step());
        QCOMPARE(d.eventsHandled(), events);
        QVERIFY(d.snapshot(false).cancelled);
    }

    void keepGoingCutsATickShort() {
        LiveDriver d(config(twoNodes(), 8));
        int asked = 0;
        const sim::Time moved = d.advanceTo(1'000'000, [&] { return ++asked < 3; });
        QCOMPARE(asked, 3);
        QVERIFY(moved > 0 && moved < 1'000'000);
        QCOMPARE(d.now(), moved);
    }

    // Both runs stop at the shared clock: nothing after it handled, nothing before it left.
    void runsAdvanceInLockstep() {
        LiveDriver d(config(twoNodes(), 8));
        d.advanceTo(3'000'000);
        for (std::size_t i = 0; i < 2; ++i) {
            QVERIFY(d.simulator(i).now() <= d.now());
            QVERIFY(d.simulator(i).nextEventTime() > d.now());
            QVERIFY(d.simulator(i).eventsHandled() > 100);
        }
    }

    // The sliding window set to the measured window: at the run's end the running rate counts
    // the window's execs over its length; the simulator reports (per copy) completions between
    // first and last over that span. They differ by window-edge rounding, under 1 exec per copy:
    // held to 5% here (some 40 execs per copy in the window).
    void runningRateConvergesToTheRun() {
        LiveConfig c = config(twoNodes(), 8);
        c.run.durationMs = 40;
        c.rateWindow = 40'000'000;
        LiveDriver d(c);
        // Go to the end of the measured window of the first run.
        while (!d.finished() && d.simulator(0).endTime() > d.now() + 1'000'000'000)
            d.advanceTo(d.now() + 5'000'000);
        d.advanceTo(d.simulator(0).endTime());
        const LiveSnapshot snap = d.snapshot(false);

        for (std::size_t i = 0; i < 2; ++i) {
            sim::SimConfig sc = c.run;
            sc.policy = c.policies[i];
            const sim::SimResult r = sim::Simulator(sc).run();
            const double live = d.state(i).execsPerSecond(d.simulator(i).endTime());
            QVERIFY2(r.execsPerSecond > 0, "the run completed no execs");
            qInfo("%s: live %.0f execs/s, Simulator::run() %.0f execs/s", r.policy.c_str(), live,
                  r.execsPerSecond);
            QVERIFY2(std::abs(live - r.execsPerSecond) / r.execsPerSecond < 0.05,
                     qPrintable(QStringLiteral("%1: live %2/s, run %3/s")
                                    .arg(QString::fromStdString(r.policy))
                                    .arg(live)
                                    .arg(r.execsPerSecond)));
        }
        QVERIFY(snap.runs[0].execs > 0);
    }

    // Same seed, recipe and copies: the copies land on the same CPUs under both policies, so the
    // lanes line up side by side; on the 12-node sample they spread round robin over nodes.
    void samePlacementUnderBothPolicies() {
        LiveDriver d(config(numa12(), 384));
        const auto& a = d.state(0).header().copyCpus;
        const auto& b = d.state(1).header().copyCpus;
        QCOMPARE(a.size(), std::size_t{384});
        QCOMPARE(a, b);
        QCOMPARE(std::set<unsigned>(a.begin(), a.end()).size(), std::size_t{384});
        const LiveSnapshot s = d.snapshot(false);
        QCOMPARE(s.runs[0].lanes.size(), std::size_t{384});
        for (std::size_t i = 0; i < 384; ++i)
            QCOMPARE(s.runs[0].lanes[i].cpu, s.runs[1].lanes[i].cpu);
        // Grouped by node: 32 lanes per node, nodes in order.
        for (std::size_t i = 0; i < 384; ++i)
            QCOMPARE(s.runs[0].lanes[i].node, static_cast<int>(i / 32));
        QCOMPARE(s.runs[1].locks.size(), std::size_t{4 * 12});  // a lock per node per recipe file
    }

    // The trees rebuilt from the events are the simulator's: per file the same VMA count, per
    // tree the same height (what Simulator::result() reads off its own trees).
    void treesMirrorTheSimulator() {
        LiveDriver d(config(numa12(), 96));
        d.advanceTo(3'000'000);
        for (std::size_t i = 0; i < 2; ++i) {
            const sim::SimResult r = d.simulator(i).result();
            std::size_t total = 0;
            for (std::size_t f = 0; f < r.files.size(); ++f) {
                std::size_t vmas = 0;
                QCOMPARE(d.state(i).treeCount(static_cast<int>(f)), r.files[f].heights.size());
                for (std::size_t t = 0; t < r.files[f].heights.size(); ++t) {
                    const itree::IntervalTree* tree =
                        d.state(i).tree(static_cast<int>(f), static_cast<int>(t));
                    QVERIFY(tree);
                    vmas += tree->size();
                    QCOMPARE(itree::InvariantChecker::check(*tree).shape.height,
                             r.files[f].heights[t]);
                }
                QCOMPARE(vmas, static_cast<std::size_t>(r.files[f].finalVmas));
                total += vmas;
            }
            QCOMPARE(d.state(i).liveVmas(), total);
            QVERIFY2(d.state(i).error().empty(), d.state(i).error().c_str());
        }
    }

    // On a real contended run, every waiting lane is in its lock's queue and every holding
    // lane among its holders; a write-held lock has exactly one holder.
    void lanesAndQueuesAgree() {
        LiveDriver d(config(numa12(), 384));
        d.advanceTo(2'000'000);
        const LiveSnapshot s = d.snapshot(true);
        for (const RunSnapshot& r : s.runs) {
            QVERIFY2(r.error.empty(), r.error.c_str());
            std::size_t waiting = 0, queued = 0;
            for (const Lane& l : r.lanes) {
                if (l.state == LaneState::Working) continue;
                const LockQueue& q = r.locks[static_cast<std::size_t>(l.lock)];
                const auto& list = l.state == LaneState::Waiting ? q.waiting : q.holders;
                QVERIFY(std::any_of(list.begin(), list.end(), [&](const QueueEntry& e) {
                    return e.cpu == static_cast<int>(l.cpu);
                }));
                waiting += l.state == LaneState::Waiting;
            }
            for (const LockQueue& q : r.locks) {
                queued += q.waiting.size();
                if (!q.holders.empty() && !q.holders.front().read)
                    QCOMPARE(q.holders.size(), std::size_t{1});
            }
            QCOMPARE(waiting, queued);  // one copy per CPU here, no walkers
            QVERIFY2(waiting > 0, "384 copies on libc's single lock must queue");
            QVERIFY(r.tree && !r.tree->nodes.empty());
        }
        QCOMPARE(s.runs[0].treeVmas, s.runs[0].tree->nodes.size());
    }
};

IMMAP_TEST_SUITE(TestLiveDriver);
#include "TestLiveDriver.moc"
