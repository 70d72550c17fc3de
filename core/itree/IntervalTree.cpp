#include "IntervalTree.h"

#include "IntervalQuery.h"
#include "TreeWriter.h"

namespace immap::itree {

void IntervalTree::insert(Node* node) {
    if (recorder_) {
        TreeWriter<Steps>(*this, Steps{*recorder_, Op::Insert}).insert(node);
    } else if (observer_) {
        TreeWriter<Touches>(*this, Touches{*observer_}).insert(node);
    } else {
        TreeWriter<NoSteps>(*this, NoSteps{}).insert(node);
    }
}

bool IntervalTree::insertAfter(Node* node, Node* prev) {
    if (node->start != prev->start || node->last > prev->subtreeLast_) return false;
    if (recorder_) {
        TreeWriter<Steps>(*this, Steps{*recorder_, Op::InsertAfter}).insertAfter(node, prev);
    } else if (observer_) {
        TreeWriter<Touches>(*this, Touches{*observer_}).insertAfter(node, prev);
    } else {
        TreeWriter<NoSteps>(*this, NoSteps{}).insertAfter(node, prev);
    }
    return true;
}

void IntervalTree::remove(Node* node) {
    if (recorder_) {
        TreeWriter<Steps>(*this, Steps{*recorder_, Op::Remove}).remove(node);
    } else if (observer_) {
        TreeWriter<Touches>(*this, Touches{*observer_}).remove(node);
    } else {
        TreeWriter<NoSteps>(*this, NoSteps{}).remove(node);
    }
}

void IntervalTree::capture(std::vector<LinkRecord>& out) const {
    out.clear();
    out.reserve(size_);
    for (Node* n = leftmost_; n; n = next(n))
        out.push_back({n, n->parent(), n->left_, n->right_, n->color(), n->subtreeLast_});
}

void IntervalTree::restore(const std::vector<LinkRecord>& links, Node* root, Node* leftmost) {
    for (const LinkRecord& r : links) {
        r.node->parentColor_ =
            reinterpret_cast<std::uintptr_t>(r.parent) | static_cast<std::uintptr_t>(r.color);
        r.node->left_ = r.left;
        r.node->right_ = r.right;
        r.node->subtreeLast_ = r.subtreeLast;
    }
    root_ = root;
    leftmost_ = leftmost;
    size_ = links.size();
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
constexpr auto kNoVisit = [](const Node*) {};
}  // namespace

Node* IntervalTree::iterFirst(Index start, Index last) const {
    return queryFirst(*this, start, last, kNoVisit);
}

Node* IntervalTree::iterNext(Node* node, Index start, Index last) {
    return queryNext(node, start, last, kNoVisit);
}

}  // namespace immap::itree
