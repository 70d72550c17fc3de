#pragma once
// The one way the project saves a file: written to a hidden temporary beside the target
// (".NAME.TAG-XXXXXX", so that the final rename(2) stays on one filesystem and a killed run's
// leftover is recognisable), then renamed over it. Readers see the old file or the whole new
// one, never a part; a save not committed (an error, a cancel, a throw) leaves the target as it
// was. Traces, exports, scenarios, bookmarks, CSV and JSON outputs all go through it.

#include <cstdio>
#include <string>
#include <string_view>

namespace immap::io {

class AtomicFile {
public:
    // Refuses what io::OutputTarget refuses (a device, a FIFO, a directory). ok() tells.
    explicit AtomicFile(const std::string& path, std::string_view tag = "saving");
    ~AtomicFile();  // not committed: the temporary goes, the target stays
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    bool ok() const { return file_ != nullptr && reason_.empty(); }
    // "PATH: reason" material: why it cannot be opened, written or saved.
    const std::string& reason() const { return reason_; }
    const std::string& path() const { return path_; }
    const std::string& temporaryPath() const { return tmpPath_; }

    bool write(std::string_view bytes);
    // Hands what was written to the kernel, so that it is in the temporary file even if the
    // process is killed (a streaming writer's batches stay whole).
    bool flush();
    // Flushes, closes and renames over the target (with the old file's permissions, or 0644).
    // A target that is a symbolic link is written through: the file it leads to is replaced.
    bool commit();

    // The whole of `bytes` to `path`; false with "PATH: reason" in `error`.
    static bool save(const std::string& path, std::string_view bytes, std::string& error);

private:
    void fail(const std::string& what, int err);

    std::string path_;
    std::string target_;  // path_, or the file its symbolic links lead to
    std::string tmpPath_;
    std::FILE* file_ = nullptr;
    std::string reason_;
};

}  // namespace immap::io
