#pragma once
// The kernel's i_mmap tree: an augmented red-black tree of closed intervals ordered by start
// (equal starts go right), each node carrying the max `last` of its subtree, with the leftmost
// node cached (vma_interval_tree over rb_root_cached). Every case of insert, erase and their
// fix-ups follows lib/rbtree.c and include/linux/interval_tree_generic.h as described in
// docs/kernel.md, "1. The interval tree", so that any op sequence ends in the kernel's exact shape,
// colours and subtree_last values.

#include <cstddef>
#include <vector>

#include "Node.h"

namespace immap::itree {

class StepRecorder;
class TouchObserver;

class IntervalTree {
public:
    IntervalTree() = default;
    IntervalTree(const IntervalTree&) = delete;
    IntervalTree& operator=(const IntervalTree&) = delete;

    // vma_interval_tree_insert. The node must not be in any tree.
    void insert(Node* node);
    // vma_interval_tree_insert_after, as dup_mmap() uses at fork: node goes right after prev
    // in order, the leftmost cache is untouched. Like the kernel it requires node->start ==
    // prev->start and raises subtree_last only below prev, so node->last must not exceed
    // prev->subtreeLast() (a fork copy has prev's exact interval). Returns false, changing
    // nothing, when the precondition fails.
    bool insertAfter(Node* node, Node* prev);
    // vma_interval_tree_remove. The node must be in this tree.
    void remove(Node* node);

    // Overlap query with the kernel's pruning; results come in in-order (ascending start).
    //   for (auto* n = t.iterFirst(s, l); n; n = IntervalTree::iterNext(n, s, l)) ...
    Node* iterFirst(Index start, Index last) const;
    static Node* iterNext(Node* node, Index start, Index last);

    // In-order neighbours (rb_next / rb_prev).
    static Node* next(const Node* node);
    static Node* prev(const Node* node);

    Node* root() const { return root_; }
    Node* leftmost() const { return leftmost_; }
    bool empty() const { return root_ == nullptr; }
    std::size_t size() const { return size_; }

    // Forget every node (they keep stale links); O(1), for benches and resets.
    void clear() {
        root_ = leftmost_ = nullptr;
        size_ = 0;
    }

    // A tree's exact structure, for checkpoints: every node with its links, colour and
    // subtree_last. capture() records it; restore() puts it back on the same or other nodes
    // (the caller maps them) without running any algorithm, so the shape is the recorded one.
    struct LinkRecord {
        Node* node;
        Node* parent;
        Node* left;
        Node* right;
        Color color;
        Index subtreeLast;
    };
    void capture(std::vector<LinkRecord>& out) const;
    void restore(const std::vector<LinkRecord>& links, Node* root, Node* leftmost);

    // When set, every following update records its primitive steps (see StepRecorder.h).
    void setRecorder(StepRecorder* recorder) { recorder_ = recorder; }
    StepRecorder* recorder() const { return recorder_; }
    // When set (and no recorder is), every following update reports the nodes it reads and
    // writes (see TouchObserver.h).
    void setObserver(TouchObserver* observer) { observer_ = observer; }

private:
    template <class Rec>
    friend class TreeWriter;

    Node* root_ = nullptr;
    Node* leftmost_ = nullptr;
    std::size_t size_ = 0;
    StepRecorder* recorder_ = nullptr;
    TouchObserver* observer_ = nullptr;
};

}  // namespace immap::itree
