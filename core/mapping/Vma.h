#pragma once
// One file-backed VMA of one process, with the NUMA node it is homed on and the evidence for
// that node (never hidden: the UI and the stats say which evidence was used).

#include <cstdint>
#include <string>

#include "itree/Node.h"

namespace immap::mapping {

// Best first: the order in which evidence is tried.
enum class Evidence : std::uint8_t {
    NumaMaps,     // the node holding most of the VMA's resident pages (numa_maps N<node>=)
    LastCpu,      // the node of the CPU the task last ran on (stat field 39, via the topology)
    MemsAllowed,  // the task may only allocate on one node (status Mems_allowed_list)
    RoundRobin,   // no evidence: processes dealt over the nodes in pid order
};
inline constexpr int kEvidenceKinds = 4;
const char* evidenceName(Evidence e);  // "numa_maps", "last_cpu", "mems_allowed", "round_robin"

struct Vma {
    std::int64_t pid = 0;
    std::uint32_t process = 0;  // index into HostMappings::processes()
    std::uint64_t start = 0;    // virtual addresses, end exclusive
    std::uint64_t end = 0;
    itree::Index pgoff = 0;
    itree::Index pages = 0;
    char perms[5] = "----";
    int homeNode = 0;  // logical NUMA node index
    int cpu = -1;      // OS index of the CPU it was mapped from, when known
    Evidence evidence = Evidence::RoundRobin;

    // The interval the kernel keys it by: [vm_pgoff, vm_pgoff + pages - 1].
    itree::Index first() const { return pgoff; }
    itree::Index last() const { return pgoff + pages - 1; }
};

}  // namespace immap::mapping
