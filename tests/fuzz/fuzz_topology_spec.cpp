// Topology specs: the input as "synthetic:DESC[;distances=...][;note=...]", and as hwloc XML
// (what xml:FILE and a snapshot's topology.xml go through).
#include <cstdint>
#include <string>

#include "topology/Topology.h"
#include "topology/TopologyError.h"

using namespace immap::topology;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)Topology::fromSpec("synthetic:" + text).distances();
    } catch (const TopologyError&) {
    }
    try {
        (void)Topology::fromXmlString(text, "fuzz").distances();
    } catch (const TopologyError&) {
    }
    return 0;
}
