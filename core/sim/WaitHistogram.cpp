#include "sim/WaitHistogram.h"

#include <algorithm>
#include <bit>

namespace immap::sim {

std::size_t WaitHistogram::bucketOf(Time value) {
    if (value < kExactBelow) return static_cast<std::size_t>(std::max<Time>(value, 0));
    const auto v = static_cast<std::uint64_t>(value);
    const unsigned e = static_cast<unsigned>(std::bit_width(v)) - 1;  // 7 .. 62
    const unsigned shift = e - kSubBucketBits;
    const std::size_t sub = static_cast<std::size_t>(v >> shift) - kSubBuckets;  // 0 .. 63
    return static_cast<std::size_t>(kExactBelow) + (e - kSubBucketBits - 1) * kSubBuckets + sub;
}

Time WaitHistogram::bucketLow(std::size_t bucket) {
    if (bucket < static_cast<std::size_t>(kExactBelow)) return static_cast<Time>(bucket);
    const std::size_t j = bucket - static_cast<std::size_t>(kExactBelow);
    const unsigned shift = static_cast<unsigned>(j / kSubBuckets) + 1;
    return static_cast<Time>((kSubBuckets + j % kSubBuckets) << shift);
}

Time WaitHistogram::bucketWidth(std::size_t bucket) {
    if (bucket < static_cast<std::size_t>(kExactBelow)) return 1;
    const std::size_t j = bucket - static_cast<std::size_t>(kExactBelow);
    return Time{1} << (j / kSubBuckets + 1);
}

void WaitHistogram::record(Time value) {
    value = std::max<Time>(value, 0);
    const std::size_t b = bucketOf(value);
    if (b >= counts_.size()) counts_.resize(b + 1);
    ++counts_[b];
    min_ = count_ ? std::min(min_, value) : value;
    max_ = count_ ? std::max(max_, value) : value;
    ++count_;
    const auto v = static_cast<std::uint64_t>(value);
    sumLow_ += v;
    if (sumLow_ < v) ++sumHigh_;  // carry
}

void WaitHistogram::clear() {
    *this = WaitHistogram{};
}

double WaitHistogram::mean() const {
    if (count_ == 0) return 0;
    const long double sum = static_cast<long double>(sumHigh_) * 18446744073709551616.0L +
                            static_cast<long double>(sumLow_);
    return static_cast<double>(sum / static_cast<long double>(count_));
}

Time WaitHistogram::percentile(unsigned percent) const {
    if (count_ == 0) return 0;
    percent = std::clamp(percent, 1u, 100u);
    // ceil(percent * count / 100) without overflow: count = 100 q + r.
    const std::uint64_t q = count_ / 100, r = count_ % 100;
    const std::uint64_t rank = std::max<std::uint64_t>(1, percent * q + (percent * r + 99) / 100);
    if (rank == 1) return min_;
    if (rank == count_) return max_;
    std::uint64_t seen = 0;
    for (std::size_t b = 0; b < counts_.size(); ++b) {
        seen += counts_[b];
        if (seen >= rank) {
            const Time middle = bucketLow(b) + bucketWidth(b) / 2;
            return std::clamp(middle, min_, max_);
        }
    }
    return max_;  // not reached: the counts add up to count_
}

}  // namespace immap::sim
