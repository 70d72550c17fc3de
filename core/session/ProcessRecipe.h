#pragma once
// What one process's exec or exit does to a file's trees, as a list of tree ops. Pluggable: the
// simulator's recipe format (core/sim) can supply its own ProcessRecipe later; these two are the
// plain versions the GUI's "exec" and "exit" buttons run today.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "TreeSet.h"

namespace immap::session {

struct TreeOp {
    enum class Kind { Insert, Remove };
    Kind kind = Kind::Insert;
    int id = -1;       // Remove: the entry
    mapping::Vma vma;  // Insert: the VMA
    std::string comm;  // Insert: its process name
};

class ProcessRecipe {
public:
    virtual ~ProcessRecipe() = default;
    virtual std::string name() const = 0;
    // The ops for process `pid` homed on `node` (the recipe may ignore either).
    virtual std::vector<TreeOp> ops(const TreeSet& set, std::int64_t pid, int node) const = 0;
};

// exit: every live VMA of the process in this file goes (exit_mmap's unmap of the file).
class ExitRecipe : public ProcessRecipe {
public:
    std::string name() const override { return "exit"; }
    std::vector<TreeOp> ops(const TreeSet& set, std::int64_t pid, int node) const override;
};

// exec: a new process maps the library's five segments (r--p, r-xp, r--p, RELRO r--p, rw-p, the
// glibc 2.36 libc.so.6 layout), homed on `node` (numa_node_id() of the CPU it runs on).
class ExecRecipe : public ProcessRecipe {
public:
    std::string name() const override { return "exec"; }
    std::vector<TreeOp> ops(const TreeSet& set, std::int64_t pid, int node) const override;
    // One VMA of that layout, for the insert dialog too.
    static mapping::Vma vma(std::int64_t pid, int node, itree::Index pgoff, itree::Index pages,
                            const char* perms);
};

}  // namespace immap::session
