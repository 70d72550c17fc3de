#include "TreeDot.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>
#include <cstdio>
#include <sstream>
#include <unordered_map>

#include "FileMapping.h"

namespace immap::mapping {

namespace {

struct VertexProps {
    std::string name, label, shape, style, fillcolor, fontcolor;
};
struct EdgeProps {
    std::string style;
};
using Graph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, VertexProps, EdgeProps>;

std::string hex(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

std::string TreeDot::write(const FileMapping& m) {
    Graph g;
    for (std::size_t t = 0; t < m.treeCount(); ++t) {
        const itree::IntervalTree& tree = m.tree(t);
        const std::string title =
            m.policy().kind == Policy::Kind::Single
                ? m.file().name() + " (" + std::to_string(tree.size()) + " VMAs)"
                : "tree " + std::to_string(t) + " (" + std::to_string(tree.size()) + " VMAs)";
        const auto head = boost::add_vertex(
            VertexProps{"t" + std::to_string(t), title, "box", "solid", "white", "black"}, g);
        if (!tree.root()) continue;
        std::unordered_map<const itree::Node*, Graph::vertex_descriptor> ids;
        std::vector<const itree::Node*> stack{tree.root()};
        while (!stack.empty()) {
            const itree::Node* n = stack.back();
            stack.pop_back();
            const Vma& v = FileMapping::vmaOf(n);
            const bool red = n->isRed();
            const auto id = boost::add_vertex(
                VertexProps{"t" + std::to_string(t) + "n" + std::to_string(ids.size()),
                            "pid " + std::to_string(v.pid) + "\\n[" + hex(n->start) + ", " +
                                hex(n->last) + "]\\nmax " + hex(n->subtreeLast()),
                            "ellipse", "filled", red ? "red" : "black", "white"},
                g);
            ids[n] = id;
            if (n->parent()) {
                boost::add_edge(ids.at(n->parent()), id, EdgeProps{"solid"}, g);
            } else {
                boost::add_edge(head, id, EdgeProps{"dashed"}, g);
            }
            // Right first so that the left child is added (and drawn) first.
            if (n->right()) stack.push_back(n->right());
            if (n->left()) stack.push_back(n->left());
        }
    }
    boost::dynamic_properties dp;
    dp.property("node_id", boost::get(&VertexProps::name, g));
    dp.property("label", boost::get(&VertexProps::label, g));
    dp.property("shape", boost::get(&VertexProps::shape, g));
    dp.property("style", boost::get(&VertexProps::style, g));
    dp.property("fillcolor", boost::get(&VertexProps::fillcolor, g));
    dp.property("fontcolor", boost::get(&VertexProps::fontcolor, g));
    dp.property("style", boost::get(&EdgeProps::style, g));
    std::ostringstream out;
    boost::write_graphviz_dp(out, g, dp);
    return out.str();
}

}  // namespace immap::mapping
