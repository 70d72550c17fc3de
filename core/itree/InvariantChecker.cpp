#include "InvariantChecker.h"

#include <algorithm>

#include "IntervalTree.h"

namespace immap::itree {

namespace {

std::string name(const Node* n) {
    std::string s(1, '[');  // built by appending: GCC 12 warns falsely on "[" + to_string()
    s.append(std::to_string(n->start)).append(", ").append(std::to_string(n->last));
    return s.append(1, ']');
}

struct Walker {
    std::size_t limit = 0;  // a corrupt tree may have a cycle: never visit more than this
    std::size_t visited = 0;
    const Node* previous = nullptr;  // in-order predecessor
    const Node* first = nullptr;
    std::string error;

    bool fail(std::string e) {
        if (error.empty()) error = std::move(e);
        return false;
    }

    // Returns false on the first violation; fills the subtree's height and black height.
    bool walk(const Node* n, int& height, int& blackHeight) {
        if (!n) {
            height = 0;
            blackHeight = 1;  // null leaves are black
            return true;
        }
        if (++visited > limit) return fail("more nodes reachable than the tree's size (cycle?)");
        for (const Node* c : {n->left(), n->right()}) {
            if (c && c->parent() != n) return fail("node " + name(c) + ": parent link is wrong");
            if (c && n->isRed() && c->isRed())
                return fail("red node " + name(n) + " has a red child " + name(c));
        }
        if (n->start > n->last) return fail("node " + name(n) + ": start > last");
        int lh = 0, lb = 0, rh = 0, rb = 0;
        if (!walk(n->left(), lh, lb)) return false;
        if (!first) first = n;
        if (previous && previous->start > n->start)
            return fail("in-order starts decrease at " + name(previous) + " -> " + name(n));
        previous = n;
        if (!walk(n->right(), rh, rb)) return false;
        if (lb != rb) return fail("black heights differ under " + name(n));
        Index max = n->last;
        if (n->left()) max = std::max(max, n->left()->subtreeLast());
        if (n->right()) max = std::max(max, n->right()->subtreeLast());
        if (n->subtreeLast() != max)
            return fail("node " + name(n) + ": subtree_last " + std::to_string(n->subtreeLast()) +
                        ", should be " + std::to_string(max));
        height = 1 + std::max(lh, rh);
        blackHeight = lb + (n->isBlack() ? 1 : 0);
        return true;
    }
};

}  // namespace

CheckResult InvariantChecker::check(const IntervalTree& tree) {
    CheckResult r;
    const Node* root = tree.root();
    Walker w;
    w.limit = tree.size();
    auto done = [&r](std::string e) {
        r.ok = false;
        r.error = std::move(e);
        return r;
    };
    if (root && root->parent()) return done("root has a parent");
    if (root && root->isRed()) return done("root is red");
    int height = 0, blackHeight = 0;
    if (!w.walk(root, height, blackHeight)) return done(w.error);
    if (w.visited != tree.size())
        return done("size is " + std::to_string(tree.size()) + " but " + std::to_string(w.visited) +
                    " nodes are reachable");
    if (tree.leftmost() != w.first) return done("leftmost cache is not the first node in order");
    r.shape = TreeShape{w.visited, height, root ? blackHeight - 1 : 0};
    return r;
}

}  // namespace immap::itree
