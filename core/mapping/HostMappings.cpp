#include "HostMappings.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "limits/Cancelled.h"
#include "topology/Topology.h"

namespace immap::mapping {

const char* evidenceName(Evidence e) {
    switch (e) {
        case Evidence::NumaMaps:
            return "numa_maps";
        case Evidence::LastCpu:
            return "last_cpu";
        case Evidence::MemsAllowed:
            return "mems_allowed";
        case Evidence::RoundRobin:
            return "round_robin";
    }
    return "?";
}

std::string MappedFile::device() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02x:%02x", devMajor, devMinor);
    return buf;
}

std::string MappedFile::name() const {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

namespace {

// Logical index of the NUMA node with this OS index, -1 when the topology has none.
int logicalNode(const topology::Topology& topo, int osIndex) {
    const auto& nodes = topo.nodes();
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (static_cast<int>(nodes[i].osIndex) == osIndex) return static_cast<int>(i);
    return -1;
}

}  // namespace

HostMappings HostMappings::build(const procfs::Snapshot& snap, const topology::Topology& topo,
                                 const std::atomic<bool>* cancel) {
    HostMappings h;
    h.skipped_ = snap.skipped;
    const int nodeCount = std::max<int>(1, static_cast<int>(topo.nodeCount()));
    struct Key {
        std::uint32_t major, minor;
        std::uint64_t inode;
        bool operator<(const Key& o) const {
            return std::tie(major, minor, inode) < std::tie(o.major, o.minor, o.inode);
        }
    };
    std::map<Key, std::size_t> fileIndex;
    std::size_t done = 0;
    for (const procfs::ProcessSnapshot& p : snap.processes) {
        if ((done++ & 1023) == 0) limits::Cancelled::check(cancel);
        const auto processIndex = static_cast<std::uint32_t>(h.processes_.size());
        h.processes_.push_back({p.pid, p.comm});
        // Per-process evidence, tried best first for each VMA.
        std::unordered_map<std::uint64_t, const procfs::NumaMapsEntry*> numaByStart;
        for (const auto& n : p.numaMaps)
            numaByStart.emplace(n.start, &n);
        const int cpu = p.stat ? p.stat->processor : -1;
        const int cpuNode = cpu >= 0 ? topo.nodeOfPu(static_cast<unsigned>(cpu)) : -1;
        int memsNode = -1;
        if (p.status && p.status->memsAllowed.size() == 1)
            memsNode = logicalNode(topo, p.status->memsAllowed.front());
        const int roundRobin =
            static_cast<int>(processIndex % static_cast<std::uint32_t>(nodeCount));
        std::vector<std::size_t> touched;
        for (const procfs::MapsEntry& m : p.maps) {
            if (!m.fileBacked()) continue;
            auto [it, fresh] =
                fileIndex.try_emplace(Key{m.devMajor, m.devMinor, m.inode}, h.files_.size());
            if (fresh) {
                MappedFile f;
                f.path = m.path;
                f.devMajor = m.devMajor;
                f.devMinor = m.devMinor;
                f.inode = m.inode;
                f.deleted = m.deleted;
                h.files_.push_back(std::move(f));
            }
            MappedFile& f = h.files_[it->second];
            if (touched.empty() ||
                std::find(touched.begin(), touched.end(), it->second) == touched.end()) {
                touched.push_back(it->second);
                ++f.processes;
            }
            Vma v;
            v.pid = p.pid;
            v.process = processIndex;
            v.start = m.start;
            v.end = m.end;
            v.pgoff = m.pgoff();
            v.pages = std::max<std::uint64_t>(1, m.pages());
            const std::string perms = m.perms();
            std::copy_n(perms.begin(), std::min<std::size_t>(4, perms.size()), v.perms);
            v.cpu = cpu;
            int node = -1;
            if (auto n = numaByStart.find(m.start); n != numaByStart.end()) {
                const int dominant = n->second->dominantNode();
                if (dominant >= 0) node = logicalNode(topo, dominant);
            }
            if (node >= 0) {
                v.evidence = Evidence::NumaMaps;
            } else if (cpuNode >= 0) {
                node = cpuNode;
                v.evidence = Evidence::LastCpu;
            } else if (memsNode >= 0) {
                node = memsNode;
                v.evidence = Evidence::MemsAllowed;
            } else {
                node = roundRobin;
                v.evidence = Evidence::RoundRobin;
            }
            v.homeNode = node;
            f.vmas.push_back(v);
        }
    }
    std::stable_sort(
        h.files_.begin(), h.files_.end(), [](const MappedFile& a, const MappedFile& b) {
            return a.vmas.size() != b.vmas.size() ? a.vmas.size() > b.vmas.size() : a.path < b.path;
        });
    return h;
}

const MappedFile* HostMappings::findFile(std::string_view name) const {
    for (const MappedFile& f : files_)
        if (f.path == name) return &f;
    const MappedFile* found = nullptr;
    for (const MappedFile& f : files_) {
        if (f.name() != name) continue;
        if (found && (found->devMajor != f.devMajor || found->devMinor != f.devMinor ||
                      found->inode != f.inode))
            return nullptr;  // two different files share the name
        if (!found) found = &f;
    }
    return found;
}

}  // namespace immap::mapping
