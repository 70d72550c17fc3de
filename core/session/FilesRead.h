#pragma once
// The files a command or a window reads: those named on its command line and those named inside
// them (a scenario's recipe, its xml: topology and its source's file; a trace's bookmarks), so
// that no output is written over any of them (io::OutputTarget). Collected before any work.

#include <string>
#include <vector>

namespace immap::session {

class FilesRead {
public:
    // A file named as it is.
    void addFile(const std::string& path);
    // A topology or source spec's file (xml:, maps:, snapshot:, trace: or a bare path); host,
    // live and synthetic: specs read none.
    void addSpec(const std::string& spec);
    // A native trace and the bookmarks kept beside it.
    void addTrace(const std::string& path);
    // A scenario and what it names, resolved against its directory. One that does not load adds
    // only itself: its reader reports why when the command loads it.
    void addScenario(const std::string& path);

    const std::vector<std::string>& files() const { return files_; }

private:
    std::vector<std::string> files_;
};

}  // namespace immap::session
