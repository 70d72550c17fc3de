#include "TextScan.h"

namespace immap::procfs {

namespace detail {

namespace {

// Length of the valid UTF-8 sequence starting text[0] (2 to 4), or 0 when it is not one:
// overlong forms, surrogates and code points past U+10FFFF are invalid (RFC 3629).
std::size_t utf8SequenceLength(std::string_view text) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char c = byte(0);
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (text.size() < len || byte(1) < lo || byte(1) > hi) return 0;
    for (std::size_t i = 2; i < len; ++i)
        if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
    return len;
}

bool isOctal(char c) {
    return c >= '0' && c <= '7';
}

}  // namespace

std::string quote(std::string_view text) {
    constexpr std::size_t kMaxBytes = 40;
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "'";
    std::size_t i = 0;
    while (i < text.size() && i < kMaxBytes) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        if (const std::size_t len = utf8SequenceLength(text.substr(i))) {
            if (i + len > kMaxBytes) break;  // cut before a character, never inside one
            out.append(text.substr(i, len));
            i += len;
            continue;
        }
        out.append("\\x").append(1, kHex[c >> 4]).append(1, kHex[c & 15]);
        ++i;
    }
    if (i < text.size()) out += "...";
    out += '\'';
    return out;
}

std::string decodeOctalEscapes(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '\\' && text.size() - i >= 4 && text[i + 1] >= '0' && text[i + 1] <= '3' &&
            isOctal(text[i + 2]) && isOctal(text[i + 3])) {
            const int value =
                (text[i + 1] - '0') * 64 + (text[i + 2] - '0') * 8 + (text[i + 3] - '0');
            if (value != 0) {
                out += static_cast<char>(value);
                i += 4;
                continue;
            }
        }
        out += text[i++];
    }
    return out;
}

}  // namespace detail

}  // namespace immap::procfs
