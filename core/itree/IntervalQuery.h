#pragma once
// The overlap query of interval_tree_generic.h (iter_first / iter_next with their subtree_last
// pruning), written once with a hook that sees every node whose fields it reads. The tree's
// own iterFirst/iterNext use it with a no-op hook; the simulator's whole-file walkers use it to
// price each node an rmap walk visits, pruned subtrees excluded, as the kernel's walk reads them.

#include "IntervalTree.h"

namespace immap::itree {

namespace detail {

// Leftmost node of `node`'s subtree that overlaps [start, last], given that some node in the
// subtree ends at or after start (start <= node->subtreeLast()).
template <class Visit>
Node* subtreeSearch(Node* node, Index start, Index last, Visit& visit) {
    for (;;) {
        visit(static_cast<const Node*>(node));
        Node* left = node->left();
        if (left && start <= left->subtreeLast()) {
            node = left;  // the leftmost match, if any, is on the left
            continue;
        }
        if (node->start > last) return nullptr;  // this and everything right start too late
        if (start <= node->last) return node;
        node = node->right();  // the subtree's max lies to the right
        if (!node || start > node->subtreeLast()) return nullptr;
    }
}

}  // namespace detail

template <class Visit>
Node* queryFirst(const IntervalTree& tree, Index start, Index last, Visit&& visit) {
    Node* root = tree.root();
    if (!root) return nullptr;
    // O(1) rejections: nothing ends late enough, or everything starts too late. They read the
    // root and the cached leftmost node; the search then reads the root again (a cache hit,
    // not reported twice).
    if (root->subtreeLast() < start) {
        visit(static_cast<const Node*>(root));
        return nullptr;
    }
    const Node* leftmost = tree.leftmost();
    if (leftmost != root) visit(leftmost);
    if (leftmost->start > last) {
        visit(static_cast<const Node*>(root));
        return nullptr;
    }
    return detail::subtreeSearch(root, start, last, visit);
}

template <class Visit>
Node* queryNext(Node* node, Index start, Index last, Visit&& visit) {
    Node* rb = node->right();
    for (;;) {
        if (rb && start <= rb->subtreeLast()) return detail::subtreeSearch(rb, start, last, visit);
        // Climb until we arrive from a left child: that parent is the next node in order.
        Node* from;
        do {
            rb = node->parent();
            if (!rb) return nullptr;
            from = node;
            node = rb;
            rb = node->right();
        } while (from == rb);
        visit(static_cast<const Node*>(node));
        if (last < node->start) return nullptr;
        if (start <= node->last) return node;
    }
}

}  // namespace immap::itree
