#include "SyntheticHost.h"

#include <array>
#include <random>

#include "itree/OpScript.h"
#include "limits/Cancelled.h"
#include "limits/InputLimits.h"
#include "limits/MemoryBudget.h"
#include "procfs/ParseError.h"
#include "topology/Topology.h"

namespace immap::synth {

namespace {

struct Segment {
    std::uint64_t pgoff, pages;
    bool write, exec;
};

struct Library {
    const char* path;
    std::uint64_t inode;
    std::array<Segment, 5> segments;
};

// As captured (fe:00): r--p, r-xp, r--p, RELRO r--p, rw-p for each library.
constexpr std::array<Library, 2> kLibraries{{
    {"/usr/lib/x86_64-linux-gnu/libc.so.6",
     332835,
     {{{0x0, 0x26, false, false},
       {0x26, 0x156, false, true},
       {0x17c, 0x53, false, false},
       {0x1cf, 0x4, false, false},
       {0x1d3, 0x2, true, false}}}},
    {"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
     332383,
     {{{0x0, 0x1, false, false},
       {0x1, 0x26, false, true},
       {0x27, 0xa, false, false},
       {0x31, 0x2, false, false},
       {0x33, 0x2, true, false}}}},
}};

constexpr std::uint32_t kDevMajor = 0xfe;
constexpr std::int64_t kFirstPid = 10000;

}  // namespace

SyntheticSpec SyntheticSpec::parse(std::string_view text) {
    const std::string whole = "synthetic:" + std::string(text);
    auto fail = [&](const std::string& why) { throw procfs::ParseError(whole, 0, why); };
    SyntheticSpec spec;
    const std::size_t q = text.find('?');
    const std::string_view kind = text.substr(0, q);
    if (kind != "libc") fail("unknown synthetic host '" + std::string(kind) + "' (expected libc)");
    if (q == std::string_view::npos) return spec;
    std::string_view rest = text.substr(q + 1);
    while (!rest.empty()) {
        const std::size_t amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
        const std::size_t eq = pair.find('=');
        if (eq == std::string_view::npos)
            fail("expected key=value, got '" + std::string(pair) + "'");
        const std::string_view key = pair.substr(0, eq);
        std::uint64_t value = 0;
        std::string error;
        if (!itree::OpScript::parseNumber(pair.substr(eq + 1), value, error))
            fail(key.empty() ? error : std::string(key) + ": " + error);
        if (key == "processes") {
            // The count's range here; whether this machine can hold them, in generate().
            if (!limits::InputLimits::check("processes", static_cast<double>(value), error))
                fail(error);
            spec.processes = value;
        } else if (key == "nodes") {
            if (!limits::InputLimits::check("nodes", static_cast<double>(value), error))
                fail(error);
            spec.nodes = value;
        } else if (key == "seed") {
            spec.seed = value;
        } else {
            fail("unknown key '" + std::string(key) + "' (expected processes, nodes or seed)");
        }
    }
    return spec;
}

double SyntheticHost::bytesPerProcess(const topology::Topology& topo) {
    // Measured: the peak RSS of `immap snapshot stats` (the snapshot, HostMappings and both
    // files' trees) grows by 2,575 bytes per process on a 32-CPU, 1-node host and by 4,014 on
    // 384 CPUs and 12 nodes (100,000 to 300,000 processes): about 2,450 bytes plus 4 per CPU
    // or node (each status line's allowed CPUs and nodes). A fifth more, for allocator slack.
    constexpr double kFixed = 3000;
    constexpr double kPerCpuOrNode = 5;
    return kFixed + kPerCpuOrNode * static_cast<double>(topo.pus().size() + topo.nodeCount());
}

procfs::Snapshot SyntheticHost::generate(const SyntheticSpec& spec, const topology::Topology& topo,
                                         const std::atomic<bool>* cancel) {
    const std::size_t nodes = topo.nodeCount();
    if (spec.nodes && spec.nodes != nodes)
        throw procfs::ParseError("synthetic:libc", 0,
                                 "nodes=" + std::to_string(spec.nodes) + " but the topology has " +
                                     std::to_string(nodes) + " NUMA nodes");
    limits::MemoryBudget::require(
        limits::MemoryBudget::count(static_cast<double>(spec.processes)) + " processes",
        static_cast<double>(spec.processes) * bytesPerProcess(topo));
    procfs::Snapshot snap;
    snap.source = "synthetic:libc?processes=" + std::to_string(spec.processes) +
                  "&nodes=" + std::to_string(nodes) + "&seed=" + std::to_string(spec.seed);
    std::mt19937_64 rng(spec.seed);
    std::vector<int> allCpus, allNodes;
    for (const auto& pu : topo.pus())
        allCpus.push_back(static_cast<int>(pu.osIndex));
    for (const auto& n : topo.nodes())
        allNodes.push_back(static_cast<int>(n.osIndex));
    snap.processes.reserve(spec.processes);
    // One shared pathname per library, as a parsed snapshot has.
    const std::array<procfs::Path, kLibraries.size()> paths{procfs::Path(kLibraries[0].path),
                                                            procfs::Path(kLibraries[1].path)};
    for (std::size_t i = 0; i < spec.processes; ++i) {
        if ((i & 1023) == 0) limits::Cancelled::check(cancel);
        // Copy i lands on node i mod N, then on that node's PUs in turn.
        const auto& node = topo.nodes()[i % nodes];
        const unsigned cpu = node.pus.empty() ? 0 : node.pus[(i / nodes) % node.pus.size()];
        procfs::ProcessSnapshot p;
        p.pid = kFirstPid + static_cast<std::int64_t>(i);
        p.comm = "execl";
        p.stat = procfs::ProcStat{p.pid, p.comm, 'R', static_cast<int>(cpu)};
        p.status = procfs::ProcStatus{p.comm, p.pid, allCpus, allNodes};
        // ASLR: each process's libraries at a random page-aligned base below 0x7fff00000000.
        std::uint64_t base = 0x7f0000000000 + (rng() % (1ull << 26)) * procfs::kPageSize;
        for (std::size_t l = 0; l < kLibraries.size(); ++l) {
            const Library& lib = kLibraries[l];
            for (const Segment& s : lib.segments) {
                procfs::MapsEntry e;
                e.start = base + s.pgoff * procfs::kPageSize;
                e.end = e.start + s.pages * procfs::kPageSize;
                e.read = true;
                e.write = s.write;
                e.exec = s.exec;
                e.offset = s.pgoff * procfs::kPageSize;
                e.devMajor = kDevMajor;
                e.inode = lib.inode;
                e.path = paths[l];
                e.kind = procfs::MapsEntry::Kind::File;
                p.maps.push_back(std::move(e));
            }
            const Segment& lastSeg = lib.segments.back();
            base +=
                (lastSeg.pgoff + lastSeg.pages + 16) * procfs::kPageSize;  // a gap, as ld.so leaves
        }
        snap.processes.push_back(std::move(p));
    }
    return snap;
}

}  // namespace immap::synth
