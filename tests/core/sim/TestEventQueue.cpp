// EventQueue against independent orderings: std::stable_sort of the same list (equal times keep
// insertion order) and an ordered std::set of (time, insertion index) under mixed push/pop.
#include <QTest>
#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "Suites.h"
#include "sim/EventQueue.h"

using namespace immap::sim;

namespace {

Event ev(std::uint64_t payload, std::uint32_t kind = 0, std::uint32_t target = 0) {
    Event e;
    e.kind = kind;
    e.target = target;
    e.payload = payload;
    return e;
}

// A simulation-like run: pops interleaved with pushes at now() + a random delay (often 0, so
// ties are common). Returns everything popped.
std::vector<Event> churn(std::uint64_t seed, std::size_t pushes) {
    std::mt19937_64 rng(seed);
    EventQueue q;
    std::vector<Event> out;
    std::size_t pushed = 0;
    while (pushed < pushes || !q.empty()) {
        if (pushed < pushes && (q.empty() || rng() % 3 != 0)) {
            const Time delay = static_cast<Time>(rng() % 4) * 10;
            q.schedule(q.now() + delay, ev(pushed, static_cast<std::uint32_t>(rng() % 5),
                                           static_cast<std::uint32_t>(rng() % 7)));
            ++pushed;
        } else {
            out.push_back(q.pop());
        }
    }
    return out;
}

}  // namespace

class TestEventQueue : public QObject {
    Q_OBJECT

private slots:
    void popsInTimeOrder() {
        EventQueue q(5);
        QCOMPARE(q.now(), Time{5});
        q.schedule(30, ev(3));
        q.schedule(10, ev(1));
        q.schedule(20, ev(2));
        QCOMPARE(q.size(), std::size_t{3});
        QCOMPARE(q.nextTime(), Time{10});
        for (std::uint64_t want = 1; want <= 3; ++want) {
            const Event e = q.pop();
            QCOMPARE(e.payload, want);
            QCOMPARE(e.time, static_cast<Time>(want * 10));
            QCOMPARE(q.now(), e.time);
        }
        QVERIFY(q.empty());
        QCOMPARE(q.scheduledCount(), std::uint64_t{3});
    }

    void equalTimesComeOutFifo() {
        EventQueue q;
        // Equal-time events interleaved with earlier and later ones, so the heap reorders.
        for (std::uint64_t i = 0; i < 100; ++i) {
            q.schedule(50, ev(i));
            q.schedule(i % 2 ? 10 : 90, ev(1000 + i));
        }
        std::vector<std::uint64_t> at50;
        while (!q.empty()) {
            const Event e = q.pop();
            if (e.time == 50) at50.push_back(e.payload);
        }
        std::vector<std::uint64_t> want(100);
        for (std::uint64_t i = 0; i < 100; ++i)
            want[i] = i;
        QCOMPARE(at50, want);
    }

    void sameSchedulesSameOrder() {
        const auto a = churn(42, 50'000);
        const auto b = churn(42, 50'000);
        QCOMPARE(a.size(), std::size_t{50'000});
        QVERIFY(a == b);
        QVERIFY(a != churn(43, 50'000));  // the comparison can fail
    }

    void interleavedMatchesOrderedSet() {
        // Reference: an ordered set keyed by (time, insertion index), the definition of the order.
        std::mt19937_64 rng(7);
        EventQueue q;
        std::set<std::pair<Time, std::uint64_t>> ref;
        std::uint64_t next = 0;
        for (int step = 0; step < 200'000; ++step) {
            if (ref.empty() || rng() % 2 == 0) {
                const Time t = q.now() + static_cast<Time>(rng() % 50);
                q.schedule(t, ev(next));
                ref.insert({t, next++});
            } else {
                const Event e = q.pop();
                const auto want = *ref.begin();
                ref.erase(ref.begin());
                if (e.time != want.first || e.payload != want.second)
                    QFAIL(qPrintable(QString("step %1: popped (%2, %3), want (%4, %5)")
                                         .arg(step)
                                         .arg(e.time)
                                         .arg(e.payload)
                                         .arg(want.first)
                                         .arg(want.second)));
            }
        }
        QCOMPARE(q.size(), ref.size());
    }

    void millionRandomEventsComeOutSorted() {
        std::mt19937_64 rng(2024);
        constexpr std::size_t n = 1'000'000;
        std::vector<Event> pushed;
        pushed.reserve(n);
        EventQueue q;
        q.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            // 100,000 distinct times for a million events: about ten per time.
            Event e = ev(i, static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()));
            e.time = static_cast<Time>(rng() % 100'000);
            pushed.push_back(e);
            q.schedule(e.time, e);
        }
        std::vector<Event> popped;
        popped.reserve(n);
        while (!q.empty())
            popped.push_back(q.pop());
        std::stable_sort(pushed.begin(), pushed.end(),
                         [](const Event& a, const Event& b) { return a.time < b.time; });
        QCOMPARE(popped.size(), n);
        QVERIFY(popped == pushed);
    }

    void refusesThePastAndEmptyPops() {
        EventQueue q;
        q.schedule(10, ev(1));
        q.pop();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, q.schedule(9, ev(2)));
        q.schedule(10, ev(3));  // now itself is allowed
        QCOMPARE(q.pop().payload, std::uint64_t{3});
        QVERIFY_THROWS_EXCEPTION(std::logic_error, q.pop());
        QCOMPARE(q.now(), Time{10});
    }
};

IMMAP_TEST_SUITE(TestEventQueue);
#include "TestEventQueue.moc"
