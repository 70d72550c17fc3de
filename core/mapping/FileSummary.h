#pragma once
// What `snapshot stats` and the file picker show for one mapped file: where its VMAs are homed,
// on what evidence, and how tall its tree is as one tree and as per-node trees.

#include <array>
#include <map>
#include <vector>

#include "HostMappings.h"

namespace immap::mapping {

struct FileSummary {
    const MappedFile* file = nullptr;
    std::map<int, std::size_t> nodes;                    // home node -> VMAs
    std::array<std::size_t, kEvidenceKinds> evidence{};  // by Evidence
    int singleHeight = 0;
    std::vector<int> splitHeights;  // one per NUMA node's tree

    static FileSummary of(const MappedFile& file, const topology::Topology& topo);
};

}  // namespace immap::mapping
