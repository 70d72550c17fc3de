#pragma once
// Synthetic hosts: P processes, each mapping libc.so.6 and ld-linux-x86-64.so.2 with the real
// five-VMA layouts of the capture host (samples/snapshots/host250, glibc 2.36, x86-64), placed
// on CPUs the way the scheduler spreads execl copies: round the NUMA nodes first, then round
// each node's PUs. The result is an ordinary procfs::Snapshot, so everything downstream treats
// it like a captured host; each process's stat says which CPU it ran on.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "procfs/Snapshot.h"

namespace immap::topology {
class Topology;
}

namespace immap::synth {

struct SyntheticSpec {
    std::size_t processes = 1200;
    std::size_t nodes = 0;  // 0: the topology's node count; otherwise it must match it
    std::uint64_t seed = 1;

    // The part after "synthetic:", e.g. "libc?processes=1200&nodes=12&seed=7". Throws
    // procfs::ParseError naming the spec on an unknown host kind, key or a bad number.
    static SyntheticSpec parse(std::string_view text);
};

class SyntheticHost {
public:
    // Throws limits::LimitError, with the estimate, when the processes would not fit in this
    // machine's memory (about spec.processes x bytesPerProcess(topo)).
    // With `cancel`, polls it per process (limits::Cancelled).
    static procfs::Snapshot generate(const SyntheticSpec& spec, const topology::Topology& topo,
                                     const std::atomic<bool>* cancel = nullptr);
    // What loading one synthetic process costs, all told (snapshot, mappings, trees).
    static double bytesPerProcess(const topology::Topology& topo);
};

}  // namespace immap::synth
