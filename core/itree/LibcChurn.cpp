#include "LibcChurn.h"

#include <random>

namespace immap::itree {

std::vector<ScriptOp> LibcChurn::generate(std::size_t processes, std::size_t cycles,
                                          std::uint64_t seed) {
    std::vector<ScriptOp> ops;
    ops.reserve((processes + 2 * cycles) * kLibcSegments.size());
    std::uint64_t nextId = 1;
    // firstId of each live process's five consecutive IDs
    std::vector<std::uint64_t> live;
    auto exec = [&] {
        live.push_back(nextId);
        for (const Segment& s : kLibcSegments)
            ops.push_back({ScriptOp::Kind::Insert, nextId++, s.pgoff, s.pgoff + s.pages - 1});
    };
    for (std::size_t p = 0; p < processes; ++p)
        exec();
    std::mt19937_64 rng(seed);
    for (std::size_t c = 0; c < cycles && !live.empty(); ++c) {
        const std::size_t victim =
            std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
        const std::uint64_t first = live[victim];
        live[victim] = live.back();
        live.pop_back();
        // exit_mmap tears the VMAs down in address order, which is segment order.
        for (std::uint64_t k = 0; k < kLibcSegments.size(); ++k)
            ops.push_back({ScriptOp::Kind::Remove, first + k, 0, 0});
        exec();
    }
    return ops;
}

}  // namespace immap::itree
