#include "FileSummary.h"

#include "FileMapping.h"

namespace immap::mapping {

FileSummary FileSummary::of(const MappedFile& f, const topology::Topology& topo) {
    FileSummary s;
    s.file = &f;
    for (const Vma& v : f.vmas) {
        ++s.nodes[v.homeNode];
        ++s.evidence[static_cast<std::size_t>(v.evidence)];
    }
    s.singleHeight = FileMapping(f, topo, Policy{}).stats(0).height;
    const FileMapping split(f, topo, Policy{Policy::Kind::SplitTrees, 0});
    for (std::size_t i = 0; i < split.treeCount(); ++i)
        s.splitHeights.push_back(split.stats(i).height);
    return s;
}

}  // namespace immap::mapping
