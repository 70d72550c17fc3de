// Source specs: "synthetic:" + input through SyntheticSpec::parse, generated when small; and the
// input as a maps file through HostLoader (snapshot, topology, HostMappings), as `maps:FILE`.
#include <cstdint>
#include <string>

#include "FuzzFile.h"
#include "mapping/HostLoader.h"
#include "procfs/ParseError.h"
#include "synth/SyntheticHost.h"
#include "topology/Topology.h"
#include "topology/TopologyError.h"

using namespace immap;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    static const topology::Topology topo =
        topology::Topology::fromSpec("synthetic:numa:2 core:2 pu:1");
    try {
        const synth::SyntheticSpec s = synth::SyntheticSpec::parse(text);
        // Bounded so that a valid spec cannot exhaust the fuzzer's memory by asking for it.
        if (s.processes <= 64 && (s.nodes == 0 || s.nodes == topo.nodes().size()))
            synth::SyntheticHost::generate(s, topo);
    } catch (const procfs::ParseError&) {
    } catch (const topology::TopologyError&) {
    }
    static fuzz::FuzzFile file("-maps");
    file.write(data, size);
    try {
        mapping::HostLoader::load("maps:" + file.path(), "synthetic:numa:2 core:2 pu:1");
    } catch (const procfs::ParseError&) {
    } catch (const topology::TopologyError&) {
    }
    return 0;
}
