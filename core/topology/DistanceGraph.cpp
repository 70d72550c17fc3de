#include "topology/DistanceGraph.h"

#include <map>

#include <boost/graph/circle_layout.hpp>
#include <boost/graph/kamada_kawai_spring_layout.hpp>
#include <boost/graph/topology.hpp>

#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>
#include <sstream>
#include <vector>

namespace immap::topology {

namespace {

constexpr const char* kNodeId = "node_id";

// One set of attribute names for writing and reading, so the two cannot drift apart.
boost::dynamic_properties properties(NodeGraph& g, bool forReading) {
    boost::dynamic_properties dp = forReading
                                       ? boost::dynamic_properties(boost::ignore_other_properties)
                                       : boost::dynamic_properties();
    dp.property(kNodeId, boost::get(&NodeVertex::id, g));
    dp.property("label", boost::get(&NodeVertex::label, g));
    dp.property("logical_index", boost::get(&NodeVertex::logicalIndex, g));
    dp.property("os_index", boost::get(&NodeVertex::osIndex, g));
    dp.property("pus", boost::get(&NodeVertex::puCount, g));
    dp.property("weight", boost::get(&DistanceEdge::weight, g));
    dp.property("label", boost::get(&DistanceEdge::label, g));
    dp.property("len", boost::get(&DistanceEdge::len, g));
    return dp;
}

}  // namespace

DistanceGraph::DistanceGraph(const Topology& topology) {
    const auto& nodes = topology.nodes();
    const auto& d = topology.distances();
    for (const NumaNode& n : nodes) {
        const std::string os = n.osIndex == kUnknownIndex ? "?" : std::to_string(n.osIndex);
        const std::string id = "N" + std::to_string(n.logicalIndex);
        boost::add_vertex(
            NodeVertex{id,
                       id + " (P#" + os + ", " + std::to_string(n.pus.size()) +
                           (n.pus.size() == 1 ? " PU)" : " PUs)"),
                       n.logicalIndex, n.osIndex, static_cast<unsigned>(n.pus.size())},
            graph_);
    }
    for (std::size_t a = 0; a < nodes.size(); ++a)
        for (std::size_t b = a + 1; b < nodes.size(); ++b) {
            // SLITs may be asymmetric; an undirected edge keeps a->b and shows both in the label.
            const unsigned w = d[a][b], back = d[b][a];
            const std::string label =
                w == back ? std::to_string(w) : std::to_string(w) + "/" + std::to_string(back);
            boost::add_edge(a, b, DistanceEdge{w, label, w / 10.0}, graph_);
        }
}

unsigned DistanceGraph::weight(std::size_t a, std::size_t b) const {
    if (a >= vertexCount() || b >= vertexCount()) return 0;
    const auto [e, found] = boost::edge(a, b, graph_);
    return found ? graph_[e].weight : 0;
}

std::string DistanceGraph::toDot() const {
    std::ostringstream out;
    // dynamic_properties wants mutable maps even for writing; writing does not modify them.
    NodeGraph& g = const_cast<NodeGraph&>(graph_);
    boost::write_graphviz_dp(out, g, properties(g, false), kNodeId);
    return out.str();
}

DistanceGraph DistanceGraph::read(const std::string& dot) {
    NodeGraph g;
    try {
        boost::dynamic_properties dp = properties(g, true);
        if (!boost::read_graphviz(dot, g, dp, kNodeId))
            throw TopologyError("DOT", "boost::read_graphviz failed");
    } catch (const TopologyError&) {
        throw;
    } catch (const std::exception& e) {
        throw TopologyError("DOT", e.what());
    }
    const std::size_t n = boost::num_vertices(g);
    std::vector<std::size_t> at(n, n);  // logical index -> vertex in g
    for (std::size_t v = 0; v < n; ++v) {
        const unsigned i = g[v].logicalIndex;
        if (i >= n || at[i] != n)
            throw TopologyError("DOT", "vertex logical_index values are not 0.." +
                                           std::to_string(n ? n - 1 : 0) + " each once");
        at[i] = v;
    }
    DistanceGraph out;
    for (std::size_t i = 0; i < n; ++i)
        boost::add_vertex(g[at[i]], out.graph_);
    for (auto [it, end] = boost::edges(g); it != end; ++it)
        boost::add_edge(g[boost::source(*it, g)].logicalIndex,
                        g[boost::target(*it, g)].logicalIndex, g[*it], out.graph_);
    return out;
}

std::vector<std::pair<double, double>> DistanceGraph::layout() const {
    const std::size_t n = vertexCount();
    std::vector<std::pair<double, double>> out(n, {0.0, 0.0});
    if (n < 2) return out;
    if (n == 2) {
        out[0] = {-0.5, 0};
        out[1] = {0.5, 0};
        return out;
    }
    using Topo = boost::square_topology<>;
    using Point = Topo::point_type;
    std::vector<Point> points(n);
    auto position =
        boost::make_iterator_property_map(points.begin(), boost::get(boost::vertex_index, graph_));
    boost::circle_graph_layout(graph_, position, 1.0);
    // Spring lengths: the SLIT distance in units of the local distance.
    std::map<NodeGraph::edge_descriptor, double> byEdge;
    for (auto [e, end] = boost::edges(graph_); e != end; ++e)
        byEdge[*e] = graph_[*e].weight / 10.0;
    auto weight = boost::make_assoc_property_map(byEdge);
    // Symmetric matrices (every distance equal, say) can keep the iteration from settling:
    // stop at a small energy change or after a bounded number of steps, whichever comes first.
    struct Done {
        int* steps;
        bool operator()(double delta, NodeGraph::vertex_descriptor, const NodeGraph&, bool) const {
            return ++*steps > 20000 || delta < 1e-4;
        }
    };
    int steps = 0;
    const bool ok = boost::kamada_kawai_spring_layout(graph_, position, weight, Topo(),
                                                      boost::side_length(1.0), Done{&steps});
    if (!ok) boost::circle_graph_layout(graph_, position, 0.5);
    // Normalise into [-0.5, 0.5]^2 so views need not know the layout's scale.
    double minX = 1e300, maxX = -1e300, minY = 1e300, maxY = -1e300;
    for (const Point& p : points) {
        minX = std::min(minX, p[0]);
        maxX = std::max(maxX, p[0]);
        minY = std::min(minY, p[1]);
        maxY = std::max(maxY, p[1]);
    }
    const double span = std::max({maxX - minX, maxY - minY, 1e-9});
    for (std::size_t i = 0; i < n; ++i)
        out[i] = {(points[i][0] - (minX + maxX) / 2) / span,
                  (points[i][1] - (minY + maxY) / 2) / span};
    return out;
}

}  // namespace immap::topology
