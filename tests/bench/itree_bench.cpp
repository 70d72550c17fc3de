// Benchmark, not a test: libc.so.6's i_mmap on a 1,200-process host (6,000 VMAs), then
// 200,000 exec/exit churn ops, timed on the intrusive kernel-faithful tree and on
// std::multimap fed the same keys in the same process. Prints ns/op and the ratio; the ratio
// is the figure to trust on a shared, noisy machine.
//   itree_bench [--quick] [--processes P] [--ops N] [--seconds S]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "itree/LibcChurn.h"
#include "itree/TreeBench.h"

using namespace immap::itree;

int main(int argc, char** argv) {
    std::size_t processes = 1200, churnOps = 200000;
    double seconds = 2.0;
    for (int i = 1; i < argc; ++i) {
        const bool more = i + 1 < argc;
        if (!std::strcmp(argv[i], "--quick")) {
            processes = 120;
            churnOps = 2000;
            seconds = 0;
        } else if (!std::strcmp(argv[i], "--processes") && more) {
            processes = std::strtoull(argv[++i], nullptr, 10);
        } else if (!std::strcmp(argv[i], "--ops") && more) {
            churnOps = std::strtoull(argv[++i], nullptr, 10);
        } else if (!std::strcmp(argv[i], "--seconds") && more) {
            seconds = std::strtod(argv[++i], nullptr);
        } else {
            std::fprintf(stderr,
                         "usage: itree_bench [--quick] [--processes P] [--ops N] [--seconds S]\n");
            return 2;
        }
    }
    // Each exit+exec cycle is 10 ops: five removes, five inserts.
    const auto ops = LibcChurn::generate(processes, churnOps / 10, 42);
    BenchOptions options;
    options.minSeconds = seconds;
    options.untimedPrefix = processes * kLibcSegments.size();  // building the host is not timed
    BenchResult r;
    std::string error;
    if (!TreeBench::run(ops, options, r, error)) {
        std::fprintf(stderr, "itree_bench: %s\n", error.c_str());
        return 1;
    }
    using MapNode = std::multimap<std::pair<unsigned long, unsigned long>, unsigned>::value_type;
    std::printf(
        "libc-shaped i_mmap: %zu processes (%zu VMAs), then %zu churn ops (%zu inserts, "
        "%zu removes), %zu repetitions, medians\n",
        processes, processes * kLibcSegments.size(), r.inserts + r.removes, r.inserts, r.removes,
        r.repetitions);
    std::printf("%-10s %12s %12s %12s\n", "", "ns/insert", "ns/remove", "ns/op");
    std::printf("%-10s %12.1f %12.1f %12.1f\n", "itree", r.itree.nsPerInsert, r.itree.nsPerRemove,
                r.itree.nsPerOp);
    std::printf("%-10s %12.1f %12.1f %12.1f\n", "multimap", r.multimap.nsPerInsert,
                r.multimap.nsPerRemove, r.multimap.nsPerOp);
    std::printf("ratio itree/multimap: insert %.3f, remove %.3f, op %.3f (target: op <= 1)\n",
                r.itree.nsPerInsert / r.multimap.nsPerInsert,
                r.itree.nsPerRemove / r.multimap.nsPerRemove, r.ratio);
    std::printf(
        "tree linkage per node: %zu bytes (target <= 40; node with key %zu); multimap: a "
        "heap node of 4 words + %zu-byte value per element\n",
        r.linkageBytes, r.nodeBytes, sizeof(MapNode));
    return 0;
}
