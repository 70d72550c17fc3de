#pragma once
// A hand-made file for session tests: VMAs with chosen intervals and nodes on a 2-node machine,
// so expected tree shapes can be worked out by hand.

#include <memory>
#include <utility>
#include <vector>

#include "session/ProcessRecipe.h"
#include "session/TreeSet.h"
#include "topology/Topology.h"

namespace immap::test {

struct SmallSet {
    topology::Topology topo = topology::Topology::fromSpec("synthetic:numa:2 core:2 pu:1");
    mapping::HostMappings host;
    mapping::MappedFile file;
    std::unique_ptr<session::TreeSet> set;

    // (first, last, node) per VMA, pid 100 + index.
    explicit SmallSet(const std::vector<std::tuple<itree::Index, itree::Index, int>>& vmas) {
        file.path = "/lib/test.so";
        int k = 0;
        for (const auto& [first, last, node] : vmas)
            file.vmas.push_back(vma(100 + k++, first, last, node));
        set = std::make_unique<session::TreeSet>(
            file, host, topo, mapping::Policy{mapping::Policy::Kind::SplitTrees, 0});
    }
    static mapping::Vma vma(std::int64_t pid, itree::Index first, itree::Index last, int node) {
        return session::ExecRecipe::vma(pid, node, first, last - first + 1, "r--p");
    }
    static session::TreeOp insertOp(std::int64_t pid, itree::Index first, itree::Index last,
                                    int node) {
        session::TreeOp op;
        op.vma = vma(pid, first, last, node);
        op.comm = "t";
        return op;
    }
};

}  // namespace immap::test
