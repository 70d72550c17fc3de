#pragma once
// One process's file mappings, page-granular, and what each address-space call does to the
// i_mmap trees, as the kernel does it (docs/kernel.md, "2. i_mmap_rwsem: who takes it"):
//   new mapping            one hold: insert; or, when a neighbour of the same file is
//                          compatible (vma_merge_new_range: same file, flags and VM_ACCOUNT,
//                          adjacent addresses, contiguous pgoff), vma_expand of that neighbour
//                          instead: one hold, remove it and re-insert it grown (a merge on
//                          both sides also removes the next VMA);
//   split (__split_vma)    one hold: insert the new piece, remove the VMA, re-insert it resized;
//                          under split-locks two acquisitions (the v2 vma_prepare links the new
//                          piece under its tree's lock and drops it, then holds the VMA's tree
//                          until vma_complete);
//   unmap (munmap, the part of a MAP_FIXED mapping it replaces, exit_mmap)
//                          first split the VMAs straddling the range ends, then unlink the
//                          VMAs inside, batched: one hold per run of up to 8 consecutive VMAs of
//                          the same file (unlink_file_vma_batch), or one hold per VMA when the
//                          policy locks per tree (the v2 patch);
//   mprotect               splits at the range ends where the protection changes.
// Split and expand holds also do work that is not the i_mmap tree (vma_iter_store,
// map_count++, anon_vma_lock_write for a VMA with an anon_vma): flagged on the hold, priced by
// the simulator. mprotect never merges here (vma_merge_existing_range): in the recipes the
// RELRO piece keeps VM_ACCOUNT, which its read-only neighbour lacks (mm/mprotect.c,
// mprotect_fixup).
// It only plans: the holds it emits are executed later, on the shared trees, by the simulator.

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "itree/IntervalTree.h"
#include "sim/Recipe.h"
#include "sim/SimVma.h"

namespace immap::sim {

struct TreeOp {
    enum Kind : std::uint8_t { Insert, Remove };
    Kind kind = Insert;
    bool release = false;  // a final removal: the VMA is freed once it is out of the tree
    SimVma* vma = nullptr;
    itree::Index start = 0;  // Insert: the interval the VMA takes as it goes in
    itree::Index last = 0;
};

struct Hold {
    enum Kind : std::uint8_t { Map, Split, Unlink, Expand };
    Kind kind = Map;
    // Work inside the hold beyond the tree ops: vma_iter_store and map_count++ (split and
    // expand), anon_vma_lock_write and the anon_vma tree updates (a VMA with an anon_vma).
    bool store = false;
    bool anonVma = false;
    std::int32_t file = -1;
    std::uint32_t firstOp = 0;  // into the plan's ops
    std::uint32_t opCount = 0;
};

// One exec's actions, in order: unlocked work, a lock hold, or the shared lines touched before
// a recipe step (SharedLines).
struct Action {
    enum Kind : std::uint8_t { Work, Locked, Lines };
    Kind kind = Work;
    std::uint32_t index = 0;  // Work, Lines: the (first) recipe step; Locked: into Plan::holds
    double weight = 0;        // Work: the recipe weight, adjacent work steps summed
};

struct Plan {
    std::vector<Action> actions;
    std::vector<Hold> holds;
    std::vector<TreeOp> ops;
    void clear() {
        actions.clear();
        holds.clear();
        ops.clear();
    }
};

struct BatchRule {
    unsigned maxPerHold = 8;     // unlink_file_vma_batch's capacity
    bool perVma = false;         // split-locks: each VMA locks its own tree
    bool splitTwoHolds = false;  // split-locks: a split locks the new piece's tree, then the VMA's
};

class AddressSpace;

class AddressSpace {
public:
    // `owner` is stamped on every VMA; `home` and `treeOf(file)` decide where they live.
    AddressSpace(std::int32_t owner, std::int32_t home) : owner_(owner), home_(home) {}
    std::int32_t home() const { return home_; }
    AddressSpace(const AddressSpace&) = delete;
    AddressSpace& operator=(const AddressSpace&) = delete;
    AddressSpace(AddressSpace&&) = default;

    // The tree index new VMAs of each file go to (policy-dependent), set before planning.
    void setTreeOfFile(std::vector<std::int32_t> treeOfFile) { treeOf_ = std::move(treeOfFile); }
    // planSteps: the file (simulator file state) each recipe file's VMAs belong to, when it is
    // not the recipe's index (a per_copy file: each copy its own inode). Empty: the identity.
    void setFileIds(std::vector<std::int32_t> fileIds) { fileIds_ = std::move(fileIds); }

    // Appends to `plan` what one pass over the recipe's steps does. The address space itself
    // changes at once; the trees change when the simulator executes the holds.
    // `lineSteps` (one flag per step, or null) puts a Lines action before each flagged step.
    void planSteps(const Recipe& recipe, const BatchRule& batch, Plan& plan,
                   const std::vector<std::uint8_t>* lineSteps = nullptr);

    // New VMAs take their ids from this counter (shared by every address space of a run).
    void setIdSource(std::uint32_t* next) { nextId_ = next; }

    // One call at a time, in absolute virtual pages (the bpftrace importer replays a real
    // process's calls this way). mmap with `anon` only clears the range, as an anonymous
    // MAP_FIXED mapping does to the file mappings under it.
    void planMmap(std::int32_t file, std::uint64_t startPage, std::uint64_t pages,
                  std::uint64_t pgoff, std::uint8_t prot, bool anon, const BatchRule& batch,
                  Plan& plan);
    void planMunmap(std::uint64_t startPage, std::uint64_t pages, const BatchRule& batch,
                    Plan& plan);
    void planMprotect(std::uint64_t startPage, std::uint64_t pages, std::uint8_t prot, Plan& plan,
                      const BatchRule& batch = {});
    void planExitMmap(const BatchRule& batch, Plan& plan);

    // Called by the executor once a released VMA is out of its tree.
    void recycle(SimVma* vma) { free_.push_back(vma); }

    struct Segment {
        std::uint64_t start = 0;  // virtual pages, end exclusive
        std::uint64_t end = 0;
        std::int32_t file = -1;
        std::uint64_t pgoff = 0;
        std::uint8_t prot = 0;
        // Mapped writable (private): VM_ACCOUNT, kept when mprotect drops the write bit; the
        // segment is also taken to have an anon_vma by the time it is split (relocations
        // write it first).
        bool accounted = false;
        SimVma* vma = nullptr;
    };
    // In address order (a copy: the segments are kept in a map).
    std::vector<Segment> segments() const;
    std::size_t vmaCount() const { return segs_.size(); }

    // Where each file's region starts: files sit in recipe order, 2^32 pages apart, so that
    // teardown meets them in that (address) order.
    static std::uint64_t regionBase(std::int32_t file) {
        return static_cast<std::uint64_t>(file) << 32;
    }

private:
    SimVma* allocate(std::int32_t file);
    void insertOp(Plan& plan, SimVma* vma, std::uint64_t pgoff, std::uint64_t pages);
    // Segments by start. Non-overlapping, so their ends are in the same order: every lookup is
    // a binary search and every change O(log n), so a recipe of n steps plans in O(n log n)
    // (a sorted vector scanned per step made it quadratic: 25,000 mmap steps did not end).
    using Segments = std::map<std::uint64_t, Segment>;
    // The first segment ending after `page` (the one holding it, or the next).
    Segments::iterator firstEndingAfter(std::uint64_t page);
    // __split_vma: the segment is cut at `at`; new_below decides which side is the new VMA.
    // Returns the upper part.
    Segments::iterator split(Segments::iterator it, std::uint64_t at, bool newBelow,
                             const BatchRule& batch, Plan& plan);
    // vms_gather_munmap_vmas + the batched unlink; the range's segments are gone afterwards.
    void unmap(std::uint64_t start, std::uint64_t end, const BatchRule& batch, Plan& plan);
    void unlinkBatched(const std::vector<Segment>& gone, const BatchRule& batch, Plan& plan);
    void map(std::int32_t file, std::uint64_t start, std::uint64_t end, std::uint64_t pgoff,
             std::uint8_t prot, const BatchRule& batch, Plan& plan);
    // vma_merge_new_range + vma_expand; false when no neighbour is compatible.
    bool mergeNew(std::int32_t file, std::uint64_t start, std::uint64_t end, std::uint64_t pgoff,
                  std::uint8_t prot, const BatchRule& batch, Plan& plan);
    void protect(std::uint64_t start, std::uint64_t end, std::uint8_t prot, const BatchRule& batch,
                 Plan& plan);
    void pushHold(Plan& plan, Hold::Kind kind, std::int32_t file, std::uint32_t firstOp,
                  bool store = false, bool anonVma = false);

    std::int32_t owner_;
    std::int32_t home_;
    std::vector<std::int32_t> treeOf_;
    std::vector<std::int32_t> fileIds_;
    Segments segs_;
    std::deque<SimVma> pool_;  // stable addresses for tree nodes
    std::vector<SimVma*> free_;
    std::uint32_t* nextId_ = nullptr;
};

// Carries out one planned operation on the VMA's tree (an itree::IntervalTree, or the
// simulator's FileTree): an insert first gives the VMA its new interval; a final removal hands
// the VMA back to its address space for reuse.
template <class Tree>
void applyTreeOp(const TreeOp& op, Tree& tree, AddressSpace& as) {
    if (op.kind == TreeOp::Insert) {
        op.vma->start = op.start;
        op.vma->last = op.last;
        tree.insert(op.vma);
    } else {
        tree.remove(op.vma);
        if (op.release) as.recycle(op.vma);
    }
}

}  // namespace immap::sim
