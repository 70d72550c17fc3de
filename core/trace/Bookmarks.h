#pragma once
// Bookmarks on a trace's timeline, with captions, kept beside the trace in TRACE.bookmarks.json
// ({"bookmarks": [{"event": N, "caption": "..."}]}), saved atomically.

#include <cstdint>
#include <string>
#include <vector>

namespace immap::trace {

struct Bookmark {
    std::uint64_t event = 0;  // events applied when it was set
    std::string caption;
};

class Bookmarks {
public:
    static std::string sidecarPath(const std::string& tracePath) {
        return tracePath + ".bookmarks.json";
    }
    // A missing file is an empty list; a broken one throws TraceError naming it.
    static std::vector<Bookmark> load(const std::string& path);
    // Throws TraceError when it cannot be written.
    static void save(const std::string& path, const std::vector<Bookmark>& marks);
};

}  // namespace immap::trace
