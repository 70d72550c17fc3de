#pragma once
// How a file's i_mmap is organised: today's single tree, or one of the proposed splits.

#include <cstddef>
#include <string>
#include <string_view>

namespace immap::mapping {

struct Policy {
    enum class Kind {
        Single,      // today: one tree, one rwsem
        SplitTrees,  // proposal v1: one tree per NUMA node, still one rwsem
        SplitLocks,  // proposal v2: one tree and one rwsem per NUMA node
        Sharded,     // review alternative: one tree + lock per K CPUs under a top-level rwsem
        // Yibin Liu's RWH_RMAP_EXCLUDE (2026-04): files marked in the recipe (libc, ld.so) are
        // in no i_mmap tree at all; the others as single. Whole-file walkers cannot find the
        // marked files' VMAs: reclaim, migration and memory-failure of their pages are lost.
        NoRmap,
    };
    // What each tree is: the kernel's augmented rbtree, or the B+tree interval index the
    // split's review suggested (core/btree; issue 20). Placement and locking are the kind's.
    enum class Structure {
        RbTree,
        BTree,
    };
    Kind kind = Kind::Single;
    unsigned cpusPerShard = 0;  // K, for Sharded
    Structure structure = Structure::RbTree;

    // "single", "split-trees", "split-locks", "sharded:K", "no-rmap"; "btree" (single's one
    // tree and lock, as a B-tree) and "btree+" before any other ("btree+split-locks").
    // Returns false with the reason.
    static bool parse(std::string_view text, Policy& out, std::string& error);
    std::string name() const;
    // Whether `text` parses as a policy whose trees are B-trees ("btree", "btree+split-locks").
    static bool namesBTree(std::string_view text);

    // Bytes this policy adds to every inode over today's embedded root and rwsem, as the
    // patches allocate them (docs/kernel.md, "7. Memory per inode"):
    //   split-trees: trees x 16 B (rb_root_cached, kzalloc_node each)
    //                + (trees + 1) x 8 B (the NULL-terminated pointer array);
    //   split-locks: trees x 64 B (struct i_mmap_tree: 16 B root + 40 B rw_semaphore + 4 B
    //                atomic_t, rounded to kmalloc-64) + (trees + 1) x 8 B;
    //   sharded:K:   the same per-tree cost as split-locks (each shard has its own lock), with
    //                today's rwsem kept as the top-level lock;
    //   single:      0.
    static constexpr std::size_t kRootBytes = 16;
    static constexpr std::size_t kLockedTreeBytes = 64;
    static constexpr std::size_t kSlotBytes = 8;
    std::size_t memoryPerInodeBytes(std::size_t trees) const;
};

}  // namespace immap::mapping
