#include "HostLoader.h"

#include "procfs/ParseError.h"
#include "procfs/SnapshotLoader.h"
#include "synth/SyntheticHost.h"

namespace immap::mapping {

namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

LoadedHost HostLoader::load(std::string_view spec, const std::string& topologySpec,
                            const std::atomic<bool>* cancel) {
    LoadedHost host;
    host.source = std::string(spec);
    auto given = [&] {
        host.topology =
            std::make_unique<topology::Topology>(topology::Topology::fromSpec(topologySpec));
        host.topologyOrigin = "given: " + topologySpec;
    };
    if (startsWith(spec, "synthetic:")) {
        const synth::SyntheticSpec s = synth::SyntheticSpec::parse(spec.substr(10));
        if (!topologySpec.empty()) {
            given();
        } else {
            const std::size_t nodes = s.nodes ? s.nodes : 1;
            const std::string t = "synthetic:numa:" + std::to_string(nodes) + " core:32 pu:1";
            host.topology = std::make_unique<topology::Topology>(topology::Topology::fromSpec(t));
            host.topologyOrigin = "assumed: " + std::to_string(nodes) +
                                  " nodes of 32 single-thread cores, default distances (" + t + ")";
        }
        host.snapshot = synth::SyntheticHost::generate(s, *host.topology, cancel);
    } else {
        if (startsWith(spec, "maps:")) {
            host.snapshot = procfs::SnapshotLoader::loadMapsFile(std::string(spec.substr(5)));
        } else if (startsWith(spec, "snapshot:")) {
            host.snapshot = procfs::SnapshotLoader::load(std::string(spec.substr(9)), cancel);
        } else if (spec == "live") {
            host.snapshot = procfs::SnapshotLoader::loadLive("/proc", cancel);
        } else if (startsWith(spec, "trace:")) {
            throw procfs::ParseError(std::string(spec), 0, "trace sources are not supported yet");
        } else {
            throw procfs::ParseError(
                std::string(spec), 0,
                "unknown source (expected maps:FILE, snapshot:DIR|ARCHIVE, live "
                "or synthetic:libc?processes=P&nodes=N&seed=S)");
        }
        if (!topologySpec.empty()) {
            given();
        } else if (!host.snapshot.topologyXml.empty()) {
            host.topology = std::make_unique<topology::Topology>(topology::Topology::fromXmlString(
                host.snapshot.topologyXml, host.snapshot.source + "/topology.xml"));
            host.topologyOrigin = "the snapshot's topology.xml";
        } else {
            host.topology =
                std::make_unique<topology::Topology>(topology::Topology::fromSpec("host"));
            host.topologyOrigin =
                spec == "live" ? "this host" : "this host (the source has no topology.xml)";
        }
    }
    host.mappings = HostMappings::build(host.snapshot, *host.topology, cancel);
    return host;
}

}  // namespace immap::mapping
