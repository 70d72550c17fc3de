#include "ReplayTree.h"

#include "IntervalTree.h"

namespace immap::itree {

namespace {

const Node* asNode(std::uint64_t v) {
    return reinterpret_cast<const Node*>(v);
}
std::uint64_t asValue(const Node* n) {
    return reinterpret_cast<std::uintptr_t>(n);
}

}  // namespace

ReplayTree::ReplayTree(const IntervalTree& tree) : root_(tree.root()), leftmost_(tree.leftmost()) {
    std::vector<const Node*> stack;
    if (root_) stack.push_back(root_);
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        nodes_[n] = NodeState{n->parent(), n->left(), n->right(), n->color(), n->subtreeLast()};
        if (n->left()) stack.push_back(n->left());
        if (n->right()) stack.push_back(n->right());
    }
}

const ReplayTree::NodeState& ReplayTree::state(const Node* n) const {
    static const NodeState kFresh{};
    auto it = nodes_.find(n);
    return it == nodes_.end() ? kFresh : it->second;
}

std::uint64_t ReplayTree::read(const Change& c) const {
    switch (c.field) {
        case Field::Root:
            return asValue(root_);
        case Field::Leftmost:
            return asValue(leftmost_);
        default:
            break;
    }
    const NodeState& s = state(c.node);
    switch (c.field) {
        case Field::Parent:
            return asValue(s.parent);
        case Field::Left:
            return asValue(s.left);
        case Field::Right:
            return asValue(s.right);
        case Field::Color:
            return static_cast<std::uint64_t>(s.color);
        case Field::SubtreeLast:
            return s.subtreeLast;
        default:
            return 0;
    }
}

void ReplayTree::write(const Change& c, std::uint64_t v) {
    if (c.field == Field::Root) {
        root_ = asNode(v);
        return;
    }
    if (c.field == Field::Leftmost) {
        leftmost_ = asNode(v);
        return;
    }
    NodeState& s = nodes_[c.node];
    switch (c.field) {
        case Field::Parent:
            s.parent = asNode(v);
            break;
        case Field::Left:
            s.left = asNode(v);
            break;
        case Field::Right:
            s.right = asNode(v);
            break;
        case Field::Color:
            s.color = static_cast<Color>(v);
            break;
        case Field::SubtreeLast:
            s.subtreeLast = v;
            break;
        default:
            break;
    }
}

bool ReplayTree::apply(std::span<const Change> changes) {
    bool fits = true;
    for (const Change& c : changes) {
        fits = fits && (c.init || read(c) == c.before);
        write(c, c.after);
    }
    return fits;
}

bool ReplayTree::revert(std::span<const Change> changes) {
    bool fits = true;
    for (auto it = changes.rbegin(); it != changes.rend(); ++it) {
        fits = fits && read(*it) == it->after;
        write(*it, it->before);
    }
    return fits;
}

std::vector<const Node*> ReplayTree::inorder() const {
    std::vector<const Node*> out;
    std::vector<const Node*> stack;
    const Node* cur = root_;
    while (cur || !stack.empty()) {
        while (cur) {
            stack.push_back(cur);
            cur = state(cur).left;
        }
        cur = stack.back();
        stack.pop_back();
        out.push_back(cur);
        cur = state(cur).right;
    }
    return out;
}

std::string ReplayTree::differenceFrom(const IntervalTree& tree) const {
    if (root_ != tree.root()) return "root differs";
    if (leftmost_ != tree.leftmost()) return "leftmost differs";
    std::vector<const Node*> stack;
    if (root_) stack.push_back(root_);
    std::size_t seen = 0;
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        if (++seen > tree.size()) return "replay reaches more nodes than the tree holds";
        const NodeState& s = state(n);
        const std::string where =
            "node [" + std::to_string(n->start) + ", " + std::to_string(n->last) + "]";
        if (s.parent != n->parent()) return where + ": parent differs";
        if (s.left != n->left()) return where + ": left child differs";
        if (s.right != n->right()) return where + ": right child differs";
        if (s.color != n->color()) return where + ": colour differs";
        if (s.subtreeLast != n->subtreeLast()) return where + ": subtree_last differs";
        if (s.left) stack.push_back(s.left);
        if (s.right) stack.push_back(s.right);
    }
    if (seen != tree.size()) return "replay reaches fewer nodes than the tree holds";
    return {};
}

}  // namespace immap::itree
