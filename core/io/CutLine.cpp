#include "CutLine.h"

#include <algorithm>

namespace immap::io {

std::string CutLine::message(const std::string& file, std::size_t line) {
    return file + ":" + std::to_string(line) +
           ": the last line has no newline; the file may be cut short there";
}

std::string CutLine::check(std::string_view text, const std::string& file) {
    if (!cut(text)) return {};
    // Lines are counted from 1 at each "\n", as every line reader here counts them.
    const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    return message(file, newlines + 1);
}

}  // namespace immap::io
