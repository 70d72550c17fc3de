// The Boost.Graph view of NUMA distances: one vertex per node, an edge per pair weighted by the
// distance, and DOT that boost::read_graphviz (not only our own reader) parses back.
#include <QTest>
#include <algorithm>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>
#include <cmath>
#include <map>

#include "Suites.h"
#include "topology/DistanceGraph.h"

using namespace immap::topology;

namespace {

const char* kHygon = "synthetic:package:2 numa:6 core:16 pu:2;distances=10:12:32";

unsigned expected(std::size_t i, std::size_t j) {
    return i == j ? 10 : i / 6 == j / 6 ? 12 : 32;
}

// A plain graph with only the attributes a GraphViz user would read.
struct PlainVertex {
    std::string id;
    std::string label;
};
struct PlainEdge {
    unsigned weight = 0;
};
using Plain =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, PlainVertex, PlainEdge>;

Plain parse(const std::string& dot) {
    Plain g;
    boost::dynamic_properties dp(boost::ignore_other_properties);
    dp.property("node_id", boost::get(&PlainVertex::id, g));
    dp.property("label", boost::get(&PlainVertex::label, g));
    dp.property("weight", boost::get(&PlainEdge::weight, g));
    if (!boost::read_graphviz(dot, g, dp, "node_id")) throw std::runtime_error("read_graphviz");
    return g;
}

}  // namespace

class TestDistanceGraph : public QObject {
    Q_OBJECT

private slots:
    // Kamada-Kawai: the 12-node shape's packages come out as two clusters; equal distances
    // (the kernel's 10/20 default, which can keep the iteration from settling) still finish.
    void layoutSeparatesPackagesAndFinishes() {
        const Topology t =
            Topology::fromSpec("synthetic:package:2 numa:6 core:2 pu:1;distances=10:12:32");
        const auto pos = DistanceGraph(t).layout();
        QCOMPARE(pos.size(), std::size_t{12});
        double same = 0, other = 0;
        int ns = 0, no = 0;
        for (std::size_t a = 0; a < 12; ++a)
            for (std::size_t b = a + 1; b < 12; ++b) {
                const double d =
                    std::hypot(pos[a].first - pos[b].first, pos[a].second - pos[b].second);
                (t.nodes()[a].package == t.nodes()[b].package ? same : other) += d;
                ++(t.nodes()[a].package == t.nodes()[b].package ? ns : no);
            }
        QVERIFY(same / ns < 0.5 * other / no);
        for (const char* spec : {"synthetic:numa:4 core:2 pu:1", "synthetic:numa:8 core:1 pu:1"}) {
            const auto p = DistanceGraph(Topology::fromSpec(spec)).layout();
            for (std::size_t a = 0; a < p.size(); ++a)
                for (std::size_t b = a + 1; b < p.size(); ++b)
                    QVERIFY(std::hypot(p[a].first - p[b].first, p[a].second - p[b].second) > 1e-3);
        }
    }

    void everyPairWeightedByDistance() {
        const DistanceGraph g(Topology::fromSpec(kHygon));
        QCOMPARE(g.vertexCount(), std::size_t(12));
        QCOMPARE(boost::num_edges(g.graph()), std::size_t(12 * 11 / 2));
        for (std::size_t i = 0; i < 12; ++i) {
            QCOMPARE(g.graph()[i].logicalIndex, unsigned(i));
            QCOMPARE(g.graph()[i].osIndex, unsigned(i));
            QCOMPARE(g.graph()[i].puCount, 32u);
            for (std::size_t j = 0; j < 12; ++j)
                QCOMPARE(g.weight(i, j), i == j ? 0u : expected(i, j));
        }
        QCOMPARE(g.graph()[0].label, std::string("N0 (P#0, 32 PUs)"));
        QCOMPARE(g.weight(0, 12), 0u);
    }

    void dotParsesBackWithBoost() {
        const DistanceGraph g(Topology::fromSpec(kHygon));
        const std::string dot = g.toDot();
        QVERIFY2(dot.starts_with("graph G {"), dot.c_str());
        QVERIFY2(dot.find("N11 [label=\"N11 (P#11, 32 PUs)\"") != std::string::npos, dot.c_str());
        const Plain p = parse(dot);
        QCOMPARE(boost::num_vertices(p), std::size_t(12));
        QCOMPARE(boost::num_edges(p), std::size_t(66));
        std::map<std::string, std::size_t> index;  // "N<i>" -> i, independent of file order
        for (std::size_t v = 0; v < 12; ++v)
            index[p[v].id] = std::stoul(p[v].id.substr(1));
        QCOMPARE(index.size(), std::size_t(12));
        for (auto [it, end] = boost::edges(p); it != end; ++it) {
            const std::size_t a = index[p[boost::source(*it, p)].id];
            const std::size_t b = index[p[boost::target(*it, p)].id];
            QCOMPARE(p[*it].weight, expected(a, b));
        }
    }

    void readRecoversTheGraph() {
        const DistanceGraph g(Topology::fromSpec(kHygon));
        const DistanceGraph back = DistanceGraph::read(g.toDot());
        QCOMPARE(back.vertexCount(), std::size_t(12));
        for (std::size_t i = 0; i < 12; ++i) {
            QCOMPARE(back.graph()[i].label, g.graph()[i].label);
            QCOMPARE(back.graph()[i].puCount, 32u);
            for (std::size_t j = 0; j < 12; ++j)
                QCOMPARE(back.weight(i, j), g.weight(i, j));
        }
        QCOMPARE(back.toDot(), g.toDot());
    }

    void readPutsVerticesInLogicalOrder() {
        const DistanceGraph g(Topology::fromSpec("synthetic:numa:3 pu:1;distances=10:12:32"));
        std::string dot = g.toDot();
        // Move N0's line after N2's: the reader must not depend on file order.
        const std::size_t n0 = dot.find("N0 [");
        const std::string line = dot.substr(n0, dot.find('\n', n0) - n0 + 1);
        dot.erase(n0, line.size());
        dot.insert(dot.find('\n', dot.find("N2 [")) + 1, line);
        const DistanceGraph back = DistanceGraph::read(dot);
        QCOMPARE(back.graph()[0].id, std::string("N0"));
        QCOMPARE(back.graph()[2].id, std::string("N2"));
        QCOMPARE(back.weight(0, 2), 12u);  // no packages: all nodes count as one package
    }

    void asymmetricDistancesShowBothWays() {
        const DistanceGraph g(Topology::fromSpec("synthetic:numa:2 pu:1;distances=10,11,12,10"));
        QCOMPARE(g.weight(0, 1), 11u);
        const auto [e, found] = boost::edge(0, 1, g.graph());
        QVERIFY(found);
        QCOMPARE(g.graph()[e].label, std::string("11/12"));
    }

    void singleNodeHasNoEdges() {
        const DistanceGraph g(Topology::fromSpec("synthetic:core:2 pu:2"));
        QCOMPARE(g.vertexCount(), std::size_t(1));
        QCOMPARE(boost::num_edges(g.graph()), std::size_t(0));
        QCOMPARE(g.graph()[0].label, std::string("N0 (P#0, 4 PUs)"));
        QCOMPARE(boost::num_vertices(parse(g.toDot())), std::size_t(1));
    }

    void malformedDotThrows_data() {
        QTest::addColumn<QString>("dot");
        QTest::addColumn<QString>("reason");
        QTest::newRow("syntax") << "graph G { N0 -- }"
                                << "";
        QTest::newRow("directed") << "digraph G { N0 -> N1; }"
                                  << "";
        QTest::newRow("bad weight")
            << "graph G { N0 [logical_index=0]; N1 [logical_index=1]; N0 -- N1 [weight=far]; }"
            << "";
        QTest::newRow("duplicate index")
            << "graph G { N0 [logical_index=0]; N1 [logical_index=0]; }"
            << "logical_index values are not 0..1 each once";
    }
    void malformedDotThrows() {
        QFETCH(QString, dot);
        QFETCH(QString, reason);
        try {
            DistanceGraph::read(dot.toStdString());
            QFAIL("read");
        } catch (const TopologyError& e) {
            QCOMPARE(e.where(), std::string("DOT"));
            QVERIFY2(e.reason().find(reason.toStdString()) != std::string::npos, e.what());
            QVERIFY(!e.reason().empty());
        }
    }
};

IMMAP_TEST_SUITE(TestDistanceGraph);
#include "TestDistanceGraph.moc"
