#pragma once
// One of a file's i_mmap trees in the simulator, in the policy's structure: the kernel's
// augmented rbtree (core/itree), or the B-tree interval index (core/btree). The simulator's
// op interpreter, its rmap walks and its results go through this one interface, so the two
// structures are run by the same code and priced by the same Pricer.

#include <cstddef>
#include <memory>

#include "btree/IntervalBTree.h"
#include "itree/IntervalQuery.h"
#include "itree/IntervalTree.h"
#include "mapping/Policy.h"
#include "sim/SimVma.h"

namespace immap::sim {

class Pricer;

class FileTree {
public:
    // Every update's touches go to `pricer` (null: none).
    FileTree(mapping::Policy::Structure structure, Pricer* pricer);

    // The VMA's interval is its rb node's (start, last).
    void insert(SimVma* v);
    void remove(SimVma* v);

    std::size_t size() const { return rb_ ? rb_->size() : bt_->size(); }
    // Nodes on the longest root-to-leaf path (rbtree), or levels (B-tree); 0 when empty.
    int height() const;
    bool isBTree() const { return bt_ != nullptr; }
    // The memory its VMAs' linkage takes: the rbtree's 32 bytes per VMA (vm_area_struct's
    // shared.rb and rb_subtree_last), or the B-tree's nodes plus an 8-byte back pointer per VMA.
    std::size_t linkBytes() const;

    // Every VMA overlapping [first, last], in order: found(SimVma*). The rbtree's node reads
    // (each a VMA) go to rbRead(const SimVma*), as vma_interval_tree_iter_first/next make them;
    // the B-tree's line reads go to its pricer.
    template <class RbRead, class Found>
    void query(std::uint64_t first, std::uint64_t last, RbRead&& rbRead, Found&& found) const {
        if (bt_) {
            bt_->forOverlapping(first, last,
                                [&](btree::Item* it) { found(static_cast<SimVma*>(it)); });
            return;
        }
        auto visit = [&](const itree::Node* n) { rbRead(static_cast<const SimVma*>(n)); };
        for (itree::Node* n = itree::queryFirst(*rb_, first, last, visit); n;
             n = itree::queryNext(n, first, last, visit))
            found(static_cast<SimVma*>(n));
    }

private:
    Pricer* pricer_ = nullptr;
    std::unique_ptr<itree::IntervalTree> rb_;
    std::unique_ptr<btree::IntervalBTree> bt_;
};

}  // namespace immap::sim
