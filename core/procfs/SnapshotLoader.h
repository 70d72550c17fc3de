#pragma once
// Loads snapshots laid out like /proc (PID/maps plus optional numa_maps, status, stat, and
// topology.xml at the top): a directory, a .tar/.tar.gz read in memory, one maps file, or the
// live /proc. A process whose files are broken, unreadable or gone is skipped with the reason;
// the rest loads. Problems with the source as a whole throw ParseError naming it.

#include <atomic>
#include <cstdint>
#include <string>

#include "Snapshot.h"

namespace immap::procfs {

class SnapshotLoader {
public:
    // Largest single file accepted (a maps file of a few million VMAs); bigger is refused.
    static constexpr std::size_t kMaxFileBytes = std::size_t{512} << 20;
    // An archive as a whole: the file, and everything it unpacks to (entries skipped included,
    // since libarchive unpacks them to step over them), so a small .tar.gz cannot expand to
    // gigabytes of memory or minutes of inflating.
    static constexpr std::uint64_t kMaxArchiveBytes = std::uint64_t{2} << 30;

    // Directory, archive and live loads take an optional Cancel flag, polled per process or
    // entry: once it is raised they throw limits::Cancelled.
    static Snapshot loadDirectory(const std::string& dir,
                                  const std::atomic<bool>* cancel = nullptr);
    // .tar, .tar.gz, .tgz (anything libarchive reads). Entries with absolute paths or ".."
    // components are refused: the archive as a whole fails to load.
    static Snapshot loadArchive(const std::string& path, const std::atomic<bool>* cancel = nullptr);
    // One maps file; numa_maps, status and stat beside it are used when present. The pid is the
    // parent directory's name when numeric, else 0. A malformed file throws.
    static Snapshot loadMapsFile(const std::string& path);
    // This host's /proc. Processes that vanish or cannot be read are skipped, never fatal.
    static Snapshot loadLive(const std::string& procRoot = "/proc",
                             const std::atomic<bool>* cancel = nullptr);
    // Directory or archive, by what the path is.
    static Snapshot load(const std::string& path, const std::atomic<bool>* cancel = nullptr);
};

}  // namespace immap::procfs
