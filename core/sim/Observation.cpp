#include "sim/Observation.h"

namespace immap::sim {

namespace {

// The shapes. Each says what is public and what we assumed; SLIT 10/21 for two-socket Intel and
// 10/12/32 within/across Hygon packages are the values docs/kernel.md 5.2 gives for such parts.
constexpr const char* kHygon384 =
    "synthetic:package:2 numa:6 core:16 pu:2;distances=10:12:32;note=assumed shape of the "
    "proposal's 12-node 384-CPU Hygon";
constexpr const char* kHygon7490 =
    "synthetic:package:2 numa:4 core:16 pu:2;distances=10:16:32;note=assumed shape of a "
    "2-socket Hygon C86 7490";
constexpr const char* kEpyc9754 =
    "synthetic:package:1 numa:1 core:128 pu:2;note=assumed shape of a 1-socket AMD EPYC 9754 in "
    "NPS1";
constexpr const char* kEmr256 =
    "synthetic:package:2 numa:1 core:64 pu:2;distances=10:21:21;note=assumed shape of a 2-socket "
    "64-core Emerald Rapids";
constexpr const char* kEmr224 =
    "synthetic:package:2 numa:1 core:56 pu:2;distances=10:21:21;note=assumed shape of a 2-socket "
    "56-core Emerald Rapids";
constexpr const char* kXeon8369B =
    "synthetic:package:2 numa:1 core:32 pu:2;distances=10:21:21;note=assumed shape of a 2-socket "
    "Xeon Platinum 8369B";
constexpr const char* kGuzik =
    "synthetic:package:1 numa:1 core:24 pu:2;note=assumed shape: the machine of Guzik's 2024 "
    "doexec run was not published";
constexpr const char* kXeonSilver =
    "synthetic:package:2 numa:1 core:16 pu:2;distances=10:21:21;note=assumed shape of a 2-socket "
    "Xeon Silver";

constexpr const char* kThreadV1 =
    "Huang Shijie, v1 0/3 cover, 2026-04-13: \"77% performance improvement\" "
    "(https://lore.kernel.org/all/20260413062042.804-1-huangsj@hygon.cn/)";
constexpr const char* kThreadV2 =
    "Huang Shijie, v2 0/4 cover, 2026-06-11: \"over 400% performance improvement\" "
    "(https://lore.kernel.org/all/20260611061915.2354307-1-huangsj@hygon.cn/)";
constexpr const char* kWilcox =
    "Matthew Wilcox, 2024, in JonasZhou's rwsem thread: \"the fundamental problem is our data "
    "structure\", a B-tree-like "
    "structure for overlapping intervals instead of the rbtree "
    "(https://lore.kernel.org/all/ZcFvHfYGH7EwGBRK@casper.infradead.org/); Mateusz Guzik on v1, "
    "2026-04-13 "
    "(https://lore.kernel.org/all/76pfiwabdgsej6q2yxfh3efuqvsyg7mt7rvl5itzzjyhdrto5r@53viaxsackzv/"
    "). Nobody built or measured it: nothing to compare with";
constexpr const char* kYibin =
    "Yibin Liu, RWH_RMAP_EXCLUDE, 2026-04-21: \"~80% improvement\" in execl on a Hygon 7490, an "
    "AMD Zen4 9754 and an Intel Emerald Rapids "
    "(https://lore-kernel.gnuweeb.org/linux-mm/aeikm2e5Gh5reJ30@lucifer/T/)";

}  // namespace

const std::vector<Observation>& Observation::all() {
    using M = Metric;
    static const std::vector<Observation> all = [] {
        std::vector<Observation> o;
        auto add = [&](Observation x) { o.push_back(std::move(x)); };
        add({"v1-hygon-384",
             "v1 (split trees, one lock) over today's kernel, 384 copies",
             "Hygon, 12 NUMA nodes, 384 CPUs",
             kHygon384,
             "Only the node and CPU counts are published: 2 packages x 6 nodes x 16 cores x 2 "
             "threads and the SLIT are ours (samples/topologies/README.md).",
             M::RatioOverSingle,
             "split-trees",
             384,
             {},
             false,
             1.77,
             Bound::About,
             "+77%",
             kThreadV1,
             "x"});
        add({"v2-hygon-384",
             "v2 (split trees and locks) over today's kernel, 384 copies",
             "Hygon, 12 NUMA nodes, 384 CPUs",
             kHygon384,
             "As above.",
             M::RatioOverSingle,
             "split-locks",
             384,
             {},
             false,
             5.0,
             Bound::AtLeast,
             "over +400%",
             kThreadV2,
             "x"});
        add({"no-rmap-hygon7490",
             "libc and ld.so out of rmap, over today's kernel, 256 copies",
             "Hygon C86 7490, 256 CPUs",
             kHygon7490,
             "The copy count (a \"256-core execl run\") is from the thread; 2 sockets x 4 dies "
             "(NUMA nodes) x 16 cores x 2 threads and a SLIT of 10/16/32 (EPYC 7001-like, which "
             "Hygon's dies derive from) are ours.",
             M::RatioOverSingle,
             "no-rmap",
             256,
             {},
             false,
             1.8,
             Bound::About,
             "~+80%",
             kYibin,
             "x"});
        add({"no-rmap-epyc9754",
             "libc and ld.so out of rmap, over today's kernel, 256 copies",
             "AMD EPYC 9754 (Zen 4c, 128 cores)",
             kEpyc9754,
             "One socket of 128 cores x 2 threads in NPS1 (one NUMA node) is the part's "
             "datasheet shape; the socket count and NPS setting were not published.",
             M::RatioOverSingle,
             "no-rmap",
             256,
             {},
             false,
             1.8,
             Bound::About,
             "~+80%",
             kYibin,
             "x"});
        add({"no-rmap-emr",
             "libc and ld.so out of rmap, over today's kernel, 256 copies",
             "Intel Emerald Rapids",
             kEmr256,
             "The model was not published: 2 sockets x 64 cores x 2 threads (a Xeon Platinum "
             "8592+, the largest part, to hold 256 copies) with SNC off and SLIT 10/21 are ours.",
             M::RatioOverSingle,
             "no-rmap",
             256,
             {},
             false,
             1.8,
             Bound::About,
             "~+80%",
             kYibin,
             "x"});
        add({"osq-emr-220",
             "share of CPU time in osq_lock, ./Run -c 220 execl",
             "Intel Emerald Rapids, 112 cores",
             kEmr224,
             "2 sockets x 56 cores x 2 threads, SNC off, SLIT 10/21 are ours. perf top's "
             "osq_lock share is compared with the model's share of the copies' CPU time spent "
             "spinning on i_mmap locks (OSQ queue and head together).",
             M::SpinShare,
             "single",
             220,
             {},
             false,
             91.53,
             Bound::About,
             "91.53%",
             "Yibin Liu, perf top in reply, 2026-04 (https://lkml.iu.edu/2604.2/11857.html)",
             "%"});
        add({"issue88-peak",
             "UnixBench execl: the copy count with the highest score",
             "Xeon Platinum 8369B, 128 CPUs",
             kXeon8369B,
             "2 sockets x 32 cores x 2 threads (Intel's datasheet for the part), SNC off, SLIT "
             "10/21. Copies 1, 2, 4, ... 128 as in the report.",
             M::PeakCopies,
             "single",
             0,
             {1, 2, 4, 8, 16, 32, 64, 128},
             false,
             16,
             Bound::About,
             "16 (11,968.8 lps)",
             "byte-unixbench issue 88, 2023 (https://github.com/kdlucas/byte-unixbench/issues/"
             "88)",
             "copies"});
        add({"issue88-fall",
             "UnixBench execl: score at 32 copies over 128",
             "Xeon Platinum 8369B, 128 CPUs",
             kXeon8369B,
             "As above.",
             M::RateRatio,
             "single",
             0,
             {32, 128},
             false,
             1.405,
             Bound::About,
             "10,793.9 / 7,682.8 = 1.40",
             "byte-unixbench issue 88, 2023 (https://github.com/kdlucas/byte-unixbench/issues/"
             "88)",
             "x"});
        add({"exit-batching",
             "exit batching (unlink_file_vma_batch) over one hold per VMA",
             "not published (\"20-ish cores\")",
             kGuzik,
             "The machine was not published: 1 socket x 24 cores x 2 threads, one copy per CPU "
             "(48), is ours. doexec.c execs distinct binaries with a shared loader: the "
             "executable is per copy, libc and ld.so shared.",
             M::UnlinkBatchGain,
             "single",
             48,
             {},
             true,
             1.04,
             Bound::About,
             "+4% (~50k to ~52k execs/s)",
             "Mateusz Guzik, \"mm: batch unlink_file_vma calls in free_pgd_range\", 2024 "
             "(https://lore.kernel.org/all/20240518062005.76129-1-mjguzik@gmail.com/)",
             "x"});
        add({"rwsem-cacheline",
             "i_mmap_rwsem moved off i_mmap's cache line, UnixBench execl",
             "2-socket Xeon Silver",
             kXeonSilver,
             "The model puts the lock word and the tree's nodes on separate lines: it has no "
             "false sharing between them to remove.",
             M::NotModelled,
             "single",
             0,
             {},
             false,
             1.0394,
             Bound::About,
             "+3.94%",
             "JonasZhou, \"fs/address_space: move i_mmap_rwsem to mitigate a false sharing with "
             "i_mmap\", 2024 "
             "(https://lore.kernel.org/all/20240202093407.12536-1-JonasZhou-oc@zhaoxin.com/)",
             "x"});
        // The review's other structure (issue 20): nothing published, so these are the lab's
        // predictions, with their bands, beside the measurements.
        add({"btree-hygon-384",
             "B-tree i_mmap (the structure alone) over today's kernel, 384 copies",
             "Hygon, 12 NUMA nodes, 384 CPUs",
             kHygon384,
             "As v1's. The B-tree's nodes are preallocated outside the lock and readers keep "
             "taking the rwsem (docs/simulator.md, \"The structure\").",
             M::RatioOverSingle,
             "btree",
             384,
             {},
             false,
             0,
             Bound::None,
             "nothing published",
             kWilcox,
             "x"});
        add({"btree-split-locks-hygon-384",
             "B-tree i_mmap with v2's split locks over today's kernel, 384 copies",
             "Hygon, 12 NUMA nodes, 384 CPUs",
             kHygon384,
             "As above.",
             M::RatioOverSingle,
             "btree+split-locks",
             384,
             {},
             false,
             0,
             Bound::None,
             "nothing published",
             kWilcox,
             "x"});
        return o;
    }();
    return all;
}

}  // namespace immap::sim
