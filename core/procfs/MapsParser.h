#pragma once
// /proc/PID/maps (Documentation/filesystems/proc.rst): one VMA per line,
//   start-end perms offset major:minor inode [pathname]
// Addresses 32- or 64-bit hex, end exclusive; offset hex bytes; dev hex; inode decimal; the
// pathname is padded with spaces and may itself contain spaces, may end in " (deleted)", and
// shows a newline as the octal escape \012.

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

}  // namespace immap::procfs
