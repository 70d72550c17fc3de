#include <algorithm>
#include <vector>

#include "sim/Simulator.h"
#include "topology/Topology.h"

namespace immap::sim {

std::vector<unsigned> placeCopies(const topology::Topology& topo, unsigned copies) {
    // Each node's PUs, first threads of every core before any second thread.
    std::vector<std::vector<unsigned>> perNode;
    std::vector<int> nodePackage;
    auto orderPus = [&](const std::vector<unsigned>& pus) {
        std::vector<std::pair<unsigned, unsigned>> keyed;  // (thread rank in core, logical PU)
        for (unsigned os : pus) {
            const topology::Pu* pu = topo.puByOsIndex(os);
            unsigned rank = 0;
            if (pu && pu->core >= 0) {
                const auto& siblings = topo.cores()[static_cast<std::size_t>(pu->core)].pus;
                rank = static_cast<unsigned>(std::find(siblings.begin(), siblings.end(), os) -
                                             siblings.begin());
            }
            keyed.push_back({rank, pu ? pu->logicalIndex : os});
        }
        std::vector<std::size_t> idx(pus.size());
        for (std::size_t i = 0; i < idx.size(); ++i)
            idx[i] = i;
        std::stable_sort(idx.begin(), idx.end(),
                         [&](std::size_t a, std::size_t b) { return keyed[a] < keyed[b]; });
        std::vector<unsigned> out;
        for (std::size_t i : idx)
            out.push_back(pus[i]);
        return out;
    };
    for (const topology::NumaNode& n : topo.nodes()) {
        if (n.pus.empty()) continue;  // memory-only nodes run nothing
        perNode.push_back(orderPus(n.pus));
        nodePackage.push_back(n.package);
    }
    if (perNode.empty()) {
        std::vector<unsigned> all;
        for (const topology::Pu& pu : topo.pus())
            all.push_back(pu.osIndex);
        perNode.push_back(orderPus(all));
        nodePackage.push_back(0);
    }
    // Node visiting order: the first node of each package, then the second of each, ... so
    // consecutive copies land on different packages as well as different nodes.
    std::vector<std::size_t> nodeOrder(perNode.size());
    {
        std::vector<int> seenInPackage(perNode.size(), 0);
        std::vector<std::pair<std::pair<int, int>, std::size_t>> keyed;
        std::vector<int> countPerPackage;
        for (std::size_t i = 0; i < perNode.size(); ++i) {
            const int pkg = std::max(0, nodePackage[i]);
            if (static_cast<std::size_t>(pkg) >= countPerPackage.size())
                countPerPackage.resize(static_cast<std::size_t>(pkg) + 1, 0);
            keyed.push_back({{countPerPackage[static_cast<std::size_t>(pkg)]++, pkg}, i});
        }
        std::stable_sort(keyed.begin(), keyed.end());
        for (std::size_t i = 0; i < keyed.size(); ++i)
            nodeOrder[i] = keyed[i].second;
    }
    // The global spreading order: one PU per node per round.
    std::vector<unsigned> order;
    for (std::size_t round = 0;; ++round) {
        bool any = false;
        for (std::size_t n : nodeOrder) {
            if (round < perNode[n].size()) {
                order.push_back(perNode[n][round]);
                any = true;
            }
        }
        if (!any) break;
    }
    std::vector<unsigned> cpus(copies);
    for (unsigned i = 0; i < copies; ++i)
        cpus[i] = order[i % order.size()];
    return cpus;
}

}  // namespace immap::sim
