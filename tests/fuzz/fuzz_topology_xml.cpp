// Topology XML alone (xml:FILE, a snapshot's topology.xml): Topology::fromXmlString, whose
// libxml2 check runs before hwloc. Run it under both of hwloc's importers: as it is (libxml2,
// with libhwloc-plugins) and with HWLOC_LIBXML_IMPORT=0 (the built-in one, which crashed on
// truncated files before the check). topology_xml.dict holds hwloc's element and attribute names.
#include <cstdint>
#include <string>

#include "topology/Topology.h"
#include "topology/TopologyError.h"

using namespace immap::topology;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const Topology t = Topology::fromXmlString(text, "fuzz");
        (void)t.distances();
        (void)t.toXml();
    } catch (const TopologyError&) {
    }
    return 0;
}
