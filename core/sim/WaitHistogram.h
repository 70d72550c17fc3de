#pragma once
// A bounded record of non-negative durations (lock waits, walker latencies), so that a run's
// memory does not grow with its simulated time: a log-linear histogram in the style of
// HdrHistogram. Values below kExactBelow (128 ns) have a bucket each; above, every power of
// two [2^e, 2^(e+1)) is split into kSubBuckets (64) equal buckets of width 2^(e-6).
//
// Error, stated: count, mean and max are exact (the sum is kept in 128 bits). A percentile is
// the nearest-rank one (the smallest value with at least p% of the samples at or below it),
// reported as the middle of its bucket clamped to [min, max]; it is exact below 128 ns and
// otherwise within 1/128 relative of the exact value: |reported - exact| <= exact / 128.
// Ranks 1 and count give min and max exactly.
//
// Memory: the counts cover buckets 0 .. the highest bucket seen, at most kMaxBuckets (3712,
// 29 KiB) for values up to 2^63 - 1; a copy (a replay checkpoint) costs that, not the samples.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/Time.h"

namespace immap::sim {

class WaitHistogram {
public:
    static constexpr unsigned kSubBucketBits = 6;
    static constexpr std::size_t kSubBuckets = std::size_t{1} << kSubBucketBits;  // 64
    static constexpr Time kExactBelow = Time{2} << kSubBucketBits;                // 128
    // The exact buckets, then 64 per power of two from 2^7 to 2^62.
    static constexpr std::size_t kMaxBuckets =
        static_cast<std::size_t>(kExactBelow) + (62 - kSubBucketBits) * kSubBuckets;

    // A negative value (a duration cannot be one) counts as 0.
    void record(Time value);
    void clear();

    std::uint64_t count() const { return count_; }
    Time min() const { return count_ ? min_ : 0; }
    Time max() const { return count_ ? max_ : 0; }
    double mean() const;  // 0 for no samples
    // Nearest-rank percentile, `percent` in 1..100 (values above 100 count as 100); 0 for no
    // samples. Within the bound above.
    Time percentile(unsigned percent) const;

    // Buckets in use: bounded by kMaxBuckets whatever the number of samples.
    std::size_t buckets() const { return counts_.size(); }

    // The bucket layout, for tests: the bucket holding `value` (>= 0), and a bucket's range.
    static std::size_t bucketOf(Time value);
    static Time bucketLow(std::size_t bucket);
    static Time bucketWidth(std::size_t bucket);

private:
    std::vector<std::uint64_t> counts_;
    std::uint64_t count_ = 0;
    std::uint64_t sumLow_ = 0, sumHigh_ = 0;  // the exact sum, 128 bits
    Time min_ = 0, max_ = 0;
};

}  // namespace immap::sim
