#pragma once
// The built-in default, shared by `immap` (its default summary) and `immap-lab` (what it shows
// with no argument): 1,200 execl-like processes mapping libc on the proposal's assumed 12-node,
// 384-CPU shape (the same shape as samples/topologies/numa12-384cpu.xml, built without a file so
// that the program works from any directory).

namespace immap::session {

inline constexpr const char* kDefaultSource = "synthetic:libc?processes=1200&seed=1";
inline constexpr const char* kDefaultTopology =
    "synthetic:package:2 numa:6 core:16 pu:2;distances=10:12:32";
inline constexpr const char* kDefaultFile = "libc.so.6";

}  // namespace immap::session
