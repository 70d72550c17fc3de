#include "TopologyCommand.h"

#include "CliCommand.h"
#include "InputErrors.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>

#include "topology/DistanceGraph.h"
#include "topology/Topology.h"

namespace immap::cli {

using namespace immap::topology;

namespace {

// "0-31,64-95" for a sorted list, as the kernel prints cpulists.
std::string ranges(const std::vector<unsigned>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i;
        while (j + 1 < v.size() && v[j + 1] == v[j] + 1)
            ++j;
        if (!out.empty()) out += ',';
        out += std::to_string(v[i]);
        if (j > i) out += '-' + std::to_string(v[j]);
        i = j + 1;
    }
    return out.empty() ? "none" : out;
}

std::string os(unsigned index) {
    return index == kUnknownIndex ? "?" : std::to_string(index);
}

std::string bytes(std::uint64_t b) {
    if (b == 0) return "memory unknown";
    char buf[32];
    if (b >= (1ull << 30))
        std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(b) / (1ull << 30));
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1ull << 20));
    return buf;
}

std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + ' ' + (n == 1 ? one : many);
}

std::string text(const Topology& t) {
    std::ostringstream o;
    o << "Topology: " << t.spec() << '\n';
    if (!t.note().empty()) o << "Note: " << t.note() << '\n';
    o << plural(t.packages().size(), "package", "packages") << ", "
      << plural(t.nodeCount(), "NUMA node", "NUMA nodes") << ", "
      << plural(t.cores().size(), "core", "cores") << ", " << plural(t.pus().size(), "PU", "PUs")
      << ", "
      << (t.l3Caches().empty() ? "no L3 caches"
                               : plural(t.l3Caches().size(), "L3 cache", "L3 caches"))
      << "\nL# is hwloc's logical index (topology order, from 0); P# is the OS index (cpuN, nodeN, "
         "as /proc numbers them).\n";

    if (!t.packages().empty()) o << "\nPackages\n";
    for (const Package& p : t.packages()) {
        std::vector<unsigned> nodes;
        for (const NumaNode& n : t.nodes())
            if (n.package == static_cast<int>(p.logicalIndex)) nodes.push_back(n.logicalIndex);
        std::set<int> cores;
        for (const Pu& pu : t.pus())
            if (pu.package == static_cast<int>(p.logicalIndex) && pu.core >= 0)
                cores.insert(pu.core);
        o << "  Package L#" << p.logicalIndex << " P#" << os(p.osIndex) << ": nodes L#"
          << ranges(nodes) << ", " << plural(cores.size(), "core", "cores") << ", "
          << plural(p.pus.size(), "PU", "PUs") << " P#" << ranges(p.pus) << '\n';
    }

    o << "\nNUMA nodes\n";
    for (const NumaNode& n : t.nodes()) {
        o << "  Node L#" << n.logicalIndex << " P#" << os(n.osIndex) << ": ";
        if (n.package >= 0) o << "package L#" << n.package << ", ";
        o << bytes(n.memoryBytes) << ", " << plural(n.pus.size(), "PU", "PUs");
        if (!n.pus.empty()) o << " P#" << ranges(n.pus);
        o << '\n';
    }

    if (!t.l3Caches().empty()) o << "\nL3 caches\n";
    for (const L3Cache& c : t.l3Caches())
        o << "  L3 L#" << c.logicalIndex << " (" << bytes(c.sizeBytes) << "): cores L#"
          << ranges(c.cores) << ", PUs P#" << ranges(c.pus) << '\n';

    o << "\nDistances (SLIT units, rows and columns in node L# order; "
      << (t.distancesAreDefault()
              ? "no matrix in the topology, so the kernel's default: 10 local, 20 remote)\n"
              : "from the topology)\n");
    const auto& d = t.distances();
    o << "      ";
    for (std::size_t j = 0; j < d.size(); ++j)
        o << std::setw(5) << ("L#" + std::to_string(j));
    o << '\n';
    for (std::size_t i = 0; i < d.size(); ++i) {
        o << "  " << std::left << std::setw(4) << ("L#" + std::to_string(i)) << std::right;
        for (unsigned v : d[i])
            o << std::setw(5) << v;
        o << '\n';
    }
    return o.str();
}

qint64 jsonIndex(unsigned index) {
    return index == kUnknownIndex ? -1 : qint64(index);
}

QJsonArray array(const std::vector<unsigned>& v) {
    QJsonArray a;
    for (unsigned x : v)
        a.append(static_cast<qint64>(x));
    return a;
}

std::string json(const Topology& t) {
    QJsonArray nodes;
    for (const NumaNode& n : t.nodes())
        nodes.append(QJsonObject{{"os_index", jsonIndex(n.osIndex)},
                                 {"logical_index", static_cast<qint64>(n.logicalIndex)},
                                 {"package", n.package},
                                 {"memory_bytes", static_cast<qint64>(n.memoryBytes)},
                                 {"pus", array(n.pus)}});
    QJsonArray distances;
    for (const auto& row : t.distances())
        distances.append(array(row));
    const QJsonObject out{
        {"spec", QString::fromStdString(t.spec())},
        {"note", QString::fromStdString(t.note())},
        {"packages", static_cast<qint64>(t.packages().size())},
        {"l3_caches", static_cast<qint64>(t.l3Caches().size())},
        {"cores", static_cast<qint64>(t.cores().size())},
        {"pus", static_cast<qint64>(t.pus().size())},
        {"nodes", nodes},
        {"distances", distances},
        {"distances_default", t.distancesAreDefault()},
    };
    return QJsonDocument(out).toJson(QJsonDocument::Indented).toStdString();
}

}  // namespace

int topologyShow(const QStringList& args) {
    CliCommand p("topology show", "Show a machine topology read through hwloc.");
    p.addOption({"json", "Print JSON."});
    p.addOption({"dot", "Print the NUMA distance graph as GraphViz DOT."});
    p.addOption({"xml", "Print hwloc's XML export (loads back with xml:FILE)."});
    p.addPositional("SPEC",
                    "host, xml:FILE or synthetic:DESC[;distances=D,D,...|L:S:R][;note=TEXT]");
    if (auto rc = p.parse(args)) return *rc;
    if (int(p.isSet("json")) + int(p.isSet("dot")) + int(p.isSet("xml")) > 1)
        return p.usageError("--json, --dot and --xml exclude each other");
    try {
        const Topology t = Topology::fromSpec(p.positionalArguments().first().toStdString());
        if (p.isSet("json"))
            std::cout << json(t);
        else if (p.isSet("dot"))
            std::cout << DistanceGraph(t).toDot();
        else if (p.isSet("xml"))
            std::cout << t.toXml();
        else
            std::cout << text(t);
    } catch (const TopologyError& e) {
        std::cerr << "immap topology: " << e.what() << '\n';
        return kBadInput;
    }
    return 0;
}

}  // namespace immap::cli
