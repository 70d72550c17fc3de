#pragma once
// /proc/PID/maps (Documentation/filesystems/proc.rst): one VMA per line,
//   start-end perms offset major:minor inode [pathname]
// Addresses 32- or 64-bit hex, end exclusive; offset hex bytes; dev hex; inode decimal; the
// pathname is padded with spaces and may itself contain spaces, may end in " (deleted)", and
// shows a newline as the octal escape \012.

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ParseError.h"
#include "Path.h"

namespace immap::procfs {

inline constexpr std::uint64_t kPageSize = 4096;  // x86-64 base pages, as in the snapshots

struct MapsEntry {
    enum class Kind : std::uint8_t {
        File,            // a pathname naming a file (possibly deleted)
        Anonymous,       // no pathname
        Heap,            // [heap]
        Stack,           // [stack]
        Vdso,            // [vdso]
        Vvar,            // [vvar] (and [vvar_vclock])
        Vsyscall,        // [vsyscall]
        AnonNamed,       // [anon:NAME]
        AnonShmemNamed,  // [anon_shmem:NAME]
        OtherSpecial,    // any other [bracketed] name
    };

    std::uint64_t start = 0;  // first byte
    std::uint64_t end = 0;    // one past the last byte
    bool read = false;
    bool write = false;
    bool exec = false;
    bool shared = false;   // 's' (else 'p', private copy-on-write)
    bool deleted = false;  // the path ended in " (deleted)"
    Kind kind = Kind::Anonymous;
    std::uint64_t offset = 0;  // byte offset into the file (vm_pgoff << PAGE_SHIFT)
    std::uint32_t devMajor = 0;
    std::uint32_t devMinor = 0;
    std::uint64_t inode = 0;
    Path path;  // without the " (deleted)" suffix; octal escapes decoded; shared, see Path.h

    // In some file's i_mmap tree: the kernel links every VMA with a vm_file, private ones too.
    bool fileBacked() const { return inode != 0; }
    std::uint64_t pgoff() const { return offset / kPageSize; }
    std::uint64_t pages() const { return (end - start) / kPageSize; }
    std::string perms() const;  // "r-xp" as shown
};

// One cache line per entry: a million-line snapshot streams through memory once.
static_assert(sizeof(MapsEntry) <= 64);

class MapsParser {
public:
    // Throws ParseError(file, lineNo, reason) on a malformed line.
    static MapsEntry parseLine(std::string_view line, const std::string& file, std::size_t lineNo);
    // A whole file's text; blank lines are an error only if not the final newline.
    static std::vector<MapsEntry> parse(std::string_view text, const std::string& file);
    // The same into `out` (cleared first; its capacity is reused), naming paths through `paths`
    // so that entries of many files share them. On a ParseError `out` holds the lines before.
    static void parse(std::string_view text, const std::string& file, std::vector<MapsEntry>& out,
                      PathInterner& paths);
};

// Text helpers shared by the /proc parsers (defined in MapsParser.cpp).
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
