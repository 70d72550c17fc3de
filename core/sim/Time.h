#pragma once
// Simulated time. Nanoseconds as a 64-bit integer: exact arithmetic (no drift from summing
// doubles, so identical inputs give identical timelines) and ~292 years of range.

#include <cstdint>

namespace immap::sim {

using Time = std::int64_t;

inline constexpr Time kNsPerSecond = 1'000'000'000;

}  // namespace immap::sim
