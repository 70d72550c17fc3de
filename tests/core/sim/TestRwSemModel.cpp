// RwSemModel against independent answers: exact grant lists on hand-built sequences (the
// rwsem_mark_wake rules; spinners stealing from sleepers until the handoff timeout), the
// stealing window's bound, the Pollaczek-Khinchine mean wait of an M/D/1 queue, Little's law,
// and utilisation recomputed from merged hold intervals.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "Suites.h"
#include "sim/EventQueue.h"
#include "sim/RwSemModel.h"

using namespace immap::sim;
using Mode = RwSemModel::Mode;
using Grant = RwSemModel::Grant;

namespace {

constexpr auto R = Mode::Read;
constexpr auto W = Mode::Write;

// "r1+90 r2+70": requester, mode, wait; a spinner's grant is marked "~" ("w3~80"), as it
// has no wake-up to pay; readable when a comparison fails.
QString describe(const std::vector<Grant>& grants) {
    QStringList parts;
    for (const Grant& g : grants)
        parts << QString("%1%2%3%4")
                     .arg(g.mode == R ? 'r' : 'w')
                     .arg(g.requester)
                     .arg(g.slept ? '+' : '~')
                     .arg(g.waited);
    return parts.join(' ');
}

constexpr bool kSpin = true;

// ---- A tiny simulator: Poisson arrivals, each a fresh requester, holding for a set time. ----

struct Workload {
    double meanInterarrival = 1000;  // ns, exponential
    double readFraction = 0;         // share of arrivals that are readers
    Time hold = 1000;                // ns
    bool exponentialHold = false;    // else every hold is exactly `hold`
    std::uint64_t warmup = 0;        // arrivals before the measurement window opens
    std::uint64_t measured = 0;      // arrivals inside the window
    bool drain = false;              // run until every hold ends (else stop at the last arrival)
    std::uint64_t seed = 1;
};

struct RunResult {
    RwSemModel::Stats stats;
    std::vector<std::pair<Time, Time>> holdIntervals;  // [grant, release), measured arrivals
    std::size_t maxHolders = 0;
    std::uint64_t grantDigest = 0;  // folds every grant's time, requester and wait
    std::vector<Time> waits;        // measured requesters' waits, for brute-force percentiles
    bool invariantsHeld = true;
};

enum Kind : std::uint32_t { kArrive, kRelease };

RunResult simulate(const Workload& w) {
    std::mt19937_64 rng(w.seed);
    std::exponential_distribution<double> gap(1.0 / w.meanInterarrival);
    std::exponential_distribution<double> holdDist(1.0 / static_cast<double>(w.hold));
    std::bernoulli_distribution isReader(w.readFraction);
    auto drawHold = [&] {
        return w.exponentialHold ? std::max<Time>(1, std::llround(holdDist(rng))) : w.hold;
    };

    EventQueue q;
    RwSemModel sem;
    RunResult r;
    std::unordered_map<std::uint64_t, Time> grantedAt;  // measured requesters only
    const std::uint64_t total = w.warmup + w.measured;
    std::uint64_t arrived = 0;
    Time lastArrival = 0;
    std::uint64_t pops = 0;

    auto onGranted = [&](Time now, std::uint64_t id, Time waited) {
        q.schedule(now + drawHold(), Event{0, kRelease, static_cast<std::uint32_t>(id), 0});
        if (id >= w.warmup) {
            grantedAt[id] = now;
            r.waits.push_back(waited);
        }
        r.grantDigest = (r.grantDigest ^ static_cast<std::uint64_t>(now)) * 0x100000001b3ULL;
        r.grantDigest =
            (r.grantDigest ^ (id << 20) ^ static_cast<std::uint64_t>(waited)) * 0x100000001b3ULL;
    };
    q.schedule(0, Event{0, kArrive, 0, 0});
    while (!q.empty()) {
        if (!w.drain && arrived == total && q.nextTime() > lastArrival) break;
        const Event e = q.pop();
        const Time now = e.time;
        if (e.kind == kArrive) {
            const std::uint64_t id = arrived++;
            lastArrival = now;
            if (id == w.warmup) sem.resetStats(now);
            if (sem.acquire(now, id, isReader(rng) ? R : W)) onGranted(now, id, 0);
            if (arrived < total) q.schedule(now + std::llround(gap(rng)), Event{0, kArrive, 0, 0});
        } else {
            for (const Grant& g : sem.release(now, e.target))
                onGranted(now, g.requester, g.waited);
            if (auto it = grantedAt.find(e.target); it != grantedAt.end()) {
                r.holdIntervals.emplace_back(it->second, now);
                grantedAt.erase(it);
            }
        }
        r.maxHolders = std::max(r.maxHolders, sem.holders());
        // A writer holds alone; nobody waits at a free lock.
        if ((sem.writeLocked() && sem.holders() != 1) || (sem.waiters() > 0 && sem.holders() == 0))
            r.invariantsHeld = false;
        if (++pops % 1024 == 0) {
            const double u = sem.utilisation(now);
            if (u < 0 || u > 1) r.invariantsHeld = false;
        }
    }
    r.stats = sem.stats(w.drain ? q.now() : lastArrival);
    return r;
}

// Pollaczek-Khinchine mean wait in queue for M/D/1: rho*S / (2*(1-rho)).
double mD1Wait(double rho, double service) {
    return rho * service / (2 * (1 - rho));
}

double relErr(double got, double want) {
    return std::abs(got - want) / want;
}

// The stats' wait summary against the waits themselves: exact count, mean and max; p50 and
// p99 within WaitHistogram's bound of the exact nearest rank (|got - exact| <= exact / 128).
void checkWaitsAgainstBruteForce(const RunResult& r) {
    std::vector<Time> sorted = r.waits;
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(r.stats.grants, static_cast<std::uint64_t>(sorted.size()));
    QVERIFY(!sorted.empty());
    QCOMPARE(r.stats.maxWait, sorted.back());
    long double sum = 0;
    for (Time v : sorted)
        sum += static_cast<long double>(v);
    QVERIFY(relErr(r.stats.meanWait, static_cast<double>(sum / sorted.size())) < 1e-12);
    for (const auto& [percent, got] : {std::pair{50u, r.stats.p50Wait}, {99u, r.stats.p99Wait}}) {
        const std::size_t rank = std::max<std::size_t>(1, (percent * sorted.size() + 99) / 100);
        const Time exact = sorted[rank - 1];
        QVERIFY2(std::abs(got - exact) * 128 <= exact,
                 qPrintable(QString("p%1 %2, exact %3").arg(percent).arg(got).arg(exact)));
    }
}

}  // namespace

class TestRwSemModel : public QObject {
    Q_OBJECT

private slots:
    // ---- Hand-built sequences: exact grants and waits. ----

    void readerBatchSkipsQueuedWriter() {
        RwSemModel s;
        QVERIFY(s.acquire(0, 1, W));     // W1 holds
        QVERIFY(!s.acquire(10, 11, R));  // R1
        QVERIFY(!s.acquire(20, 2, W));   // W2
        QVERIFY(!s.acquire(30, 12, R));  // R2
        QVERIFY(!s.acquire(40, 13, R));  // R3
        QCOMPARE(s.waiters(), std::size_t{4});
        // The first waiter is a reader: every queued reader goes, W2 keeps its place.
        QCOMPARE(describe(s.release(100, 1)), QString("r11+90 r12+70 r13+60"));
        QCOMPARE(s.readers(), std::size_t{3});
        QCOMPARE(s.waiters(), std::size_t{1});
        QCOMPARE(describe(s.release(150, 11)), QString());
        QCOMPARE(describe(s.release(160, 13)), QString());
        QCOMPARE(describe(s.release(170, 12)), QString("w2+150"));
        QVERIFY(s.writeLocked());
        QCOMPARE(describe(s.release(200, 2)), QString());
        QCOMPARE(s.holders(), std::size_t{0});
    }

    void writersAreGrantedOneAtATimeInFifoOrder() {
        RwSemModel s;
        QVERIFY(s.acquire(0, 1, W));
        QVERIFY(!s.acquire(5, 3, W));
        QVERIFY(!s.acquire(6, 2, W));
        QVERIFY(!s.acquire(7, 4, R));
        QCOMPARE(describe(s.release(10, 1)), QString("w3+5"));
        QCOMPARE(describe(s.release(20, 3)), QString("w2+14"));
        QCOMPARE(describe(s.release(30, 2)), QString("r4+23"));
        QCOMPARE(describe(s.release(31, 4)), QString());
    }

    void readersShareUntilSomeoneWaits() {
        RwSemModel s;
        QVERIFY(s.acquire(0, 1, R));
        QVERIFY(s.acquire(1, 2, R));  // only readers hold, nobody waits: at once
        QCOMPARE(s.readers(), std::size_t{2});
        QVERIFY(!s.acquire(2, 9, W));
        QVERIFY(!s.acquire(3, 3, R));  // a writer waits: this reader queues behind it
        QCOMPARE(describe(s.release(10, 1)), QString());  // R2 still holds
        QCOMPARE(describe(s.release(12, 2)), QString("w9+10"));
        QVERIFY(!s.acquire(13, 4, R));
        QCOMPARE(describe(s.release(20, 9)), QString("r3+17 r4+7"));
    }

    void writerFirstThenReaderBatchThenWriter() {
        RwSemModel s;
        QVERIFY(s.acquire(0, 100, R));
        QVERIFY(!s.acquire(1, 1, W));
        QVERIFY(!s.acquire(2, 201, R));
        QVERIFY(!s.acquire(3, 2, W));
        QVERIFY(!s.acquire(4, 202, R));
        QCOMPARE(describe(s.release(10, 100)), QString("w1+9"));
        QCOMPARE(describe(s.release(20, 1)), QString("r201+18 r202+16"));
        QCOMPARE(describe(s.release(25, 202)), QString());
        QCOMPARE(describe(s.release(30, 201)), QString("w2+27"));
    }

    void readerBatchIsCappedAt256() {
        RwSemModel s;
        QVERIFY(s.acquire(0, 0, W));
        for (std::uint64_t i = 1; i <= 300; ++i)
            QVERIFY(!s.acquire(static_cast<Time>(i), i, R));
        const auto first = s.release(1000, 0);
        QCOMPARE(first.size(), RwSemModel::kMaxReadersWakeup);
        for (std::size_t k = 0; k < first.size(); ++k) {
            QCOMPARE(first[k].requester, std::uint64_t{k + 1});
            QCOMPARE(first[k].waited, static_cast<Time>(1000 - (k + 1)));
        }
        QCOMPARE(s.waiters(), std::size_t{44});
        // The rest go when the batch has left, not before.
        for (std::uint64_t i = 1; i < 256; ++i)
            QVERIFY(s.release(2000, i).empty());
        const auto second = s.release(2000, 256);
        QCOMPARE(second.size(), std::size_t{44});
        QCOMPARE(second.front().requester, std::uint64_t{257});
        QCOMPARE(second.back().waited, Time{2000 - 300});
    }

    // ---- Spinners and sleepers (rwsem_optimistic_spin, the HANDOFF bit). ----

    // A spinner takes the free lock ahead of sleepers that have waited less than the timeout,
    // writer or reader; with nobody spinning the first sleeper gets it, FIFO.
    void spinnerStealsFromAYoungSleeper() {
        RwSemModel s(0, 1000);
        QVERIFY(s.acquire(0, 1, W));
        QVERIFY(!s.acquire(10, 2, W));         // sleeps
        QVERIFY(!s.acquire(20, 3, W, kSpin));  // spins
        QVERIFY(!s.acquire(30, 4, R));
        QCOMPARE(s.spinners(), std::size_t{1});
        QCOMPARE(s.sleepers(), std::size_t{2});
        QCOMPARE(s.waiters(), std::size_t{3});
        QCOMPARE(s.osqHead(), RwSemModel::RequesterId{3});
        QCOMPARE(describe(s.release(100, 1)), QString("w3~80"));  // W2 waited 90 < 1000
        QVERIFY(!s.acquire(110, 5, W, kSpin));
        QCOMPARE(describe(s.release(200, 3)), QString("w5~90"));  // W2 waited 190
        QCOMPARE(describe(s.release(300, 5)), QString("w2+290"));
        QCOMPARE(describe(s.release(400, 2)), QString("r4+370"));
        // The first sleeper a reader: stolen from the same way.
        RwSemModel t(0, 1000);
        QVERIFY(t.acquire(0, 1, W));
        QVERIFY(!t.acquire(10, 2, R));
        QVERIFY(!t.acquire(20, 3, W, kSpin));
        QCOMPARE(describe(t.release(100, 1)), QString("w3~80"));
        QCOMPARE(describe(t.release(200, 3)), QString("r2+190"));
    }

    // W2 sleeps from 10, so from 1010 on it has waited the timeout: a release before that goes
    // to a spinner, the release at 1010 to W2, and the spinner present then keeps spinning.
    void timedOutSleeperGetsTheLockNotTheSpinner() {
        RwSemModel s(0, 1000);
        QVERIFY(s.acquire(0, 1, W));
        QVERIFY(!s.acquire(10, 2, W));
        QVERIFY(!s.acquire(20, 3, W, kSpin));
        QCOMPARE(describe(s.release(500, 1)), QString("w3~480"));
        QVERIFY(!s.acquire(600, 4, W, kSpin));
        QCOMPARE(describe(s.release(1009, 3)), QString("w4~409"));  // 999 < 1000
        QVERIFY(!s.acquire(1009, 5, W, kSpin));
        QCOMPARE(describe(s.release(1010, 4)), QString("w2+1000"));
        QCOMPARE(s.spinners(), std::size_t{1});
        QCOMPARE(describe(s.release(1100, 2)), QString("w5~91"));
    }

    // Handoff to a reader: the first sleeper R2 is past its deadline at 1010, so every sleeping
    // reader goes as a batch (R2, R4, R6; the sleeping W3 keeps its place) though W7 spins; once
    // the batch has left, W3 is first and past its own deadline (1020), so it goes before W7.
    void readerBatchUnderHandoff() {
        RwSemModel s(0, 1000);
        QVERIFY(s.acquire(0, 1, W));
        QVERIFY(!s.acquire(10, 2, R));
        QVERIFY(!s.acquire(20, 3, W));
        QVERIFY(!s.acquire(30, 4, R));
        QVERIFY(!s.acquire(40, 5, W, kSpin));
        QVERIFY(!s.acquire(50, 6, R));
        QCOMPARE(describe(s.release(500, 1)), QString("w5~460"));
        QVERIFY(!s.acquire(600, 7, W, kSpin));
        QCOMPARE(describe(s.release(1010, 5)), QString("r2+1000 r4+980 r6+960"));
        QCOMPARE(s.readers(), std::size_t{3});
        QCOMPARE(s.spinners(), std::size_t{1});
        QCOMPARE(s.sleepers(), std::size_t{1});
        QCOMPARE(describe(s.release(1100, 2)), QString());
        QCOMPARE(describe(s.release(1100, 4)), QString());
        QCOMPARE(describe(s.release(1200, 6)), QString("w3+1180"));
        QCOMPARE(describe(s.release(1300, 3)), QString("w7~700"));
    }

    // A spinner that gives up joins the wait list's tail: its deadline counts from then (W2
    // stops at 500, so it is first at 1020 but not past its deadline, 1500, and W4 steals), its
    // wait from its arrival.
    void stoppedSpinnerSleepsFromThen() {
        RwSemModel s(0, 1000);
        QVERIFY(s.acquire(0, 1, W));
        QVERIFY(!s.acquire(10, 2, W, kSpin));
        QVERIFY(!s.acquire(20, 3, W));
        s.stopSpinning(500, 2);
        QCOMPARE(s.spinners(), std::size_t{0});
        QCOMPARE(s.sleepers(), std::size_t{2});
        QVERIFY(!s.acquire(600, 4, W, kSpin));
        QCOMPARE(describe(s.release(1020, 1)), QString("w3+1000"));  // W3 first, timed out
        QCOMPARE(describe(s.release(1100, 3)), QString("w4~500"));   // W2 queued 600 ns ago
        QCOMPARE(describe(s.release(1500, 4)), QString("w2+1490"));
        // Waiters, spinning or asleep: 1 over 10..20, 2 over 20..600, 3 over 600..1020, 2 over
        // 1020..1100, 1 over 1100..1500: 2,990 waiter-ns; Little's law exactly.
        const auto st = s.stats(1500);
        QCOMPARE(st.meanQueueLength, 2990.0 / 1500);
        QCOMPARE(st.maxQueueLength, std::size_t{3});
        QCOMPARE(st.meanWait, (0 + 1000 + 500 + 1490) / 4.0);
    }

    // Only sleepers set the WAITERS bit: a reader arriving at a reader-held lock with a writer
    // spinning gets in at once; with a writer asleep it sleeps too.
    void readerFastPathIgnoresSpinners() {
        RwSemModel s;
        QVERIFY(s.acquire(0, 1, R));
        QVERIFY(!s.acquire(5, 2, W, kSpin));
        QVERIFY(s.acquire(10, 3, R));
        QVERIFY(!s.acquire(15, 4, W));
        QVERIFY(!s.acquire(20, 5, R));
        QCOMPARE(describe(s.release(30, 1)), QString());
        QCOMPARE(describe(s.release(40, 3)), QString("w2~35"));
        QCOMPARE(describe(s.release(50, 2)), QString("w4+35"));
        QCOMPARE(describe(s.release(60, 4)), QString("r5+40"));
    }

    // The stealing window's bound: four writers spin and re-arrive 50 ns after each release,
    // holding 700..1300 ns, so at every release three of them spin. A reader arriving at
    // 10,037 ns sleeps; it is stolen from until its deadline, then gets the lock at the first
    // release after it: it waits at least the timeout and at most the timeout plus the longest
    // hold, and the writers take the lock at least timeout / longest hold times in between.
    void stealingWindowIsTheTimeoutPlusAHold() {
        constexpr Time kTimeout = 100'000, kArrive = 10'037, kGap = 50;
        const Time holds[] = {700, 1300, 900, 1100, 1000};
        RwSemModel s(0, kTimeout);
        EventQueue q;
        enum : std::uint32_t { kWriterArrives, kReleases, kReaderArrives };
        constexpr std::uint64_t kReader = 100;
        std::uint64_t granted = 0;
        Time readerWait = -1;
        std::uint64_t writerGrantsWhileReaderWaits = 0;
        auto onGrant = [&](Time now, const Grant& g) {
            const Time hold = g.requester == kReader ? 2'000 : holds[granted++ % 5];
            q.schedule(now + hold, Event{0, kReleases, static_cast<std::uint32_t>(g.requester), 0});
            if (g.requester == kReader) {
                readerWait = g.waited;
                QVERIFY(g.slept);
            } else if (readerWait < 0 && now >= kArrive) {
                QVERIFY(!g.slept);
                ++writerGrantsWhileReaderWaits;
            }
        };
        for (std::uint32_t w = 1; w <= 4; ++w)
            q.schedule(0, Event{0, kWriterArrives, w, 0});
        q.schedule(kArrive, Event{0, kReaderArrives, kReader, 0});
        while (!q.empty() && q.now() < 300'000) {
            const Event e = q.pop();
            const Time now = e.time;
            if (e.kind == kWriterArrives || e.kind == kReaderArrives) {
                const bool reader = e.kind == kReaderArrives;
                if (s.acquire(now, e.target, reader ? R : W, !reader))
                    onGrant(now, Grant{e.target, W, 0, false});
            } else {
                for (const Grant& g : s.release(now, e.target))
                    onGrant(now, g);
                if (e.target != kReader)
                    q.schedule(now + kGap, Event{0, kWriterArrives, e.target, 0});
            }
        }
        qInfo("reader waited %lld ns (timeout %lld), %llu writer holds meanwhile",
              static_cast<long long>(readerWait), static_cast<long long>(kTimeout),
              static_cast<unsigned long long>(writerGrantsWhileReaderWaits));
        QVERIFY(readerWait >= kTimeout);
        QVERIFY(readerWait <= kTimeout + 1300);
        QVERIFY(writerGrantsWhileReaderWaits >= static_cast<std::uint64_t>(kTimeout / 1300));
    }

    void misuseIsRefused() {
        RwSemModel s;
        QVERIFY(s.acquire(10, 1, R));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.acquire(11, 1, R));  // not recursive
        QVERIFY(!s.acquire(11, 2, W));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.acquire(12, 2, W));   // already waiting
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.release(12, 2));      // waiting, not holding
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.release(9, 1));  // time ran back
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.stats(5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.acquire(12, 3, R, kSpin));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.stopSpinning(12, 2));  // asleep
        QVERIFY(!s.acquire(12, 4, W, kSpin));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.stopSpinning(11, 4));
        s.stopSpinning(13, 4);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.stopSpinning(14, 4));  // already asleep
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RwSemModel(0, -1));
    }

    void statisticsOfAHandTimeline() {
        // t=100 W1 holds .. 300; R2 queues 150 -> 300, holds .. 350; W3 queues 200 -> 350,
        // holds .. 400; idle 400 .. 500. Window [100, 500].
        RwSemModel s(0);
        s.resetStats(100);
        QVERIFY(s.acquire(100, 1, W));
        QVERIFY(!s.acquire(150, 2, R));
        QVERIFY(!s.acquire(200, 3, W));
        QCOMPARE(describe(s.release(300, 1)), QString("r2+150"));
        QCOMPARE(describe(s.release(350, 2)), QString("w3+150"));
        QCOMPARE(describe(s.release(400, 3)), QString());
        const auto st = s.stats(500);
        QCOMPARE(st.window, Time{400});
        QCOMPARE(st.utilisation, 300.0 / 400.0);
        QCOMPARE(st.arrivals, std::uint64_t{3});
        QCOMPARE(st.arrivalsPerSecond, 3.0 / 400e-9);
        // Queue: 1 waiter 150..200, 2 waiters 200..300, 1 waiter 300..350 -> 300 waiter-ns.
        QCOMPARE(st.meanQueueLength, 300.0 / 400.0);
        QCOMPARE(st.maxQueueLength, std::size_t{2});
        QCOMPARE(st.grants, std::uint64_t{3});
        QCOMPARE(st.immediateGrants, std::uint64_t{1});
        QCOMPARE(st.meanWait, 100.0);  // (0 + 150 + 150) / 3
        // Nearest rank ceil(0.5 * 3) = 2nd of {0, 150, 150}; exact here as the histogram's
        // answer (its bucket [150, 151]'s middle) is capped at the exact max.
        QCOMPARE(st.p50Wait, Time{150});
        QCOMPARE(st.p99Wait, Time{150});
        QCOMPARE(st.maxWait, Time{150});
        QCOMPARE(st.holds, std::uint64_t{3});
        QCOMPARE(st.meanHold, 100.0);  // (200 + 50 + 50) / 3
        // Little's law holds exactly when every arrival has left the queue inside the window.
        QCOMPARE(st.meanQueueLength, st.arrivalsPerSecond * 1e-9 * st.meanWait);
    }

    void resetExcludesAcquisitionsInFlight() {
        RwSemModel s;
        QVERIFY(s.acquire(0, 1, W));
        QVERIFY(!s.acquire(10, 2, W));
        s.resetStats(50);
        QVERIFY(!s.acquire(60, 3, W));
        s.release(100, 1);  // W1's hold and W2's wait began before the window
        s.release(200, 2);
        const auto st = s.stats(300);
        QCOMPARE(st.arrivals, std::uint64_t{1});
        QCOMPARE(st.holds, std::uint64_t{0});
        QCOMPARE(st.grants, std::uint64_t{1});
        QCOMPARE(st.meanWait, 140.0);
        QCOMPARE(st.utilisation, 1.0);                // held throughout [50, 300]
        QCOMPARE(st.meanQueueLength, 190.0 / 250.0);  // W2 waits 50..100, W3 60..200
    }

    // ---- Queueing theory. ----

    void mD1MatchesPollaczekKhinchine() {
        const Time service = 10'000;  // 10 us hold, every one the same
        for (double rho : {0.3, 0.6, 0.8}) {
            Workload w;
            w.meanInterarrival = static_cast<double>(service) / rho;
            w.hold = service;
            w.warmup = 10'000;
            // Waits at high load are strongly autocorrelated: over 30 seeds the worst error at
            // rho 0.8 was 3.0% after 200,000 acquisitions and 2.1% after 500,000.
            w.measured = rho > 0.7 ? 500'000 : 200'000;
            w.seed = 0x5eed0000 + static_cast<std::uint64_t>(rho * 10);
            const RunResult r = simulate(w);
            const auto& st = r.stats;
            const double want = mD1Wait(rho, static_cast<double>(service));
            const double lambda = st.arrivalsPerSecond * 1e-9;  // per ns
            qInfo(
                "M/D/1 rho=%.1f: wait %.1f ns (P-K %.1f, %+.2f%%), utilisation %.4f, "
                "L_q %.4f vs lambda*W %.4f, p50 %lld p99 %lld ns, %llu grants",
                rho, st.meanWait, want, 100 * (st.meanWait - want) / want, st.utilisation,
                st.meanQueueLength, lambda * st.meanWait, static_cast<long long>(st.p50Wait),
                static_cast<long long>(st.p99Wait), static_cast<unsigned long long>(st.grants));
            QVERIFY(r.invariantsHeld);
            QVERIFY(st.grants + 100 > w.measured);
            QCOMPARE(st.meanHold, static_cast<double>(service));
            QVERIFY2(relErr(st.meanWait, want) < 0.03, qPrintable(QString::number(rho)));
            QVERIFY2(relErr(st.utilisation, rho) < 0.02, qPrintable(QString::number(rho)));
            QVERIFY2(relErr(st.meanQueueLength, lambda * st.meanWait) < 0.02,
                     qPrintable(QString::number(rho)));
            QVERIFY(st.p50Wait <= st.p99Wait && st.p99Wait <= st.maxWait);
            checkWaitsAgainstBruteForce(r);
        }
    }

    void littlesLawWithReadersAndWriters() {
        Workload w;
        w.meanInterarrival = 1'500;
        w.readFraction = 0.4;
        w.hold = 1'000;
        w.exponentialHold = true;
        w.warmup = 5'000;
        w.measured = 200'000;
        w.seed = 99;
        const RunResult r = simulate(w);
        const auto& st = r.stats;
        const double lambda = st.arrivalsPerSecond * 1e-9;
        qInfo("mixed: L_q %.4f vs lambda*W %.4f, utilisation %.4f, wait mean %.1f p99 %lld ns",
              st.meanQueueLength, lambda * st.meanWait, st.utilisation, st.meanWait,
              static_cast<long long>(st.p99Wait));
        QVERIFY(r.invariantsHeld);
        QVERIFY(r.maxHolders > 1);          // readers did share
        QVERIFY(st.meanQueueLength > 0.1);  // and there was a queue to measure
        QVERIFY(relErr(st.meanQueueLength, lambda * st.meanWait) < 0.02);
        QVERIFY(st.utilisation > 0 && st.utilisation <= 1);
        checkWaitsAgainstBruteForce(r);
    }

    void readersOnlyNeverWait() {
        Workload w;
        w.meanInterarrival = 500;
        w.readFraction = 1;
        w.hold = 1'000;  // about two holders on average, with idle gaps between bursts
        w.exponentialHold = true;
        w.measured = 100'000;
        w.drain = true;
        w.seed = 5;
        const RunResult r = simulate(w);
        const auto& st = r.stats;
        QVERIFY(r.invariantsHeld);
        QVERIFY(r.maxHolders >= 8);
        QCOMPARE(st.immediateGrants, st.arrivals);
        QCOMPARE(st.maxWait, Time{0});
        QCOMPARE(st.meanQueueLength, 0.0);
        QCOMPARE(st.holds, std::uint64_t{100'000});
        // Independent utilisation: the length of the union of the hold intervals.
        auto iv = r.holdIntervals;
        QCOMPARE(iv.size(), std::size_t{100'000});
        std::sort(iv.begin(), iv.end());
        Time covered = 0;
        Time curStart = iv.front().first, curEnd = iv.front().second;
        for (const auto& [a, b] : iv) {
            if (a > curEnd) {
                covered += curEnd - curStart;
                curStart = a;
                curEnd = b;
            } else {
                curEnd = std::max(curEnd, b);
            }
        }
        covered += curEnd - curStart;
        const double want = static_cast<double>(covered) / static_cast<double>(st.window);
        qInfo("readers only: utilisation %.6f, merged intervals %.6f, up to %zu holders",
              st.utilisation, want, r.maxHolders);
        QCOMPARE(st.utilisation, want);
        QVERIFY(st.utilisation < 0.95);  // the union, not the sum of holds
    }

    void sameSeedSameStatistics() {
        Workload w;
        w.meanInterarrival = 1'200;
        w.readFraction = 0.3;
        w.hold = 1'000;
        w.exponentialHold = true;
        w.warmup = 1'000;
        w.measured = 50'000;
        w.seed = 1234;
        const RunResult a = simulate(w);
        const RunResult b = simulate(w);
        QVERIFY(a.stats == b.stats);
        QCOMPARE(a.grantDigest, b.grantDigest);
        w.seed = 1235;
        const RunResult c = simulate(w);
        QVERIFY(!(a.stats == c.stats));
        QVERIFY(a.grantDigest != c.grantDigest);
    }
};

IMMAP_TEST_SUITE(TestRwSemModel);
#include "TestRwSemModel.moc"
