// WaitHistogram against brute force: every percentile compared with the exact nearest-rank
// value of the same samples (sorted), within the stated bound |got - exact| <= exact / 128 and
// exactly below 128 ns; count, mean (from a 128-bit or long double sum done here) and max
// exact; the bucket layout checked by hand at its edges; memory bounded whatever the samples.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "Suites.h"
#include "sim/WaitHistogram.h"

using namespace immap::sim;

namespace {

// Nearest rank over sorted samples: the ceil(p * n / 100)-th smallest, at least the 1st.
Time exactRank(const std::vector<Time>& sorted, unsigned percent) {
    const std::size_t n = sorted.size();
    const std::size_t rank = std::max<std::size_t>(1, (percent * n + 99) / 100);
    return sorted[rank - 1];
}

// Checks every percentile of `samples` (recorded into a fresh histogram) against brute force.
void checkAgainstBruteForce(std::vector<Time> samples, const char* what) {
    WaitHistogram h;
    for (Time v : samples)
        h.record(v);
    std::sort(samples.begin(), samples.end());
    QCOMPARE(h.count(), static_cast<std::uint64_t>(samples.size()));
    QCOMPARE(h.max(), samples.back());
    QCOMPARE(h.min(), samples.front());
    long double sum = 0;
    for (Time v : samples)
        sum += static_cast<long double>(v);
    const double mean = static_cast<double>(sum / static_cast<long double>(samples.size()));
    QVERIFY2(std::abs(h.mean() - mean) <= 1e-12 * std::max(1.0, mean), what);
    for (unsigned p = 1; p <= 100; ++p) {
        const Time exact = exactRank(samples, p);
        const Time got = h.percentile(p);
        // Integer form of |got - exact| <= exact / 128.
        const long double diff = std::abs(static_cast<long double>(got) - exact);
        if (exact < WaitHistogram::kExactBelow)
            QVERIFY2(got == exact,
                     qPrintable(
                         QString("%1: p%2 got %3, exact %4").arg(what).arg(p).arg(got).arg(exact)));
        QVERIFY2(
            diff * 128 <= static_cast<long double>(exact),
            qPrintable(QString("%1: p%2 got %3, exact %4").arg(what).arg(p).arg(got).arg(exact)));
    }
}

}  // namespace

class TestWaitHistogram : public QObject {
    Q_OBJECT

private slots:
    void emptyIsZero() {
        const WaitHistogram h;
        QCOMPARE(h.count(), std::uint64_t{0});
        QCOMPARE(h.mean(), 0.0);
        QCOMPARE(h.percentile(50), Time{0});
        QCOMPARE(h.max(), Time{0});
    }

    // By hand: 0..127 one bucket each; 128..255 in buckets of 2; 256..511 in buckets of 4.
    void bucketEdges() {
        QCOMPARE(WaitHistogram::bucketOf(0), std::size_t{0});
        QCOMPARE(WaitHistogram::bucketOf(127), std::size_t{127});
        QCOMPARE(WaitHistogram::bucketOf(128), std::size_t{128});
        QCOMPARE(WaitHistogram::bucketOf(129), std::size_t{128});
        QCOMPARE(WaitHistogram::bucketOf(130), std::size_t{129});
        QCOMPARE(WaitHistogram::bucketOf(255), std::size_t{191});
        QCOMPARE(WaitHistogram::bucketOf(256), std::size_t{192});
        QCOMPARE(WaitHistogram::bucketOf(259), std::size_t{192});
        QCOMPARE(WaitHistogram::bucketOf(260), std::size_t{193});
        QCOMPARE(WaitHistogram::bucketLow(193), Time{260});
        QCOMPARE(WaitHistogram::bucketWidth(193), Time{4});
        QCOMPARE(WaitHistogram::bucketOf(std::numeric_limits<Time>::max()),
                 WaitHistogram::kMaxBuckets - 1);
        QCOMPARE(WaitHistogram::kMaxBuckets, std::size_t{128 + 56 * 64});
    }

    // Every bucket's range is contiguous with the next and maps back to itself, and its width
    // is at most 1/64 of its low end (the bound's origin: the middle is within 1/128).
    void bucketsTileTheRange() {
        for (std::size_t b = 0; b < WaitHistogram::kMaxBuckets; ++b) {
            const Time low = WaitHistogram::bucketLow(b);
            const Time width = WaitHistogram::bucketWidth(b);
            QCOMPARE(WaitHistogram::bucketOf(low), b);
            QCOMPARE(WaitHistogram::bucketOf(low + (width - 1)), b);
            if (b + 1 < WaitHistogram::kMaxBuckets)
                QCOMPARE(WaitHistogram::bucketLow(b + 1), low + width);
            else
                QCOMPARE(low + (width - 1), std::numeric_limits<Time>::max());
            if (low >= WaitHistogram::kExactBelow) QVERIFY(width * 64 <= low);
        }
    }

    // Below 128 ns every percentile is exact: the old exact nearest-rank answers.
    void smallValuesAreExact() {
        WaitHistogram h;
        for (Time v : {0, 150, 150})
            h.record(v);
        QCOMPARE(h.percentile(50), Time{150});  // 2nd of 3: 151 (its bucket's middle) capped
        QCOMPARE(h.mean(), 100.0);
        std::vector<Time> small;
        for (Time v = 0; v < 100; ++v)
            small.push_back(v);
        WaitHistogram s;
        for (Time v : small)
            s.record(v);
        QCOMPARE(s.percentile(50), Time{49});  // rank 50 of 0..99
        QCOMPARE(s.percentile(99), Time{98});  // rank 99
        QCOMPARE(s.percentile(100), Time{99});
        QCOMPARE(s.mean(), 49.5);
    }

    void negativeCountsAsZero() {
        WaitHistogram h;
        h.record(-5);
        QCOMPARE(h.max(), Time{0});
        QCOMPARE(h.count(), std::uint64_t{1});
    }

    void randomDistributionsAgainstBruteForce() {
        std::mt19937_64 rng(20261202);
        for (int round = 0; round < 4; ++round) {
            const std::size_t n = round == 0 ? 1 : round == 1 ? 7 : round == 2 ? 1000 : 50'000;
            std::vector<Time> uniformSmall, exponential, pareto, equal, zeros, huge, mixed;
            std::uniform_int_distribution<Time> small(0, 127);
            std::exponential_distribution<double> expo(1.0 / 20'000);
            std::uniform_real_distribution<double> unit(0, 1);
            for (std::size_t i = 0; i < n; ++i) {
                uniformSmall.push_back(small(rng));
                exponential.push_back(std::llround(expo(rng)));
                // Pareto, alpha 1.1: a tail reaching ~1e15 ns over 50,000 draws.
                pareto.push_back(std::llround(1000.0 / std::pow(1 - unit(rng), 1 / 1.1)));
                equal.push_back(123'456'789);
                zeros.push_back(0);
                huge.push_back((Time{1} << 62) + std::uniform_int_distribution<Time>(
                                                     -(Time{1} << 58), Time{1} << 61)(rng));
                mixed.push_back(i % 3 == 0 ? 0 : i % 3 == 1 ? small(rng) : huge.back());
            }
            checkAgainstBruteForce(uniformSmall, "uniform 0..127");
            checkAgainstBruteForce(exponential, "exponential");
            checkAgainstBruteForce(pareto, "pareto");
            checkAgainstBruteForce(equal, "all equal");
            checkAgainstBruteForce(zeros, "zeros");
            checkAgainstBruteForce(huge, "near 2^62");
            checkAgainstBruteForce(mixed, "mixed");
        }
        checkAgainstBruteForce({std::numeric_limits<Time>::max(), 1, 0}, "extremes");
    }

    // The sum passes 2^64: the mean is still exact (compared with 2^62 + the mean offset).
    void meanKeepsA128BitSum() {
        WaitHistogram h;
        long double offsets = 0;
        for (Time k = 0; k < 1000; ++k) {
            h.record((Time{1} << 62) + k * 1000);
            offsets += static_cast<long double>(k * 1000);
        }
        const long double want = std::ldexp(1.0L, 62) + offsets / 1000;
        QCOMPARE(h.mean(), static_cast<double>(want));
    }

    // Memory follows the values' range, not their number: 1,000 and 1,000,000 samples of the
    // same distribution (below 10^6 ns) use the same buckets, at most those up to 10^6.
    void memoryIndependentOfSampleCount() {
        std::mt19937_64 rng(7);
        std::uniform_int_distribution<Time> d(0, 1'000'000);
        WaitHistogram h;
        h.record(1'000'000);
        for (int i = 0; i < 1000; ++i)
            h.record(d(rng));
        const std::size_t after1k = h.buckets();
        for (int i = 0; i < 1'000'000; ++i)
            h.record(d(rng));
        QCOMPARE(h.buckets(), after1k);
        QCOMPARE(after1k, WaitHistogram::bucketOf(1'000'000) + 1);
        h.record(std::numeric_limits<Time>::max());
        QCOMPARE(h.buckets(), WaitHistogram::kMaxBuckets);
        h.clear();
        QCOMPARE(h.buckets(), std::size_t{0});
    }
};

IMMAP_TEST_SUITE(TestWaitHistogram);
#include "TestWaitHistogram.moc"
