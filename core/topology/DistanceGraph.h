#pragma once
// The NUMA nodes of a Topology as a Boost.Graph: one vertex per node (vertex i = node logical
// index i), one edge between every pair weighted by their SLIT distance. For graph layouts and
// the GraphViz view of the distance matrix; write with toDot(), read back with read().

#include <boost/graph/adjacency_list.hpp>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "topology/Topology.h"

namespace immap::topology {

struct NodeVertex {
    std::string id;     // DOT node id, "N<logical index>"
    std::string label;  // "N0 (P#0, 32 PUs)"
    unsigned logicalIndex = 0;
    unsigned osIndex = kUnknownIndex;
    unsigned puCount = 0;
};

struct DistanceEdge {
    unsigned weight = 0;  // distance from the lower-numbered node to the higher one
    std::string label;    // the weight, or "a/b" when the matrix is not symmetric
    double len = 0;       // GraphViz neato's preferred length: weight / 10 (10 = local)
};

using NodeGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, NodeVertex, DistanceEdge>;

class DistanceGraph {
public:
    explicit DistanceGraph(const Topology& topology);

    const NodeGraph& graph() const { return graph_; }
    std::size_t vertexCount() const { return boost::num_vertices(graph_); }
    // The edge weight between nodes a and b (logical), 0 when there is no such edge or a == b.
    unsigned weight(std::size_t a, std::size_t b) const;

    // Kamada-Kawai spring layout (Boost.Graph): one point per node, edge lengths proportional
    // to distance, in a square of side 1 centred on the origin. Deterministic (circle start).
    std::vector<std::pair<double, double>> layout() const;

    // An undirected GraphViz graph: vertex attributes label, logical_index, os_index, pus;
    // edge attributes weight, label, len.
    std::string toDot() const;
    // Reads toDot()'s output (other attributes are ignored); vertices are put back in
    // logical_index order. Throws TopologyError on malformed DOT or indexes that are not 0..N-1.
    static DistanceGraph read(const std::string& dot);

private:
    DistanceGraph() = default;
    NodeGraph graph_;
};

}  // namespace immap::topology
