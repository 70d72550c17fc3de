#include "io/JsonKeys.h"

#include <unordered_map>

namespace immap::io {

namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void appendUtf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

// One pass over the text from `start`: a stack of open containers, each object with the keys
// seen in it. A string is a key when it opens an object's member (after '{' or ','). Numbers,
// literals, ':' and whitespace need no attention. `onKey(key, line, firstLine, depth, offset)`
// gets every key with the line of its earlier occurrence in the same object (0 if none), its
// object's depth (1: the outermost scanned) and the offset of its opening quote; returning false
// stops the scan. With `oneValue` the scan also stops where the first container closes.
template <class OnKey>
void scan(std::string_view text, std::size_t start, bool oneValue, OnKey&& onKey) {
    struct Frame {
        bool object = false;
        bool expectKey = false;
        std::unordered_map<std::string, int> keys;
    };
    std::vector<Frame> open;
    int line = 1;
    std::size_t i = start;
    // The string starting at text[i] == '"', decoded; i is left past its closing quote.
    auto readString = [&]() {
        std::string s;
        for (++i; i < text.size() && text[i] != '"'; ++i) {
            const char c = text[i];
            if (c == '\n') ++line;
            if (c != '\\') {
                s += c;
                continue;
            }
            if (++i >= text.size()) break;
            switch (text[i]) {
                case 'b':
                    s += '\b';
                    break;
                case 'f':
                    s += '\f';
                    break;
                case 'n':
                    s += '\n';
                    break;
                case 'r':
                    s += '\r';
                    break;
                case 't':
                    s += '\t';
                    break;
                case 'u': {
                    auto hex4 = [&](std::size_t at) -> int {
                        if (at + 4 > text.size()) return -1;
                        int v = 0;
                        for (std::size_t k = at; k < at + 4; ++k) {
                            const int h = hexValue(text[k]);
                            if (h < 0) return -1;
                            v = v * 16 + h;
                        }
                        return v;
                    };
                    const int u = hex4(i + 1);
                    if (u < 0) {
                        s += 'u';
                        break;
                    }
                    i += 4;
                    unsigned cp = static_cast<unsigned>(u);
                    // A surrogate pair is one character, as the parser decodes it.
                    if (cp >= 0xd800 && cp < 0xdc00 && i + 2 < text.size() && text[i + 1] == '\\' &&
                        text[i + 2] == 'u') {
                        const int lo = hex4(i + 3);
                        if (lo >= 0xdc00 && lo < 0xe000) {
                            cp = 0x10000 + ((cp - 0xd800) << 10) +
                                 (static_cast<unsigned>(lo) - 0xdc00);
                            i += 6;
                        }
                    }
                    appendUtf8(s, cp);
                    break;
                }
                default:
                    s += text[i];
                    break;  // \" \\ \/ (and anything else, as it stands)
            }
        }
        ++i;
        return s;
    };
    while (i < text.size()) {
        const char c = text[i];
        if (c == '"') {
            const int at = line;
            const std::size_t offset = i;
            std::string s = readString();
            if (!open.empty() && open.back().object && open.back().expectKey) {
                open.back().expectKey = false;
                const auto [it, fresh] = open.back().keys.emplace(std::move(s), at);
                if (!onKey(it->first, at, fresh ? 0 : it->second, open.size(), offset)) return;
            }
            continue;
        }
        if (c == '\n') {
            ++line;
        } else if (c == '{') {
            open.push_back({true, true, {}});
        } else if (c == '[') {
            open.push_back({false, false, {}});
        } else if (c == '}' || c == ']') {
            if (!open.empty()) open.pop_back();
            if (oneValue && open.empty()) return;
        } else if (c == ',') {
            if (!open.empty() && open.back().object) open.back().expectKey = true;
        }
        ++i;
    }
}

}  // namespace

std::string JsonKeys::Duplicate::reason() const {
    return "duplicate key \"" + key + "\" (first at line " + std::to_string(firstLine) + ")";
}

std::optional<JsonKeys::Duplicate> JsonKeys::firstDuplicate(std::string_view text) {
    std::optional<Duplicate> found;
    scan(text, 0, false,
         [&](const std::string& key, int line, int firstLine, std::size_t, std::size_t) {
             if (!firstLine) return true;
             found = Duplicate{key, line, firstLine};
             return false;
         });
    return found;
}

std::vector<int> JsonKeys::linesOf(std::string_view text, std::string_view key) {
    std::vector<int> lines;
    scan(text, 0, false, [&](const std::string& k, int line, int, std::size_t, std::size_t) {
        if (k == key) lines.push_back(line);
        return true;
    });
    return lines;
}

std::optional<std::size_t> JsonKeys::offsetOf(std::string_view text, std::string_view key,
                                              std::size_t from) {
    const std::size_t open = text.find('{', from);
    if (open == std::string_view::npos) return std::nullopt;
    std::optional<std::size_t> found;
    scan(text, open, true,
         [&](const std::string& k, int, int, std::size_t depth, std::size_t offset) {
             if (depth != 1 || k != key) return true;
             found = offset;
             return false;
         });
    return found;
}

}  // namespace immap::io
