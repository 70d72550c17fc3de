#include "DrawTree.h"

#include <algorithm>

namespace immap::session {

namespace {

// One in-order walk with an explicit stack, linking by index as it goes (no hashing: a
// 100,000-node tree is rebuilt on every animation step). A node's left subtree is emitted before
// it, so its frame remembers the left child's index; its right subtree after, so a right child
// finds its parent's index already known.
template <class Left, class Right, class Fill>
DrawTree build(const itree::Node* root, Left left, Right right, Fill fill, std::size_t hint) {
    DrawTree out;
    out.nodes.reserve(hint);
    struct Frame {
        const itree::Node* n;
        int depth;
        int parentFrame;  // index into frames, -1 for the root
        bool isLeft;
        int index = -1;      // in-order index once emitted
        int leftIndex = -1;  // the left child's index, known before this node is emitted
    };
    std::vector<Frame> frames;
    frames.reserve(hint);
    std::vector<int> stack;  // frame indices
    auto descendLeft = [&](const itree::Node* n, int depth, int parentFrame, bool isLeft) {
        while (n) {
            frames.push_back({n, depth, parentFrame, isLeft});
            const int f = static_cast<int>(frames.size()) - 1;
            stack.push_back(f);
            parentFrame = f;
            isLeft = true;
            n = left(n);
            ++depth;
        }
    };
    descendLeft(root, 0, -1, false);
    while (!stack.empty()) {
        const int f = stack.back();
        stack.pop_back();
        const int i = static_cast<int>(out.nodes.size());
        frames[static_cast<std::size_t>(f)].index = i;
        const Frame fr = frames[static_cast<std::size_t>(f)];
        DrawNode d;
        d.depth = fr.depth;
        fill(fr.n, d);
        d.left = fr.leftIndex;
        if (d.left >= 0) out.nodes[static_cast<std::size_t>(d.left)].parent = i;
        if (fr.parentFrame >= 0) {
            Frame& p = frames[static_cast<std::size_t>(fr.parentFrame)];
            if (fr.isLeft) {
                p.leftIndex = i;
            } else {
                d.parent = p.index;
                out.nodes[static_cast<std::size_t>(p.index)].right = i;
            }
        } else {
            out.root = i;
        }
        out.nodes.push_back(d);
        out.height = std::max(out.height, fr.depth + 1);
        descendLeft(right(fr.n), fr.depth + 1, f, false);
    }
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

DrawTree DrawTree::of(const itree::IntervalTree& tree,
                      const std::function<void(const itree::Node*, DrawNode&)>& describe) {
    return build(
        tree.root(), [](const itree::Node* n) { return n->left(); },
        [](const itree::Node* n) { return n->right(); },
        [&](const itree::Node* n, DrawNode& d) {
            d.start = n->start;
            d.last = n->last;
            d.subtreeLast = n->subtreeLast();
            d.red = n->isRed();
            describe(n, d);
        },
        tree.size());
}

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
