#include "IntervalTree.h"

#include "TreeWriter.h"

namespace immap::itree {

void IntervalTree::insert(Node* node) {
    if (recorder_) {
        TreeWriter<Steps>(*this, Steps{*recorder_, Op::Insert}).insert(node);
    } else {
        TreeWriter<NoSteps>(*this, NoSteps{}).insert(node);
    }
}

bool IntervalTree::insertAfter(Node* node, Node* prev) {
    if (node->start != prev->start || node->last > prev->subtreeLast_) return false;
    if (recorder_) {
        TreeWriter<Steps>(*this, Steps{*recorder_, Op::InsertAfter}).insertAfter(node, prev);
    } else {
        TreeWriter<NoSteps>(*this, NoSteps{}).insertAfter(node, prev);
    }
    return true;
}

void IntervalTree::remove(Node* node) {
    if (recorder_) {
        TreeWriter<Steps>(*this, Steps{*recorder_, Op::Remove}).remove(node);
    } else {
        TreeWriter<NoSteps>(*this, NoSteps{}).remove(node);
    }
}

Node* IntervalTree::next(const Node* node) {
    if (node->right_) {
        node = node->right_;
        while (node->left_)
            node = node->left_;
        return const_cast<Node*>(node);
    }
    Node* parent;
    while ((parent = node->parent()) && node == parent->right_)
        node = parent;
    return parent;
}

Node* IntervalTree::prev(const Node* node) {
    if (node->left_) {
        node = node->left_;
        while (node->right_)
            node = node->right_;
        return const_cast<Node*>(node);
    }
    Node* parent;
    while ((parent = node->parent()) && node == parent->left_)
        node = parent;
    return parent;
}

namespace {

// Leftmost node of `node`'s subtree that overlaps [start, last], given that some node in the
// subtree ends at or after start (start <= node->subtreeLast()).
Node* subtreeSearch(Node* node, Index start, Index last) {
    for (;;) {
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

}  // namespace

Node* IntervalTree::iterFirst(Index start, Index last) const {
    if (!root_) return nullptr;
    // O(1) rejections: nothing ends late enough, or everything starts too late.
    if (root_->subtreeLast_ < start) return nullptr;
    if (leftmost_->start > last) return nullptr;
    return subtreeSearch(root_, start, last);
}

Node* IntervalTree::iterNext(Node* node, Index start, Index last) {
    Node* rb = node->right_;
    for (;;) {
        if (rb && start <= rb->subtreeLast_) return subtreeSearch(rb, start, last);
        // Climb until we arrive from a left child: that parent is the next node in order.
        Node* from;
        do {
            rb = node->parent();
            if (!rb) return nullptr;
            from = node;
            node = rb;
            rb = node->right_;
        } while (from == rb);
        if (last < node->start) return nullptr;
        if (start <= node->last) return node;
    }
}

}  // namespace immap::itree
