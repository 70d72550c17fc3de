#pragma once
// Where an offset falls in a text, as a line number: parsers that report byte offsets
// (QJsonParseError) give users the line they can find in an editor.

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace immap::io {

class TextPosition {
public:
    // The 1-based line holding byte `offset` (the last line for an offset past the end).
    static int lineOf(std::string_view text, std::size_t offset) {
        const std::string_view head = text.substr(0, std::min(offset, text.size()));
        return static_cast<int>(std::count(head.begin(), head.end(), '\n')) + 1;
    }
};

}  // namespace immap::io
