#pragma once
// Which VMAs sit in which file's i_mmap: a snapshot's file-backed VMAs grouped by
// (device, inode), each labelled by path and homed on a NUMA node by the best evidence.

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "Vma.h"
#include "procfs/Snapshot.h"

namespace immap::topology {
class Topology;
}

namespace immap::mapping {

struct MappedFile {
    std::string path;  // as the first process to map it names it
    std::uint32_t devMajor = 0;
    std::uint32_t devMinor = 0;
    std::uint64_t inode = 0;
    bool deleted = false;
    std::size_t processes = 0;  // distinct processes mapping it
    std::vector<Vma> vmas;      // in snapshot order: by pid, then address

    std::string device() const;  // "fe:00", as maps shows it
    std::string name() const;    // the path's last component
};

struct ProcessInfo {
    std::int64_t pid = 0;
    std::string comm;
};

class HostMappings {
public:
    // With `cancel`, polls it per process (limits::Cancelled).
    static HostMappings build(const procfs::Snapshot& snapshot, const topology::Topology& topo,
                              const std::atomic<bool>* cancel = nullptr);

    // Sorted by VMA count, most first (ties by path).
    const std::vector<MappedFile>& files() const { return files_; }
    const std::vector<ProcessInfo>& processes() const { return processes_; }
    const std::vector<procfs::SkippedProcess>& skipped() const { return skipped_; }
    // By full path, else by last component (libc.so.6); null if none or ambiguous.
    const MappedFile* findFile(std::string_view name) const;

private:
    std::vector<MappedFile> files_;
    std::vector<ProcessInfo> processes_;
    std::vector<procfs::SkippedProcess> skipped_;
};

}  // namespace immap::mapping
