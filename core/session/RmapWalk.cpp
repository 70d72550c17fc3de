#include "RmapWalk.h"

namespace immap::session {

namespace {

using itree::Index;
using itree::Node;

struct Walker {
    Index start, last;
    WalkResult& out;

    void note(WalkEvent::Kind k, const Node* n) { out.events.push_back({k, TreeSet::idOf(n)}); }
    void visit(const Node* n) {
        note(WalkEvent::Kind::Visit, n);
        ++out.visited;
    }
    const Node* match(const Node* n) {
        note(WalkEvent::Kind::Match, n);
        out.matches.push_back(TreeSet::idOf(n));
        return n;
    }
    // Is any interval in the subtree able to reach `start`? Otherwise skip it whole.
    bool worthEntering(const Node* n) {
        if (n->subtreeLast() >= start) return true;
        note(WalkEvent::Kind::Prune, n);
        return false;
    }

    // The leftmost overlapping node of the subtree at n, if any.
    const Node* search(const Node* n) {
        for (;;) {
            visit(n);
            if (n->left() && worthEntering(n->left())) {
                n = n->left();
                continue;
            }
            // Starts grow to the right: once past `last`, nothing further right can overlap.
            if (n->start > last) return nullptr;
            if (start <= n->last) return match(n);
            if (n->right() && worthEntering(n->right())) {
                n = n->right();
                continue;
            }
            return nullptr;
        }
    }

    const Node* first(const itree::IntervalTree& t) {
        if (!t.root()) return nullptr;
        if (!worthEntering(t.root())) return nullptr;
        if (t.leftmost()->start > last) return nullptr;  // the cached leftmost starts too late
        return search(t.root());
    }

    // The next overlapping node in order after n.
    const Node* next(const Node* n) {
        const Node* right = n->right();
        for (;;) {
            if (right && worthEntering(right)) return search(right);
            // Climb until we arrive from a left child: that ancestor is next in order.
            const Node* from;
            do {
                from = n;
                n = n->parent();
                if (!n) return nullptr;
            } while (n->right() == from);
            visit(n);
            if (n->start > last) return nullptr;
            if (start <= n->last) return match(n);
            right = n->right();
        }
    }
};

}  // namespace

WalkResult RmapWalk::run(const itree::IntervalTree& tree, Index first, Index last) {
    WalkResult r;
    Walker w{first, last, r};
    for (const Node* n = w.first(tree); n; n = w.next(n)) {
    }
    return r;
}

}  // namespace immap::session
