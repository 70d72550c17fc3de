#include "MapsParser.h"

#include "TextScan.h"

#include <array>
#include <bit>
#include <cstring>
#include <limits>

namespace immap::procfs {

namespace {

using detail::NumberStatus;
using detail::quote;

[[noreturn]] void fail(const std::string& file, std::size_t lineNo, std::string reason) {
    throw ParseError(file, lineNo, std::move(reason));
}

// Parses `text` as a hex number of `what`, with the reasons shared by every hex field.
template <class T>
T parseHex(std::string_view text, std::string_view field, const char* what, const char* bits,
           const std::string& file, std::size_t lineNo) {
    T value = 0;
    switch (detail::parseNumber(text, value, 16)) {
        case NumberStatus::Ok:
            return value;
        case NumberStatus::PastRange:
            fail(file, lineNo,
                 std::string("number past ") + bits + " bits in " + what + " " + quote(field));
        case NumberStatus::Bad:
            break;
    }
    fail(file, lineNo, std::string("bad ") + what + " " + quote(field));
}

// The hot path below reads numbers straight off the line and only looks for a field's end when
// something is wrong; these say what, from the whole field. Each throws.

[[noreturn, gnu::cold, gnu::noinline]] void rangeError(std::string_view range,
                                                       const std::string& file,
                                                       std::size_t lineNo) {
    const std::size_t dash = range.find('-');
    if (dash == std::string_view::npos)
        fail(file, lineNo, "bad address range " + quote(range) + ": expected start-end in hex");
    parseHex<std::uint64_t>(range.substr(0, dash), range, "address range", "64", file, lineNo);
    parseHex<std::uint64_t>(range.substr(dash + 1), range, "address range", "64", file, lineNo);
    fail(file, lineNo, "bad address range " + quote(range));
}

[[noreturn, gnu::cold, gnu::noinline]] void deviceError(std::string_view dev,
                                                        const std::string& file,
                                                        std::size_t lineNo) {
    const std::size_t colon = dev.find(':');
    if (colon == std::string_view::npos)
        fail(file, lineNo, "bad device " + quote(dev) + ": expected major:minor in hex");
    parseHex<std::uint32_t>(dev.substr(0, colon), dev, "device", "32", file, lineNo);
    parseHex<std::uint32_t>(dev.substr(colon + 1), dev, "device", "32", file, lineNo);
    fail(file, lineNo, "bad device " + quote(dev));
}

[[noreturn, gnu::cold, gnu::noinline]] void numberError(std::string_view field, int base,
                                                        const char* what, const std::string& file,
                                                        std::size_t lineNo) {
    std::uint64_t ignored = 0;
    if (detail::parseNumber(field, ignored, base) == NumberStatus::PastRange)
        fail(file, lineNo, std::string("number past 64 bits in ") + what + " " + quote(field));
    fail(file, lineNo, std::string("bad ") + what + " " + quote(field));
}

[[noreturn, gnu::cold, gnu::noinline]] void permsError(std::string_view perms,
                                                       const std::string& file,
                                                       std::size_t lineNo) {
    if (perms.size() != 4)
        fail(file, lineNo, "perms must be 4 characters like r-xp, got " + quote(perms));
    fail(file, lineNo, "bad perms " + quote(perms) + ": expected [r-][w-][x-][ps]");
}

// The field starting at p: up to the next space or the end of the line.
std::string_view fieldAt(const char* p, const char* end) {
    const char* q = p;
    while (q < end && *q != ' ')
        ++q;
    return {p, static_cast<std::size_t>(q - p)};
}

// Past a run of spaces. The padding before a pathname is up to ~70 of them: 8 at a time.
const char* skipSpaces(const char* p, const char* end) {
    constexpr std::uint64_t kEightSpaces = 0x2020202020202020ull;
    while (end - p >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        const std::uint64_t diff = word ^ kEightSpaces;
        // The first differing byte is the lowest one on little-endian machines.
        if (diff && std::endian::native == std::endian::little)
            return p + std::countr_zero(diff) / 8;
        if (diff) break;
        p += 8;
    }
    while (p < end && *p == ' ')
        ++p;
    return p;
}

// Whether s holds a NUL or a backslash, eight bytes at a time (the classic "has a zero byte"
// test on the word and on the word xor eight backslashes).
bool hasNulOrBackslash(std::string_view s) {
    constexpr std::uint64_t L = 0x0101010101010101ull, H = 0x8080808080808080ull;
    const auto hasZero = [](std::uint64_t v) { return (v - L) & ~v & H; };
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        if (hasZero(w) | hasZero(w ^ (L * '\\'))) return true;
    }
    if (i == s.size()) return false;
    if (s.size() >= 8) {
        // The last eight bytes, overlapping ones already seen: no loop of varying length.
        std::uint64_t w;
        std::memcpy(&w, s.data() + s.size() - 8, 8);
        return hasZero(w) | hasZero(w ^ (L * '\\'));
    }
    for (; i < s.size(); ++i)
        if (s[i] == '\0' || s[i] == '\\') return true;
    return false;
}

// Digit values, -1 for anything else: the hot path reads numbers with this instead of
// std::from_chars, whose checked per-digit arithmetic was a sixth of the parse time.
constexpr auto kHexDigit = [] {
    std::array<std::int8_t, 256> t{};
    for (auto& v : t)
        v = -1;
    for (int c = '0'; c <= '9'; ++c)
        t[c] = static_cast<std::int8_t>(c - '0');
    for (int c = 'a'; c <= 'f'; ++c)
        t[c] = static_cast<std::int8_t>(c - 'a' + 10);
    for (int c = 'A'; c <= 'F'; ++c)
        t[c] = static_cast<std::int8_t>(c - 'A' + 10);
    return t;
}();

// A number in base 16 or 10 at p, of at least one digit, that fits T, followed by `sep` (a
// space also accepts the end of the line): returns the position after the separator, or
// nullptr; the caller's cold path then says what was wrong.
// With kStopByte the byte at `end` is readable and not a digit (a line's '\n' or '\r' in the
// text), so the digit loops stop there by themselves and need no bounds check.
template <unsigned Base, bool kStopByte, class T>
const char* numberThen(const char* p, const char* end, T& out, char sep) {
    constexpr T kMax = static_cast<T>(-1);
    const auto inLine = [end](const char* q) { return kStopByte || q < end; };
    const char* const first = p;
    T value = 0;
    if constexpr (Base == 16) {
        for (; inLine(p); ++p) {
            const int d = kHexDigit[static_cast<unsigned char>(*p)];
            if (d < 0) break;
            value = static_cast<T>((value << 4) | static_cast<T>(d));
        }
        // More digits than T holds fit only if the extra ones are leading zeros, which shifted
        // out harmlessly above. (Neither a branch-free 16-bytes-at-a-time SSE2 decoder, which
        // chains each field's end into the next field's load, nor eight digits at a time in a
        // word while eight are there measured faster on these 4- to 12-digit fields.)
        if (p - first > std::numeric_limits<T>::digits / 4) {
            const char* significant = first;
            while (significant < p && *significant == '0')
                ++significant;
            if (p - significant > std::numeric_limits<T>::digits / 4) return nullptr;
        }
    } else {
        // Decimal: fewer digits than kMax has cannot overflow, so only a long number (rare: an
        // inode is six or seven digits) takes the checked loop.
        constexpr int kSafeDigits = std::numeric_limits<T>::digits10;
        for (; inLine(p); ++p) {
            const unsigned d = static_cast<unsigned char>(*p) - unsigned{'0'};
            if (d > 9) break;
            value = static_cast<T>(value * 10 + d);
        }
        if (p - first > kSafeDigits) {
            value = 0;
            for (const char* q = first; q < p; ++q) {
                const T d = static_cast<T>(*q - '0');
                if (value > (kMax - d) / 10) return nullptr;
                value = static_cast<T>(value * 10 + d);
            }
        }
    }
    if (p == first) return nullptr;
    out = value;
    if (p == end) return sep == ' ' ? p : nullptr;
    return *p == sep ? p + 1 : nullptr;
}

MapsEntry::Kind classify(std::string_view path) {
    using Kind = MapsEntry::Kind;
    if (path.empty()) return Kind::Anonymous;
    if (path.size() < 2 || path.front() != '[' || path.back() != ']') return Kind::File;
    const std::string_view name = path.substr(1, path.size() - 2);
    if (name == "heap") return Kind::Heap;
    if (name == "stack") return Kind::Stack;
    if (name == "vdso") return Kind::Vdso;
    if (name == "vvar" || name == "vvar_vclock") return Kind::Vvar;
    if (name == "vsyscall") return Kind::Vsyscall;
    if (name.starts_with("anon:")) return Kind::AnonNamed;
    if (name.starts_with("anon_shmem:")) return Kind::AnonShmemNamed;
    return Kind::OtherSpecial;
}

constexpr std::string_view kDeleted = " (deleted)";

// The pathname field, `shown` as the line has it (not empty): sets path, deleted and kind.
void readPath(MapsEntry& e, std::string_view shown, const std::string& file, std::size_t lineNo,
              PathInterner& paths) {
    std::string_view path = shown;
    if (path.size() > kDeleted.size() && path.ends_with(kDeleted)) {
        e.deleted = true;
        path.remove_suffix(kDeleted.size());
    }
    // Most lines name the path the interner predicts, in the same bytes: then they hold no NUL
    // and no escape, and need no scan for either.
    if (const Path* known = paths.findPlain(path)) {
        e.path = *known;
    } else {
        // One pass finds both rare bytes: a NUL (an error) and a backslash (an escape).
        const bool rare = hasNulOrBackslash(shown);
        if (rare && std::memchr(shown.data(), '\0', shown.size()))
            fail(file, lineNo, "NUL byte in pathname " + quote(shown));
        // No NUL, so `rare` means a backslash, and the suffix removed held none.
        if (rare)
            e.path = paths.intern(detail::decodeOctalEscapes(path));
        else
            e.path = paths.intern(path);
    }
    e.kind = classify(e.path);
}

// Fills a default-constructed entry: parse() builds entries in place, without moving them.
// kStopByte: as in numberThen.
template <bool kStopByte>
void parseInto(MapsEntry& e, std::string_view line, const std::string& file, std::size_t lineNo,
               PathInterner& paths) {
    const char* const begin = line.data();
    const char* const end = begin + line.size();

    const char* p = numberThen<16, kStopByte>(begin, end, e.start, '-');
    if (p) p = numberThen<16, kStopByte>(p, end, e.end, ' ');
    if (!p) rangeError(fieldAt(begin, end), file, lineNo);
    const auto range = [&] { return fieldAt(begin, end); };
    if (e.end < e.start) fail(file, lineNo, "end address before start in " + quote(range()));
    if (e.end == e.start) fail(file, lineNo, "empty address range " + quote(range()));
    // Downstream code counts pages; a range that is not whole pages cannot come from a kernel.
    if (e.start % kPageSize || e.end % kPageSize)
        fail(file, lineNo, "address range not page-aligned " + quote(range()));

    p = skipSpaces(p, end);
    if (p == end) fail(file, lineNo, "missing perms");
    if (end - p < 4 || (end - p > 4 && p[4] != ' ')) permsError(fieldAt(p, end), file, lineNo);
    const auto flag = [&](char c, char yes) {
        if (c != yes && c != '-') permsError(fieldAt(p, end), file, lineNo);
        return c == yes;
    };
    e.read = flag(p[0], 'r');
    e.write = flag(p[1], 'w');
    e.exec = flag(p[2], 'x');
    if (p[3] != 's' && p[3] != 'p') permsError(fieldAt(p, end), file, lineNo);
    e.shared = p[3] == 's';

    p = skipSpaces(p + 4, end);
    if (p == end) fail(file, lineNo, "missing offset");
    const char* const offset = p;
    p = numberThen<16, kStopByte>(p, end, e.offset, ' ');
    if (!p) numberError(fieldAt(offset, end), 16, "offset", file, lineNo);
    if (e.offset % kPageSize)
        fail(file, lineNo, "offset not page-aligned " + quote(fieldAt(offset, end)));

    p = skipSpaces(p, end);
    if (p == end) fail(file, lineNo, "missing device");
    const char* const dev = p;
    p = numberThen<16, kStopByte>(p, end, e.devMajor, ':');
    if (p) p = numberThen<16, kStopByte>(p, end, e.devMinor, ' ');
    if (!p) deviceError(fieldAt(dev, end), file, lineNo);

    p = skipSpaces(p, end);
    if (p == end) fail(file, lineNo, "missing inode");
    const char* const inode = p;
    p = numberThen<10, kStopByte>(p, end, e.inode, ' ');
    if (!p) numberError(fieldAt(inode, end), 10, "inode", file, lineNo);

    // What is left, after the padding, is the pathname, spaces and all.
    p = skipSpaces(p, end);
    if (p == end) return;  // kind is already Anonymous
    readPath(e, {p, static_cast<std::size_t>(end - p)}, file, lineNo, paths);
}

// A line of a text at p in the form the kernel writes, where every field, the inode too, ends in
// a space: fills a default-constructed e and returns the start of the next line. For anything
// else it returns nullptr, having read no pathname, and parse() reads the line with parseInto
// for the exact outcome. `stop` is a '\n' at or past this line's end (the text's last), which
// ends every loop: so the line's end is looked for only from the pathname on, not from its start.
const char* parseKernelLine(MapsEntry& e, const char* p, const char* stop, const std::string& file,
                            std::size_t lineNo, PathInterner& paths) {
    p = numberThen<16, true>(p, stop, e.start, '-');
    if (p) p = numberThen<16, true>(p, stop, e.end, ' ');
    if (!p || p == stop || e.end <= e.start || e.start % kPageSize || e.end % kPageSize)
        return nullptr;
    p = skipSpaces(p, stop);
    // Each test passing means a byte that is not '\n', so the next one is still readable.
    if ((p[0] != 'r' && p[0] != '-') || (p[1] != 'w' && p[1] != '-') ||
        (p[2] != 'x' && p[2] != '-') || (p[3] != 's' && p[3] != 'p') || p[4] != ' ')
        return nullptr;
    e.read = p[0] == 'r';
    e.write = p[1] == 'w';
    e.exec = p[2] == 'x';
    e.shared = p[3] == 's';
    p = numberThen<16, true>(skipSpaces(p + 4, stop), stop, e.offset, ' ');
    if (!p || p == stop || e.offset % kPageSize) return nullptr;
    p = numberThen<16, true>(skipSpaces(p, stop), stop, e.devMajor, ':');
    if (p) p = numberThen<16, true>(p, stop, e.devMinor, ' ');
    if (!p || p == stop) return nullptr;
    p = numberThen<10, true>(skipSpaces(p, stop), stop, e.inode, ' ');
    if (!p || p == stop) return nullptr;

    // No field held a '\n' or '\r', so the line ends at the first '\n' from here, less a '\r'.
    p = skipSpaces(p, stop);
    // Most often the interner's predicted path is here, followed by the '\n': then the '\n' needs
    // no search. Not for a path ending in '\r' or " (deleted)", which the line's end would strip.
    if (const Path* known = paths.findPlainBefore(p, stop + 1, '\n')) {
        const std::string& s = *known;
        if (!s.empty() && s.back() != '\r' &&
            !(s.size() > kDeleted.size() && s.ends_with(kDeleted))) {
            e.path = *known;
            e.kind = classify(s);
            return p + s.size() + 1;
        }
    }
    const char* const newline = *p == '\n' ? p
                                           : static_cast<const char*>(std::memchr(
                                                 p, '\n', static_cast<std::size_t>(stop - p) + 1));
    const char* const end = newline[-1] == '\r' ? newline - 1 : newline;
    if (p < end) readPath(e, {p, static_cast<std::size_t>(end - p)}, file, lineNo, paths);
    return newline + 1;
}

// One line at p exactly as forEachLine() reads it, by parseInto: returns the next line's start.
const char* parseExactLine(MapsEntry& e, const char* p, const char* textEnd,
                           const std::string& file, std::size_t lineNo, PathInterner& paths) {
    const auto* newline =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(textEnd - p)));
    std::string_view line(p, static_cast<std::size_t>((newline ? newline : textEnd) - p));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) throw ParseError(file, lineNo, "empty line");
    // Every line but an unterminated last one ends at a '\n' or '\r' in the text.
    if (newline)
        parseInto<true>(e, line, file, lineNo, paths);
    else
        parseInto<false>(e, line, file, lineNo, paths);
    return newline ? newline + 1 : textEnd;
}

// Lines in `text`, from the newlines in its first 64 KiB, a little over: one allocation then
// usually does, instead of a doubling series that moves every entry and faults in fresh pages.
std::size_t estimateLines(std::string_view text) {
    constexpr std::size_t kSample = 64 << 10;
    const std::string_view sample = text.substr(0, kSample);
    std::size_t newlines = 0;
    for (const char *p = sample.data(), *end = p + sample.size();
         (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p))));
         ++p)
        ++newlines;
    if (sample.size() == text.size()) return newlines + 1;
    return text.size() * (newlines + newlines / 8) / sample.size() + 16;
}

}  // namespace

std::string MapsEntry::perms() const {
    return {read ? 'r' : '-', write ? 'w' : '-', exec ? 'x' : '-', shared ? 's' : 'p'};
}

MapsEntry MapsParser::parseLine(std::string_view line, const std::string& file,
                                std::size_t lineNo) {
    MapsEntry e;
    PathInterner paths;
    parseInto<false>(e, line, file, lineNo, paths);
    return e;
}

std::vector<MapsEntry> MapsParser::parse(std::string_view text, const std::string& file) {
    std::vector<MapsEntry> entries;
    PathInterner paths;
    parse(text, file, entries, paths);
    return entries;
}

void MapsParser::parse(std::string_view text, const std::string& file, std::vector<MapsEntry>& out,
                       PathInterner& paths) {
    out.clear();
    out.reserve(estimateLines(text));
    const char* p = text.data();
    const char* const textEnd = p + text.size();
    const std::size_t last = text.rfind('\n');
    const char* const stop = last == std::string_view::npos ? p : p + last;
    for (std::size_t lineNo = 1; p < textEnd; ++lineNo) {
        MapsEntry& e = out.emplace_back();
        try {
            const char* next =
                p < stop ? parseKernelLine(e, p, stop, file, lineNo, paths) : nullptr;
            if (!next) {
                e = MapsEntry{};  // undo what the fast path filled in before it gave up
                next = parseExactLine(e, p, textEnd, file, lineNo, paths);
            }
            p = next;
        } catch (const ParseError&) {
            out.pop_back();  // the half-read line is not an entry
            throw;
        }
    }
}

}  // namespace immap::procfs
