#pragma once
// The simulator's only source of randomness: SplitMix64 seeded by the run's seed, with our
// own uniform and exponential draws, so a seed gives the same run on every platform (the
// standard library's distributions are implementation-defined).

#include <cmath>
#include <cstdint>

namespace immap::sim {

class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    // Exponentially distributed with the given mean (a Poisson process's gaps).
    double exponential(double mean) { return -std::log1p(-uniform()) * mean; }
    // Uniform in [0, n); n > 0. Multiply-shift: bias below 2^-64 * n, irrelevant here.
    std::uint64_t below(std::uint64_t n) {
        __extension__ using Wide = unsigned __int128;  // GCC and Clang on 64-bit targets
        return static_cast<std::uint64_t>((static_cast<Wide>(next()) * n) >> 64);
    }

private:
    std::uint64_t state_;
};

}  // namespace immap::sim
