#pragma once
// Turns a source spec (docs/architecture.md, "Sources", the same in GUI and CLI) and an optional
// topology spec into a loaded host: the snapshot, the topology it is placed on, and its file
// mappings.
//   maps:FILE | snapshot:DIR | snapshot:FILE.tar[.gz] | live |
//   synthetic:libc?processes=P&nodes=N&seed=S
// Topology: the one given; else the snapshot's own topology.xml; else, for a synthetic host,
// N nodes of 32 single-thread cores with the kernel's default distances; else this host.

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

#include "HostMappings.h"
#include "procfs/Snapshot.h"
#include "topology/Topology.h"

namespace immap::mapping {

struct LoadedHost {
    std::string source;  // the spec as given
    procfs::Snapshot snapshot;
    std::unique_ptr<topology::Topology> topology;
    std::string topologyOrigin;  // says where the topology came from, for the UI
    HostMappings mappings;
};

class HostLoader {
public:
    // Throws procfs::ParseError for a bad spec or an unloadable source, and
    // topology::TopologyError for a bad topology; both name the file and the reason. With
    // `cancel`, polls it between processes and throws limits::Cancelled once it is raised.
    static LoadedHost load(std::string_view sourceSpec, const std::string& topologySpec = {},
                           const std::atomic<bool>* cancel = nullptr);
};

}  // namespace immap::mapping
