#pragma once
// Op sequences shaped like libc.so.6's i_mmap on a host running execl copies: every process
// maps the same five segments (r--p, r-xp, r--p, RELRO r--p, rw-p), so the tree holds
// thousands of copies of five intervals; churn is exit (remove a process's five VMAs) followed
// by exec (insert five fresh ones), as UnixBench execl does.

#include <array>
#include <cstdint>
#include <vector>

#include "OpScript.h"

namespace immap::itree {

struct Segment {
    Index pgoff;
    Index pages;
};

// libc.so.6's five file-backed VMAs (glibc 2.36, x86-64; the host250 snapshot's layout).
inline constexpr std::array<Segment, 5> kLibcSegments{{
    {0x0, 0x26},
    {0x26, 0x156},
    {0x17c, 0x53},
    {0x1cf, 0x4},
    {0x1d3, 0x2},
}};

class LibcChurn {
public:
    // `processes` processes map libc (IDs 1.. in order), then `cycles` exit+exec cycles, each
    // removing a random live process's five VMAs and inserting five with new IDs (10 ops).
    static std::vector<ScriptOp> generate(std::size_t processes, std::size_t cycles,
                                          std::uint64_t seed);
};

}  // namespace immap::itree
