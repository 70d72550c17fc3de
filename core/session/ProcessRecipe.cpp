#include "ProcessRecipe.h"

#include <array>
#include <cstring>

#include "itree/LibcChurn.h"

namespace immap::session {

std::vector<TreeOp> ExitRecipe::ops(const TreeSet& set, std::int64_t pid, int) const {
    std::vector<TreeOp> out;
    for (int id : set.idsOfPid(pid)) {
        TreeOp op;
        op.kind = TreeOp::Kind::Remove;
        op.id = id;
        out.push_back(op);
    }
    return out;
}

mapping::Vma ExecRecipe::vma(std::int64_t pid, int node, itree::Index pgoff, itree::Index pages,
                             const char* perms) {
    mapping::Vma v;
    v.pid = pid;
    v.process = ~0u;  // not one of the snapshot's processes
    // An address per process that looks like an mmap base; only the table shows it.
    const std::uint64_t base =
        0x7f0000000000ull + (static_cast<std::uint64_t>(pid) % 0x10000) * 0x1000000ull;
    v.start = base + pgoff * 4096;
    v.end = v.start + pages * 4096;
    v.pgoff = pgoff;
    v.pages = pages;
    std::memcpy(v.perms, perms, 4);
    v.perms[4] = 0;
    v.homeNode = node;
    v.cpu = -1;
    // The user chose the node, as numa_node_id() would at mmap: no /proc evidence behind it.
    v.evidence = mapping::Evidence::LastCpu;
    return v;
}

std::vector<TreeOp> ExecRecipe::ops(const TreeSet&, std::int64_t pid, int node) const {
    static constexpr std::array<const char*, 5> kPerms{"r--p", "r-xp", "r--p", "r--p", "rw-p"};
    std::vector<TreeOp> out;
    for (std::size_t i = 0; i < itree::kLibcSegments.size(); ++i) {
        TreeOp op;
        op.kind = TreeOp::Kind::Insert;
        op.vma =
            vma(pid, node, itree::kLibcSegments[i].pgoff, itree::kLibcSegments[i].pages, kPerms[i]);
        op.comm = "execl";
        out.push_back(op);
    }
    return out;
}

}  // namespace immap::session
