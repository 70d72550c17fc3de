#pragma once
// What a source yields: processes with their parsed /proc files, the processes that could not
// be loaded and why, what loaded but may be incomplete, and the topology XML captured with them
// (if any).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "MapsParser.h"
#include "NumaMapsParser.h"
#include "StatParser.h"
#include "StatusParser.h"

namespace immap::procfs {

struct ProcessSnapshot {
    std::int64_t pid = 0;
    std::string comm;  // status Name, else stat comm, else "?"
    std::vector<MapsEntry> maps;
    std::vector<NumaMapsEntry> numaMaps;  // empty when not captured
    std::optional<ProcStatus> status;
    std::optional<ProcStat> stat;
};

struct SkippedProcess {
    std::int64_t pid = 0;
    std::string reason;  // e.g. "17513/maps:3: bad address range '...'" or "vanished"
};

struct Snapshot {
    std::string source;                      // where it came from, for messages and titles
    std::vector<ProcessSnapshot> processes;  // ascending pid
    std::vector<SkippedProcess> skipped;     // ascending pid
    // Loaded, but possibly not whole: a file whose last line has no newline (io::CutLine), an
    // archive without its end marker, an archive entry not read (a link). "FILE[:LINE]: reason";
    // the archive's own first, then by pid.
    std::vector<std::string> warnings;
    std::string topologyXml;  // lstopo XML captured alongside; empty if none
};

}  // namespace immap::procfs
