#pragma once
// Where an output may go. A writer replaces its target (io::AtomicFile: a temporary renamed
// over it), and a rename over a device node or an input would destroy it: so only a missing path or
// an existing regular file that is none of the command's inputs (same st_dev and st_ino,
// whatever the spelling or link) may be written. Asked once per output, before anything is
// written and after the inputs are known.

#include <string>
#include <vector>

namespace immap::io {

class OutputTarget {
public:
    // Empty when `out` may be written; else the reason, e.g. "not a regular file (a character
    // device): not written" or "is also the input IN: not written".
    static std::string refusal(const std::string& out, const std::vector<std::string>& inputs);

    // "OUT: reason" as one message, or empty.
    static std::string check(const std::string& out, const std::vector<std::string>& inputs);
};

}  // namespace immap::io
