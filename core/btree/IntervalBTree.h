#pragma once
// A B+tree interval index over the same closed intervals as the kernel's i_mmap tree
// (core/itree), the structure Matthew Wilcox suggested in the split's review: items ordered
// by start, equal starts in insertion order (insert goes after every equal start, as the
// rbtree's equal keys go right; insertAfter puts a fork's copy right after its parent's VMA,
// as vma_interval_tree_insert_after does), every internal slot carrying its subtree's max
// `last` so that an overlap query prunes as vma_interval_tree_iter_first/next do, and returns
// the same items in the same order. Nodes are cache-line aligned arrays (Leaf.h says why 16).
//
// What the kernel would still need (RCU-safe readers, the rmap walk's locking) is not here:
// docs/btree.md.

#include <cstddef>
#include <vector>

#include "Inner.h"
#include "Item.h"
#include "Leaf.h"
#include "NodePool.h"
#include "StepHook.h"
#include "TouchObserver.h"

namespace immap::btree {

class IntervalBTree {
public:
    IntervalBTree() = default;
    ~IntervalBTree();
    IntervalBTree(const IntervalBTree&) = delete;
    IntervalBTree& operator=(const IntervalBTree&) = delete;

    // The item must not be in any index.
    void insert(Item* item);
    // Right after prev in order; like the kernel's, requires item->start == prev->start.
    // Returns false, changing nothing, when it does not hold.
    bool insertAfter(Item* item, Item* prev);
    // The item must be in this index: found from its back pointer, no search.
    void remove(Item* item);

    // Every item overlapping [start, last], in order (ascending start, equal starts in
    // insertion order): f(Item*) for each.
    template <class F>
    void forOverlapping(Index start, Index last, F&& f) const {
        // A traced query is a second instantiation: an untraced one pays nothing for tracing.
        if (!root_) return;
        if (hook_) [[unlikely]]
            visit<true>(root_, height_, start, last, f);
        else
            visit<false>(root_, height_, start, last, f);
    }
    std::vector<Item*> overlapping(Index start, Index last) const;

    // In order.
    template <class F>
    void forEach(F&& f) const {
        forOverlapping(0, ~Index{0}, f);
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    int height() const { return height_; }  // levels, leaves included; 0 when empty
    void* root() const { return root_; }
    std::size_t leafCount() const { return leaves_; }
    std::size_t innerCount() const { return inners_; }
    std::size_t bytes() const { return leaves_ * sizeof(Leaf) + inners_ * sizeof(Inner); }
    // The memory the items' linkage takes: the nodes plus each item's back pointer (what
    // replaces the rbtree's 32 bytes in a VMA).
    std::size_t linkBytes() const { return bytes() + sizeof(Leaf*) * size_; }

    // When set, every following operation reports what it reads and writes (TouchObserver.h:
    // LineCounter counts the lines, the simulator prices them).
    void setObserver(TouchObserver* observer) { observer_ = observer; }
    // When set, every following update and query reports its primitive steps (StepHook.h).
    void setStepHook(StepHook* hook) { hook_ = hook; }

private:
    friend class BTreeChecker;

    template <bool Traced, class F>
    void visit(const void* node, int level, Index start, Index last, F& f) const;
    void rd(const void* p, std::size_t bytes) const {
        if (observer_) [[unlikely]]
            observer_->read(p, bytes);
    }
    void wr(const void* p, std::size_t bytes) const {
        if (observer_) [[unlikely]]
            observer_->write(p, bytes);
    }
    void note(StepKind kind, const void* node, int slot = -1, const Item* item = nullptr) const {
        if (hook_) [[unlikely]]
            report(kind, node, slot, item);
    }
    // Out of line and cold, so that an untraced operation's code stays as tight as before.
    [[gnu::cold, gnu::noinline]] void report(StepKind kind, const void* node, int slot,
                                             const Item* item) const;
    void moved(Item* item, Leaf* to);

    void insertAt(Leaf* leaf, int pos, Item* item);
    // Puts `right` (a new node) into `parent` right after `left`, splitting upwards as needed.
    void link(Inner* parent, void* left, void* right, Index sep, bool leaves);
    // Max-last up, after an insert; exact max-last up, after a remove. Traced: with a step per
    // write (a second instantiation, as visit's).
    template <bool Traced>
    void raise(Leaf* leaf, Index last, bool stopWhenCovered);
    void raise(Leaf* leaf, Index last, bool stopWhenCovered) {
        hook_ ? raise<true>(leaf, last, stopWhenCovered)
              : raise<false>(leaf, last, stopWhenCovered);
    }
    template <bool Traced>
    void refresh(Leaf* leaf, Index removedLast);
    void refresh(Leaf* leaf, Index removedLast) {
        hook_ ? refresh<true>(leaf, removedLast) : refresh<false>(leaf, removedLast);
    }
    // The child of n that a search for `start` goes down to.
    static int childFor(const Inner* n, Index start);
    void noteDescent(Index start) const;
    void rebalance(Leaf* leaf);
    void rebalance(Inner* node);
    void unlinkChild(Inner* parent, int slot);
    static int slotOf(const Inner* parent, const void* child);
    Index maxOf(void* node, bool leaf) const;
    Leaf* newLeaf();
    Inner* newInner(bool leaves);
    void free(Leaf* l);
    void free(Inner* n);
    void destroy(void* node, int level);

    void* root_ = nullptr;
    int height_ = 0;
    std::size_t size_ = 0;
    std::size_t leaves_ = 0;
    std::size_t inners_ = 0;
    TouchObserver* observer_ = nullptr;
    StepHook* hook_ = nullptr;
    NodePool pool_;  // freed nodes, reused before new ones
};

template <bool Traced, class F>
void IntervalBTree::visit(const void* node, int level, Index start, Index last, F& f) const {
    // A scan reports each key line as it enters it (kPerLine keys): its loads of one line are
    // that line's traffic once.
    constexpr int kPerLine = 64 / sizeof(Index);
    if constexpr (Traced) note(StepKind::Visit, node);
    if (level == 1) {
        const auto* l = static_cast<const Leaf*>(node);
        rd(l, 64);
        int itemLine = -1;  // the line of item pointers last reported
        for (int i = 0; i < l->count; ++i) {
            if (i % kPerLine == 0) rd(&l->start[i], sizeof(Index));
            if (l->start[i] > last) return;  // every later start is larger
            if (i % kPerLine == 0) rd(&l->last[i], sizeof(Index));
            if (l->last[i] >= start) {
                if (i / kPerLine != itemLine) rd(&l->item[i], sizeof(Item*));
                itemLine = i / kPerLine;
                if constexpr (Traced) note(StepKind::Match, l, i, l->item[i]);
                f(l->item[i]);
            }
        }
        return;
    }
    const auto* n = static_cast<const Inner*>(node);
    rd(n, 64);
    for (int i = 0; i < n->count; ++i) {
        if (i % kPerLine == 0) rd(&n->sep[i], sizeof(Index));
        if (i > 0 && n->sep[i] > last) return;  // child i and later start after `last`
        if (i % kPerLine == 0) rd(&n->maxLast[i], sizeof(Index));
        if (n->maxLast[i] < start) {  // nothing in it reaches `start`
            if constexpr (Traced) note(StepKind::Prune, n, i);
            continue;
        }
        rd(&n->child[i], sizeof(void*));
        visit<Traced>(n->child[i], level - 1, start, last, f);
    }
}

}  // namespace immap::btree
