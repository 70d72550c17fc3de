#include "DrawTree.h"

#include <algorithm>
#include <unordered_map>

namespace immap::session {

namespace {

// One in-order walk with an explicit stack (100k-node trees are deep enough to matter only for
// recursion-happy code, but the walk is cheap either way).
template <class Left, class Right, class Fill>
DrawTree build(const itree::Node* root, Left left, Right right, Fill fill, std::size_t hint) {
    DrawTree out;
    out.nodes.reserve(hint);
    std::unordered_map<const itree::Node*, int> index;
    index.reserve(hint);
    struct Frame {
        const itree::Node* n;
        int depth;
    };
    std::vector<Frame> stack;
    const itree::Node* cur = root;
    int depth = 0;
    while (cur || !stack.empty()) {
        while (cur) {
            stack.push_back({cur, depth});
            cur = left(cur);
            ++depth;
        }
        const Frame f = stack.back();
        stack.pop_back();
        DrawNode d;
        d.depth = f.depth;
        fill(f.n, d);
        index[f.n] = static_cast<int>(out.nodes.size());
        out.nodes.push_back(d);
        out.height = std::max(out.height, f.depth + 1);
        cur = right(f.n);
        depth = f.depth + 1;
    }
    // Second pass: links by index.
    std::vector<const itree::Node*> byIndex(out.nodes.size());
    for (const auto& [n, i] : index)
        byIndex[static_cast<std::size_t>(i)] = n;
    for (std::size_t i = 0; i < byIndex.size(); ++i) {
        const itree::Node* n = byIndex[i];
        DrawNode& d = out.nodes[i];
        if (const itree::Node* l = left(n)) {
            d.left = index.at(l);
            out.nodes[static_cast<std::size_t>(d.left)].parent = static_cast<int>(i);
        }
        if (const itree::Node* r = right(n)) {
            d.right = index.at(r);
            out.nodes[static_cast<std::size_t>(d.right)].parent = static_cast<int>(i);
        }
    }
    if (root) out.root = index.at(root);
    return out;
}

void fillVma(const TreeSet& set, const itree::Node* n, DrawNode& d) {
    d.start = n->start;
    d.last = n->last;
    d.id = TreeSet::idOf(n);
    const mapping::Vma& v = set.entry(d.id).vma;
    d.homeNode = v.homeNode;
    d.pid = v.pid;
}

}  // namespace

int DrawTree::indexOfId(int id) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].id == id) return static_cast<int>(i);
    return -1;
}

DrawTree DrawTree::of(const itree::IntervalTree& tree, const TreeSet& set) {
    return build(
        tree.root(), [](const itree::Node* n) -> const itree::Node* { return n->left(); },
        [](const itree::Node* n) -> const itree::Node* { return n->right(); },
        [&](const itree::Node* n, DrawNode& d) {
            fillVma(set, n, d);
            d.red = n->isRed();
            d.subtreeLast = n->subtreeLast();
        },
        tree.size());
}

DrawTree DrawTree::of(const itree::ReplayTree& replay, const TreeSet& set) {
    return build(
        replay.root(), [&](const itree::Node* n) { return replay.state(n).left; },
        [&](const itree::Node* n) { return replay.state(n).right; },
        [&](const itree::Node* n, DrawNode& d) {
            fillVma(set, n, d);
            const auto& s = replay.state(n);
            d.red = s.color == itree::Color::Red;
            d.subtreeLast = s.subtreeLast;
        },
        64);
}

}  // namespace immap::session
