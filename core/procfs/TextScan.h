#pragma once
// Text helpers shared by the /proc parsers: short printable quotes for messages, the kernel's
// octal escapes, whole-field numbers, fields and lines. Defined in TextScan.cpp.

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "ParseError.h"

namespace immap::procfs {

namespace detail {

// At most 40 bytes of `text`, single-quoted, "..." when cut; control bytes, NUL and invalid
// UTF-8 become \xNN. However long or binary the input, the message stays short and printable.
std::string quote(std::string_view text);

// Decodes the kernel's mangle_path() escapes `\ooo` (\012 newline, \040 space, ...). A
// backslash not followed by three octal digits, or \000 (a path holds no NUL, so the kernel never
// writes it), stays as text: the kernel does not escape the backslash itself.
std::string decodeOctalEscapes(std::string_view text);

enum class NumberStatus : std::uint8_t { Ok, Bad, PastRange };

// The whole of `s` as a number in `base`: no '+', "0x" or space ('-' only for signed T).
// PastRange only when every character is a digit: "12zz" is Bad however long.
template <class T>
NumberStatus parseNumber(std::string_view s, T& out, int base = 10) {
    if (s.empty()) return NumberStatus::Bad;
    const char* const end = s.data() + s.size();
    const auto [p, ec] = std::from_chars(s.data(), end, out, base);
    if (p != end) return NumberStatus::Bad;
    if (ec == std::errc::result_out_of_range) return NumberStatus::PastRange;
    return ec == std::errc{} ? NumberStatus::Ok : NumberStatus::Bad;
}

// The text up to the next space; `rest` moves past it and the run of spaces after it.
inline std::string_view takeField(std::string_view& rest) {
    const std::size_t sp = rest.find(' ');
    const std::string_view field = rest.substr(0, sp);
    if (sp == std::string_view::npos) {
        rest = {};
        return field;
    }
    std::size_t i = sp + 1;
    while (i < rest.size() && rest[i] == ' ')
        ++i;
    rest.remove_prefix(i);
    return field;
}

// Calls fn(line, lineNo) for each line, without its "\n" or "\r\n". The final newline is
// optional; an empty line anywhere is an error.
template <class Fn>
void forEachLine(std::string_view text, const std::string& file, Fn&& fn) {
    std::size_t lineNo = 0;
    while (!text.empty()) {
        ++lineNo;
        const std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) throw ParseError(file, lineNo, "empty line");
        fn(line, lineNo);
    }
}

}  // namespace detail

}  // namespace immap::procfs
