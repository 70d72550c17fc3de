// L1Cache against a brute-force set-associative LRU cache that stores every streamed line as a
// line of its own: the counted streaming must give the same hit or miss on every touch.
#include <QTest>
#include <cstdint>
#include <list>
#include <random>
#include <vector>

#include "Suites.h"
#include "sim/L1Cache.h"

using namespace immap::sim;

namespace {

// Each set an explicit LRU list, newest first; streamed lines get keys no tree line uses and
// go to sets in turn, as L1Cache says they do.
class BruteLru {
public:
    BruteLru(const L1Cache& shape) : shape_(shape), sets_(shape.sets()) {}
    bool touch(std::uint32_t key) { return put(shape_.setOf(key), key); }
    void stream(std::uint64_t lines) {
        for (std::uint64_t i = 0; i < lines; ++i, ++streamed_)
            put(static_cast<std::uint32_t>(streamed_ % shape_.sets()), ~streamed_);
    }

private:
    bool put(std::uint32_t s, std::uint64_t key) {
        std::list<std::uint64_t>& l = sets_[s];
        bool hit = false;
        for (auto it = l.begin(); it != l.end(); ++it)
            if (*it == key) {
                l.erase(it);
                hit = true;
                break;
            }
        l.push_front(key);
        if (l.size() > shape_.ways()) l.pop_back();
        return hit;
    }

    const L1Cache& shape_;
    std::vector<std::list<std::uint64_t>> sets_;
    std::uint64_t streamed_ = 0;
};

}  // namespace

class TestL1Cache : public QObject {
    Q_OBJECT

private slots:
    // Random touches over a working set near the cache's size, with bursts of streamed lines
    // of every size (none, less than a set's share, several sets' worth, the whole cache).
    void sameAsAnExplicitLru_data() {
        QTest::addColumn<int>("lines");
        QTest::addColumn<int>("ways");
        QTest::addColumn<int>("keys");
        QTest::newRow("zen4 32 KiB 8-way") << 512 << 8 << 700;
        QTest::newRow("48 KiB 12-way") << 768 << 12 << 1000;
        QTest::newRow("tiny, 2 sets of 4") << 8 << 4 << 12;
        QTest::newRow("fully associative") << 16 << 16 << 24;
        QTest::newRow("direct mapped") << 64 << 1 << 100;
        QTest::newRow("2-way") << 64 << 2 << 90;
        QTest::newRow("6-way, sets of 6 not a power of two") << 60 << 6 << 80;
        // One set, far more keys than ways: the older ways' one-byte tags often collide.
        QTest::newRow("one set of 8, 2,000 keys") << 8 << 8 << 2000;
    }
    void sameAsAnExplicitLru() {
        QFETCH(int, lines);
        QFETCH(int, ways);
        QFETCH(int, keys);
        L1Cache c(static_cast<std::uint32_t>(lines), static_cast<std::uint32_t>(ways));
        BruteLru b(c);
        std::mt19937_64 rng(7);
        std::uniform_int_distribution<std::uint32_t> key(0, static_cast<std::uint32_t>(keys));
        std::uniform_int_distribution<int> what(0, 99);
        const std::uint64_t streams[] = {1, 3, 7, static_cast<std::uint64_t>(lines) / 3,
                                         static_cast<std::uint64_t>(lines) * 2};
        int hits = 0;
        for (int i = 0; i < 200000; ++i) {
            if (what(rng) < 3) {
                const std::uint64_t n = streams[static_cast<std::size_t>(what(rng)) % 5];
                c.stream(n);
                b.stream(n);
                continue;
            }
            // Half the touches re-read one of a few hot keys, as a hold re-reads its path.
            const std::uint32_t k = what(rng) < 50 ? key(rng) % 8 : key(rng);
            const bool want = b.touch(k);
            const bool got = c.touch(k);
            if (got != want)
                QFAIL(qPrintable(QString("touch %1 of key %2: L1Cache says %3, LRU says %4")
                                     .arg(i)
                                     .arg(k)
                                     .arg(got)
                                     .arg(want)));
            hits += got;
        }
        QVERIFY(hits > 10000);  // the comparison saw both outcomes
        QVERIFY(hits < 190000);
    }

    // One path re-read many times costs one way, not one per read: a line survives any number
    // of re-reads of ways - 1 other lines of its own set.
    void distinctLinesNotTouches() {
        L1Cache c(64, 4);
        std::vector<std::uint32_t> same;  // keys in set 0
        for (std::uint32_t k = 0; same.size() < 5; ++k)
            if (c.setOf(k) == 0) same.push_back(k);
        QVERIFY(!c.touch(same[0]));
        for (int round = 0; round < 1000; ++round)
            for (int i = 1; i <= 3; ++i)
                c.touch(same[static_cast<std::size_t>(i)]);
        QVERIFY(c.touch(same[0]));  // 3 distinct lines since, 3,000 touches: still in
        c.touch(same[4]);
        for (int i = 1; i <= 3; ++i)
            c.touch(same[static_cast<std::size_t>(i)]);
        QVERIFY(!c.touch(same[0]));  // 4 distinct since: out
    }
};

IMMAP_TEST_SUITE(TestL1Cache);
#include "TestL1Cache.moc"
