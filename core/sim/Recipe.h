#pragma once
// One exec of one execl copy, as data (samples/recipes/*.json, format in docs/recipe.md): the
// files whose i_mmap it touches, in address order, and the ordered steps: unlocked work, and
// the address-space calls (exit_mmap of the old image, mmap, munmap, mprotect) that the
// simulator turns into i_mmap lock holds the way the kernel does (AddressSpace.h).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/InputError.h"

namespace immap::sim {

// Bad recipe: "FILE:LINE: reason".
// A bad recipe, located as every reader's errors are.
class RecipeError : public io::InputError {
public:
    using io::InputError::InputError;
};

// How execve opens a file itself (open_exec), denying writes to it while it runs: the
// executable, and the ELF interpreter (ld.so). Others are opened by the process (ld.so).
enum class ExecOpen : std::uint8_t { None, Binary, Interpreter };

struct RecipeFile {
    std::string name;
    std::string role;
    bool background = false;  // other processes on the host map it too (their VMAs pre-fill it)
    bool perCopy = false;     // each copy maps its own inode: no tree or lock shared with others
    ExecOpen execOpen = ExecOpen::None;
    // Page-cache pages of the file one exec maps into its page tables (faults and fault-around):
    // each takes folio refcount and mapcount atomics on map and unmap (SharedLines).
    std::uint64_t mappedPages = 0;
    // Marked RWH_RMAP_EXCLUDE (Yibin Liu's proposal): under the no-rmap policy its VMAs are in
    // no i_mmap tree.
    bool rmapExclude = false;
};

enum class StepOp : std::uint8_t { Work, ExitMmap, Mmap, Munmap, Mprotect };
const char* stepOpName(StepOp op);

// Protection bits as mmap takes them.
enum Prot : std::uint8_t { kProtRead = 1, kProtWrite = 2, kProtExec = 4 };

struct RecipeStep {
    StepOp op = StepOp::Work;
    int file = -1;            // index into Recipe::files (address-space ops)
    std::uint64_t at = 0;     // first page, relative to the file's place in the address space
    std::uint64_t pages = 0;  // length in pages
    std::uint64_t pgoff = 0;  // file page of `at` (mmap)
    std::uint8_t prot = 0;    // Prot bits (mmap, mprotect)
    bool anon = false;        // mmap: an anonymous MAP_FIXED over the file's range
    double weight = 0;        // work: share of the exec's unlocked time (trace microseconds)
    std::string note;
    int line = 0;  // where it is in the recipe file, for messages
};

struct Recipe {
    std::string name;
    std::string source;
    std::string sourceFile;  // where it was read from ("built-in" for the default)
    std::vector<RecipeFile> files;
    std::vector<RecipeStep> steps;
    int walkerFile = 0;  // the file whole-file walkers walk
    // SHA-256 (hex) of the JSON text it was read from: what a sweep part records, so that
    // shards run on a recipe edited between them are not merged (SweepShard::identity).
    std::string sha256;

    double totalWeight() const;
    int fileIndex(std::string_view name) const;  // -1 if absent

    // Throws RecipeError naming `fileName`, the line and the reason.
    static Recipe fromJson(const std::string& json, const std::string& fileName);
    static Recipe fromFile(const std::string& path);
    // samples/recipes/execl-glibc236.json, compiled in.
    static const Recipe& builtinDefault();
    static const std::string& builtinDefaultJson();
};

}  // namespace immap::sim
