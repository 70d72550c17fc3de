#pragma once
// Where an output may go. A writer replaces its target (io::AtomicFile: a temporary renamed
// over it), and a rename over a device node or an input would destroy it: so only a missing path or
// an existing regular file that is none of the command's inputs (same st_dev and st_ino,
// whatever the spelling or link) may be written. Asked once per output, before anything is
// written and after the inputs are known.

#include <string>
#include <utility>
#include <vector>

namespace immap::io {

class OutputTarget {
public:
    // Empty when `out` may be written; else the reason, e.g. "not a regular file (a character
    // device): not written" or "is also the input IN: not written".
    static std::string refusal(const std::string& out, const std::vector<std::string>& inputs);

    // "OUT: reason" as one message, or empty.
    static std::string check(const std::string& out, const std::vector<std::string>& inputs);

    // Several outputs of one command, each (option, path): the first message of check(), or
    // "OUT: --a and --b name the same file; give each its own", since the second write would
    // replace the first. Empty when all may be written.
    static std::string checkAll(const std::vector<std::pair<std::string, std::string>>& outs,
                                const std::vector<std::string>& inputs);

    // The file a write to `out` replaces: `out` itself, or, when `out` is a symbolic link, the
    // file its chain of links ends at (which may not exist yet). A save renames over this path,
    // so that a link stays a link and what it points to gets the new content.
    static std::string landing(const std::string& out);
};

}  // namespace immap::io
