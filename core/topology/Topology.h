#pragma once
// A machine's topology read through hwloc into plain structs, so nothing else needs hwloc:
// packages, NUMA nodes, L3 caches, cores, PUs and the NUMA distance matrix (SLIT units).
//
// Every object carries two indexes, as lstopo prints them:
//   logical (L#): hwloc's rank among objects of its type in topology order, dense from 0;
//   OS (P#): the kernel's number (cpuN, nodeN), what /proc and numa_maps use; may have gaps.
// PU lists are OS indexes in ascending order; references between objects (a PU's core, a node's
// package, ...) are logical indexes, -1 when there is none.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "topology/TopologyError.h"

struct hwloc_topology;  // hwloc_topology_t; only Topology.cpp includes hwloc

namespace immap::topology {

// hwloc's HWLOC_UNKNOWN_INDEX: an object without an OS index (some XML packages, groups).
inline constexpr unsigned kUnknownIndex = ~0u;

// include/linux/topology.h: LOCAL_DISTANCE and REMOTE_DISTANCE, used when there is no SLIT.
inline constexpr unsigned kLocalDistance = 10;
inline constexpr unsigned kRemoteDistance = 20;

struct Package {
    unsigned logicalIndex = 0;
    unsigned osIndex = kUnknownIndex;
    std::vector<unsigned> pus;  // OS indexes
};

struct NumaNode {
    unsigned logicalIndex = 0;
    unsigned osIndex = kUnknownIndex;
    int package = -1;               // logical package index
    std::uint64_t memoryBytes = 0;  // local memory
    // The PUs whose node this is (see Topology::nodeOfPu): the nodes partition the PUs, as the
    // kernel's node cpulists do, so a memory-only node (HBM, CXL) has none.
    std::vector<unsigned> pus;
};

struct L3Cache {
    unsigned logicalIndex = 0;
    unsigned osIndex = kUnknownIndex;
    std::uint64_t sizeBytes = 0;
    std::vector<unsigned> cores;  // logical core indexes sharing it
    std::vector<unsigned> pus;    // OS indexes
};

struct Core {
    unsigned logicalIndex = 0;
    unsigned osIndex = kUnknownIndex;
    std::vector<unsigned> pus;  // OS indexes (hyperthreads)
};

struct Pu {
    unsigned logicalIndex = 0;
    unsigned osIndex = kUnknownIndex;
    int core = -1;  // logical indexes, -1 when the topology has no such object above the PU
    int l3 = -1;
    int node = -1;
    int package = -1;
};

class Topology {
public:
    // SPEC (docs/architecture.md, "Sources"), all read by hwloc:
    //   host                      this machine
    //   xml:FILE                  an lstopo / hwloc XML export
    //   synthetic:DESC[;OPT]...   an hwloc synthetic string ("package:2 numa:6 core:16 pu:2")
    //     ;distances=D,D,...      the full N x N matrix, row-major in node logical order
    //     ;distances=L:S:R        L on the diagonal, S within a package, R across packages
    //     ;note=TEXT              kept as the root's "immap-lab" info (survives XML export)
    // Distances are in SLIT units: the diagonal 10, every entry 10..255.
    // Throws TopologyError naming the file (or the spec) and the reason.
    static Topology fromSpec(std::string_view spec);
    // An XML topology already in memory (a snapshot's topology.xml); errors and spec() name it
    // as NAME and xml:NAME.
    static Topology fromXmlString(const std::string& xml, const std::string& name);

    const std::string& spec() const { return spec_; }
    // The root object's "immap-lab" info, e.g. "assumed shape: ..."; empty when absent.
    const std::string& note() const { return note_; }

    const std::vector<Package>& packages() const { return packages_; }
    const std::vector<NumaNode>& nodes() const { return nodes_; }  // logical order
    const std::vector<L3Cache>& l3Caches() const { return l3_; }   // may be empty
    const std::vector<Core>& cores() const { return cores_; }
    const std::vector<Pu>& pus() const { return pus_; }  // logical order

    std::size_t nodeCount() const { return nodes_.size(); }
    // The logical index of the PU's NUMA node, -1 if no PU has that OS index.
    int nodeOfPu(unsigned puOsIndex) const;
    // The PU with that OS index, nullptr if none.
    const Pu* puByOsIndex(unsigned puOsIndex) const;

    // N x N, node logical order, SLIT units. Without a latency matrix in hwloc (one node, or a
    // machine or file without a SLIT) this is the kernel's default 10 local / 20 remote.
    const std::vector<std::vector<unsigned>>& distances() const { return distances_; }
    bool distancesAreDefault() const { return distancesDefault_; }

    // hwloc's XML export (v2 format), distances and note included; loads back with xml:FILE.
    std::string toXml() const;
    // Everything the model reads of the machine (packages, nodes with their memory, L3 caches,
    // cores, PUs with both indexes and links, the distance matrix), one object a line, in a
    // fixed order: equal for the same machine whatever spec or XML layout it came from, and
    // different when anything a simulation uses differs. The spec and the note are left out.
    std::string canonicalText() const;

private:
    Topology() = default;
    void readFrom(hwloc_topology* t);

    std::string spec_;
    std::string note_;
    std::shared_ptr<hwloc_topology> hw_;  // never modified after load, so copies share it
    std::vector<Package> packages_;
    std::vector<NumaNode> nodes_;
    std::vector<L3Cache> l3_;
    std::vector<Core> cores_;
    std::vector<Pu> pus_;
    std::unordered_map<unsigned, std::size_t> puByOs_;  // OS index -> position in pus_
    std::vector<std::vector<unsigned>> distances_;
    bool distancesDefault_ = true;
};

}  // namespace immap::topology
