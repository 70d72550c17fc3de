#pragma once
// A last line without its newline. The kernel's seq_file ends every line of /proc's files with
// "\n", and every text this project writes (op scripts, recordings) does too, so a final line
// without one is where a copy, a download or a disk may have stopped: "N1=25" cut to "N1=2"
// still parses. Such a line is accepted when it parses completely and is flagged with this one
// warning, worded here for every reader; each caller prints it as "warning: ...".

#include <cstddef>
#include <string>
#include <string_view>

namespace immap::io {

class CutLine {
public:
    // True when `text` is not empty and does not end in "\n".
    static bool cut(std::string_view text) { return !text.empty() && text.back() != '\n'; }

    // "FILE:LINE: the last line has no newline; the file may be cut short there"
    static std::string message(const std::string& file, std::size_t line);

    // The warning for `text` read from `file` (its line counted as the readers count them), or ""
    // when its last line is whole.
    static std::string check(std::string_view text, const std::string& file);
};

}  // namespace immap::io
