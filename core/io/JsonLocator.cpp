#include "io/JsonLocator.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "io/JsonKeys.h"
#include "io/TextPosition.h"

namespace immap::io {

int JsonLocator::line(std::ptrdiff_t offset) const {
    return TextPosition::lineOf(text_,
                                static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, offset)));
}

std::ptrdiff_t JsonLocator::key(std::string_view key, std::ptrdiff_t from) const {
    const std::optional<std::size_t> at =
        JsonKeys::offsetOf(text_, key, static_cast<std::size_t>(std::max<std::ptrdiff_t>(from, 0)));
    return at ? static_cast<std::ptrdiff_t>(*at) : kNotFound;
}

std::vector<std::ptrdiff_t> JsonLocator::elements(std::ptrdiff_t keyAt) const {
    std::vector<std::ptrdiff_t> out;
    if (keyAt < 0) return out;
    std::size_t p = text_.find('[', static_cast<std::size_t>(keyAt));
    if (p == std::string_view::npos) return out;
    int depth = 0;
    bool inString = false, expect = true;
    for (; p < text_.size(); ++p) {
        const char c = text_[p];
        if (inString) {
            if (c == '\\')
                ++p;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) continue;
        if (depth == 1 && expect && c != ']') {
            out.push_back(static_cast<std::ptrdiff_t>(p));
            expect = false;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if (c == ']' || c == '}') {
            if (--depth == 0) break;
        } else if (c == ',' && depth == 1) {
            expect = true;
        }
    }
    return out;
}

}  // namespace immap::io
