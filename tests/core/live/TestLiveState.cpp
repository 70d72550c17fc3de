// LiveState fed a hand-written event sequence: who works, waits (for which lock, read or
// write) and holds; each lock's holders and queue in arrival order; lanes merged per CPU and
// grouped by node; the running execs/s over its window; the chosen tree as the inserts left it.
#include <QTest>

#include "Suites.h"
#include "live/LiveState.h"

using namespace immap;
using namespace immap::live;
using sim::SimEvent;

namespace {

trace::TraceHeader header() {
    trace::TraceHeader h;
    h.source = "test";
    h.policy = "single";
    h.copies = 3;
    h.files = {"libc.so.6", "ld-linux-x86-64.so.2"};
    h.treesPerFile = 1;
    h.copyCpus = {40, 5, 5};  // copies 1 and 2 share CPU 5
    h.copyNodes = {1, 0, 0};
    h.locks = {{"libc.so.6", 0}, {"ld-linux-x86-64.so.2", 1}};
    h.durationMs = 1;
    return h;
}

SimEvent ev(sim::Time t, SimEvent::Kind k, int agent, int lock = -1, bool read = false) {
    static const int cpus[] = {40, 5, 5};
    SimEvent e;
    e.time = t;
    e.kind = k;
    e.agent = agent;
    e.cpu = agent >= 0 && agent < 3 ? cpus[agent] : 0;  // set-up events have agent -1
    e.lock = lock;
    e.file = lock;
    e.mode = read ? 1 : 0;
    return e;
}

SimEvent insert(sim::Time t, int agent, std::uint32_t vma, std::uint64_t start,
                std::uint64_t last) {
    SimEvent e = ev(t, SimEvent::TreeInsert, agent);
    e.file = 0;
    e.tree = 0;
    e.home = 1;
    e.vma = vma;
    e.start = start;
    e.last = last;
    return e;
}

std::vector<int> agents(const std::vector<QueueEntry>& q) {
    std::vector<int> v;
    for (const QueueEntry& e : q)
        v.push_back(e.agent);
    return v;
}

}  // namespace

class TestLiveState : public QObject {
    Q_OBJECT

private slots:
    // A stepped event in words, checked by hand: who by CPU and node, which lock by name,
    // the mode, what for (the kernel call), and the queue it leaves; nothing while not
    // capturing; turning capture on again starts afresh.
    void stepCaptionsSayWhatRan() {
        LiveState s(header());
        SimEvent acquire = ev(10, SimEvent::LockAcquire, 0, 0);
        acquire.purpose = sim::Purpose::Split;
        s.onEvent(acquire);  // not captured
        QVERIFY(s.stepCaptions().empty());
        s.captureSteps(true);
        SimEvent wait = ev(20, SimEvent::LockWait, 1, 0);
        wait.spin = true;
        wait.purpose = sim::Purpose::Map;
        s.onEvent(wait);
        s.onEvent(ev(30, SimEvent::LockRelease, 0, 0));
        s.onEvent(insert(40, 0, 7, 100, 130));
        s.captureSteps(false);
        s.onEvent(ev(50, SimEvent::ExecEnd, 0));  // not captured
        const std::vector<std::string> want = {
            "CPU 5 (node 0) spins waiting for libc.so.6 (write) to map a new VMA "
            "(vma_link_file); 1 in line",
            "CPU 40 (node 1) releases libc.so.6; 1 waiting",
            "CPU 40 (node 1) inserts VMA 7 [100, 130] into libc.so.6 (home node 1)"};
        QCOMPARE(s.stepCaptions(), want);
        s.captureSteps(true);
        QVERIFY(s.stepCaptions().empty());
        SimEvent grant = ev(60, SimEvent::LockAcquire, 1, 0);
        grant.purpose = sim::Purpose::Split;
        s.onEvent(grant);
        QCOMPARE(s.stepCaptions().front(),
                 std::string("CPU 5 (node 0) acquires libc.so.6 (write) for a split "
                             "(__split_vma: vma_prepare); 0 waiting"));
        QCOMPARE(s.snapshot(60, false).stepped, s.stepCaptions());
    }

    // The warm-up: until the simulator's window-start event the snapshot says so.
    void warmUpUntilTheWindowStarts() {
        LiveState s(header());
        s.onEvent(ev(10, SimEvent::ExecEnd, 0));
        QVERIFY(s.snapshot(10, false).warmingUp);
        s.onEvent(ev(20, SimEvent::WindowStart, -1));
        QVERIFY(!s.snapshot(20, false).warmingUp);
    }

    void statesAndQueuesFollowTheEvents() {
        LiveState s(header());
        for (int a = 0; a < 3; ++a)
            s.onEvent(ev(0, SimEvent::ExecBegin, a));
        s.onEvent(ev(10, SimEvent::LockAcquire, 0, 0));  // copy 0 takes libc's lock at once
        s.onEvent(insert(10, 0, 1, 0, 3));
        s.onEvent(ev(11, SimEvent::LockWait, 2, 0));  // copy 2 queues first,
        s.onEvent(ev(12, SimEvent::LockWait, 1, 0));  // then copy 1
        QCOMPARE(s.laneOfCopy(0).state, LaneState::Holding);
        QCOMPARE(s.laneOfCopy(0).lock, 0);
        QCOMPARE(s.laneOfCopy(1).state, LaneState::Waiting);
        QCOMPARE(s.laneOfCopy(1).lock, 0);
        QCOMPARE(s.laneOfCopy(1).read, false);
        QCOMPARE(agents(s.lock(0).holders), std::vector<int>{0});
        QCOMPARE(agents(s.lock(0).waiting), (std::vector<int>{2, 1}));  // arrival order
        QVERIFY(s.lock(1).holders.empty());

        // The release hands the lock to the first in line; the second keeps waiting.
        s.onEvent(ev(20, SimEvent::LockRelease, 0, 0));
        s.onEvent(ev(20, SimEvent::LockAcquire, 2, 0));
        QCOMPARE(s.laneOfCopy(0).state, LaneState::Working);
        QCOMPARE(s.laneOfCopy(2).state, LaneState::Holding);
        QCOMPARE(agents(s.lock(0).holders), std::vector<int>{2});
        QCOMPARE(agents(s.lock(0).waiting), std::vector<int>{1});

        // A reader on ld's lock: holding, read mode.
        s.onEvent(ev(21, SimEvent::LockAcquire, 0, 1, true));
        QCOMPARE(s.laneOfCopy(0).state, LaneState::Holding);
        QCOMPARE(s.laneOfCopy(0).lock, 1);
        QCOMPARE(s.laneOfCopy(0).read, true);
        QVERIFY2(s.error().empty(), s.error().c_str());

        // Lanes: one per busy CPU, node 0 first; CPU 5 holds (copy 2) although copy 1 waits.
        RunSnapshot snap = s.snapshot(30, false);
        QCOMPARE(snap.lanes.size(), std::size_t{2});
        QCOMPARE(snap.lanes[0].cpu, 5u);
        QCOMPARE(snap.lanes[0].node, 0);
        QCOMPARE(snap.lanes[0].copies, 2);
        QCOMPARE(snap.lanes[0].state, LaneState::Holding);
        QCOMPARE(snap.lanes[1].cpu, 40u);
        QCOMPARE(snap.lanes[1].node, 1);
        QCOMPARE(snap.lanes[1].state, LaneState::Holding);
        QCOMPARE(snap.locks[0].name, std::string("libc.so.6"));
        QCOMPARE(agents(snap.locks[0].waiting), std::vector<int>{1});

        // Copy 2 lets go: CPU 5 now shows copy 1, which gets the lock.
        s.onEvent(ev(25, SimEvent::LockRelease, 2, 0));
        s.onEvent(ev(25, SimEvent::LockAcquire, 1, 0));
        s.onEvent(ev(26, SimEvent::LockRelease, 1, 0));
        snap = s.snapshot(30, false);
        QCOMPARE(snap.lanes[0].state, LaneState::Working);
        QVERIFY(snap.locks[0].holders.empty() && snap.locks[0].waiting.empty());
        QVERIFY2(s.error().empty(), s.error().c_str());
    }

    void eventsBeforeBeginAreKept() {
        LiveState s;
        s.onEvent(insert(0, -1, 1, 0, 3));  // a set-up insert, before the names are known
        s.onEvent(insert(0, -1, 2, 4, 9));
        s.begin(header());
        s.chooseTree("libc.so.6", 0);
        const RunSnapshot snap = s.snapshot(0, true);
        QVERIFY(snap.tree);
        QCOMPARE(snap.tree->nodes.size(), std::size_t{2});
        QCOMPARE(snap.tree->nodes[0].id, 1);  // in order: [0,3] then [4,9]
        QCOMPARE(snap.tree->nodes[1].id, 2);
        QCOMPARE(snap.tree->nodes[1].homeNode, 1);
        QCOMPARE(snap.treeVmas, std::size_t{2});
    }

    void treeRedrawnOnlyWhenChanged() {
        LiveState s(header());
        s.chooseTree("libc.so.6", 0);
        s.onEvent(insert(0, -1, 1, 0, 3));
        const RunSnapshot a = s.snapshot(0, true);
        const RunSnapshot b = s.snapshot(0, true);
        QCOMPARE(a.tree.get(), b.tree.get());  // nothing changed: the same drawing
        s.onEvent(insert(1, -1, 2, 8, 9));
        const RunSnapshot c = s.snapshot(1, true);
        QVERIFY(c.tree.get() != b.tree.get());
        QCOMPARE(c.tree->nodes.size(), std::size_t{2});
    }

    // Only VMAs in a tree are kept (a live run may last hours); a bad removal is reported.
    void removedVmasAreFreed() {
        LiveState s(header());
        s.onEvent(insert(0, -1, 1, 0, 3));
        s.onEvent(insert(0, -1, 2, 4, 9));
        QCOMPARE(s.liveVmas(), std::size_t{2});
        SimEvent r = insert(1, 0, 1, 0, 3);
        r.kind = SimEvent::TreeRemove;
        s.onEvent(r);
        QCOMPARE(s.liveVmas(), std::size_t{1});
        QCOMPARE(s.tree(0, 0)->size(), std::size_t{1});
        QVERIFY(s.error().empty());
        s.onEvent(r);  // again: it is no longer there
        QVERIFY(!s.error().empty());
    }

    // Agents past the copies (walkers) are hashed: an id of 2^30 is one entry, not a vector of
    // 2^30 states, and an id never seen reads as idle.
    void largeAgentIdsAreOneEntryEach() {
        LiveState s(header());
        s.onEvent(ev(10, SimEvent::LockAcquire, 0, 0));
        s.onEvent(ev(11, SimEvent::LockWait, 1 << 30, 0, true));
        QCOMPARE(s.agent(1 << 30).waiting, 0);
        QVERIFY(s.agent(1 << 30).waitRead);
        QCOMPARE(s.agent(5).waiting, -1);
        QCOMPARE(agents(s.lock(0).waiting), std::vector<int>{1 << 30});
        QVERIFY(s.error().empty());
    }

    // Window 100 ns: ends at 10, 50, 120, 130; at t = 130 the window (30, 130] holds three.
    void runningRateOverTheWindow() {
        LiveState s(header(), 100);
        for (sim::Time t : {10, 50, 120, 130}) {
            s.onEvent(ev(t, SimEvent::ExecBegin, 0));
            s.onEvent(ev(t, SimEvent::ExecEnd, 0));
        }
        QCOMPARE(s.execs(), std::uint64_t{4});
        QCOMPARE(s.execsPerSecond(130), 3e9 / 100);
        // At t = 60 (50 ns after the first event) the span is (10, 60]: only the end at 50.
        LiveState early(header(), 100);
        for (sim::Time t : {10, 50}) {
            early.onEvent(ev(t, SimEvent::ExecBegin, 0));
            early.onEvent(ev(t, SimEvent::ExecEnd, 0));
        }
        QCOMPARE(early.execsPerSecond(60), 1e9 / 50);
    }
};

IMMAP_TEST_SUITE(TestLiveState);
#include "TestLiveState.moc"
