#pragma once
// The write side of IntervalTree: insert, insert_after and erase with their red-black fix-ups
// and augment callbacks, case for case as lib/rbtree.c, include/linux/rbtree_augmented.h and
// interval_tree_generic.h do them (docs/kernel.md, sections 1.2 to 1.5 and 1.7). Private to
// itree: IntervalTree.cpp and ObservedUpdate.h include it. Templated on a recorder so that the
// untraced hot path compiles every recording call away.

#include "IntervalTree.h"
#include "StepRecorder.h"
#include "TouchObserver.h"

namespace immap::itree {

namespace detail {

constexpr const char* kInsertFn = "vma_interval_tree_insert";
constexpr const char* kInsertAfterFn = "vma_interval_tree_insert_after";
constexpr const char* kRemoveFn = "vma_interval_tree_remove";
constexpr const char* kInsertColorFn = "__rb_insert";
constexpr const char* kEraseFn = "__rb_erase_augmented";
constexpr const char* kEraseColorFn = "__rb_erase_color";
constexpr const char* kRotateCb = "vma_interval_tree_augment_rotate";
constexpr const char* kCopyCb = "vma_interval_tree_augment_copy";
constexpr const char* kPropagateCb = "vma_interval_tree_augment_propagate";

inline std::uint64_t addr(const Node* n) {
    return reinterpret_cast<std::uintptr_t>(n);
}

// The hot path records nothing; these calls compile away.
struct NoSteps {
    void step(StepKind, const char*, const Node*, const Node* = nullptr, std::uint8_t = 0) {}
    void change(const Node*, Field, std::uint64_t, std::uint64_t) {}
    void init(const Node*, Field, std::uint64_t, std::uint64_t) {}
    void touch(const Node*) {}
};

// Reports reads and writes to a TouchObserver. A step names the node it is about to work on
// (a descent, an erase case, a rotation's pivot): that is a read of it and, for two-node steps,
// of the other.
// `Obs` is TouchObserver (virtual calls), or a final observer type (ObservedUpdate.h).
template <class Obs>
struct TouchesTo {
    Obs& obs;
    void step(StepKind, const char*, const Node* a, const Node* b = nullptr, std::uint8_t = 0) {
        if (a) obs.read(a);
        if (b) obs.read(b);
    }
    void change(const Node* n, Field, std::uint64_t, std::uint64_t) {
        if (n) obs.write(n);
    }
    void init(const Node* n, Field, std::uint64_t, std::uint64_t) {
        if (n) obs.write(n);
    }
    void touch(const Node* n) { obs.read(n); }
};
using Touches = TouchesTo<TouchObserver>;

struct Steps {
    StepRecorder& rec;
    Op op;
    void step(StepKind k, const char* fn, const Node* a, const Node* b = nullptr,
              std::uint8_t detail = 0) {
        rec.step(op, k, fn, a, b, detail);
    }
    void change(const Node* n, Field f, std::uint64_t before, std::uint64_t after) {
        rec.change(n, f, before, after);
    }
    // Recorded even when unchanged: a replay must learn a linked node's fields whatever its
    // memory held before.
    void init(const Node* n, Field f, std::uint64_t before, std::uint64_t after) {
        rec.changeInit(n, f, before, after);
    }
    void touch(const Node*) {}
};

}  // namespace detail

using namespace detail;  // a private header: IntervalTree.cpp alone includes it

// Every write to the tree goes through one of the set* members below, so that a recorder sees
// each one with its old value. The algorithms are the kernel's, case for case.
template <class Rec>
class TreeWriter {
public:
    TreeWriter(IntervalTree& t, Rec rec) : t_(t), rec_(rec) {}

    void insert(Node* node) {
        const Index start = node->start;
        const Index last = node->last;
        rec_.step(StepKind::Begin, kInsertFn, node);
        Node* parent = nullptr;
        bool goLeft = false;
        bool leftmost = true;
        for (Node* cur = t_.root_; cur;) {
            parent = cur;
            goLeft = start < cur->start;  // equal starts go right
            rec_.step(StepKind::Descend, kInsertFn, cur, nullptr, goLeft ? 0 : 1);
            raise(cur, last, kInsertFn);
            if (goLeft) {
                cur = cur->left_;
            } else {
                cur = cur->right_;
                leftmost = false;
            }
        }
        link(node, parent, goLeft, kInsertFn);
        if (leftmost) {
            rec_.step(StepKind::Leftmost, "rb_insert_augmented_cached", node);
            setLeftmost(node);
        }
        insertColor(node);
        ++t_.size_;
    }

    void insertAfter(Node* node, Node* prev) {
        const Index last = node->last;
        rec_.step(StepKind::Begin, kInsertAfterFn, node, prev);
        Node* parent = prev;
        bool goLeft = false;
        if (prev->right_) {
            // The slot right after prev is the leftmost of prev's right subtree.
            parent = prev->right_;
            rec_.step(StepKind::Descend, kInsertAfterFn, prev, nullptr, 1);
            raise(parent, last, kInsertAfterFn);
            while (parent->left_) {
                rec_.step(StepKind::Descend, kInsertAfterFn, parent, nullptr, 0);
                parent = parent->left_;
                raise(parent, last, kInsertAfterFn);
            }
            goLeft = true;
        }
        link(node, parent, goLeft, kInsertAfterFn);
        insertColor(node);
        ++t_.size_;
    }

    void remove(Node* node) {
        rec_.step(StepKind::Begin, kRemoveFn, node);
        if (t_.leftmost_ == node) {
            Node* next = IntervalTree::next(node);
            rec_.step(StepKind::Leftmost, "rb_erase_augmented_cached", next);
            setLeftmost(next);
        }
        if (Node* rebalance = eraseAugmented(node)) eraseColor(rebalance);
        --t_.size_;
    }

private:
    // --- recorded primitive writes --------------------------------------------------------
    void setLeft(Node* n, Node* v) {
        rec_.change(n, Field::Left, addr(n->left_), addr(v));
        n->left_ = v;
    }
    void setRight(Node* n, Node* v) {
        rec_.change(n, Field::Right, addr(n->right_), addr(v));
        n->right_ = v;
    }
    void setParent(Node* n, Node* p) {
        rec_.change(n, Field::Parent, addr(n->parent()), addr(p));
        n->parentColor_ = addr(p) | (n->parentColor_ & 1);
    }
    void setColor(Node* n, Color c) {
        rec_.change(n, Field::Color, n->parentColor_ & 1, static_cast<std::uint64_t>(c));
        n->parentColor_ = (n->parentColor_ & ~std::uintptr_t{1}) | static_cast<std::uintptr_t>(c);
    }
    void setParentColor(Node* n, Node* p, Color c) {
        setParent(n, p);
        setColor(n, c);
    }
    void setSubtreeLast(Node* n, Index v) {
        rec_.change(n, Field::SubtreeLast, n->subtreeLast_, v);
        n->subtreeLast_ = v;
    }
    void setRoot(Node* v) {
        rec_.change(nullptr, Field::Root, addr(t_.root_), addr(v));
        t_.root_ = v;
    }
    void setLeftmost(Node* v) {
        rec_.change(nullptr, Field::Leftmost, addr(t_.leftmost_), addr(v));
        t_.leftmost_ = v;
    }

    // --- structural helpers ---------------------------------------------------------------
    // rb_link_node: the new node hangs red and childless under parent.
    void link(Node* node, Node* parent, bool goLeft, const char* fn) {
        rec_.step(StepKind::Link, fn, node, parent, goLeft ? 0 : 1);
        rec_.init(node, Field::SubtreeLast, node->subtreeLast_, node->last);
        rec_.init(node, Field::Parent, addr(node->parent()), addr(parent));
        rec_.init(node, Field::Color, node->parentColor_ & 1, 0);
        rec_.init(node, Field::Left, addr(node->left_), 0);
        rec_.init(node, Field::Right, addr(node->right_), 0);
        node->subtreeLast_ = node->last;
        node->parentColor_ = addr(parent);  // red
        node->left_ = node->right_ = nullptr;
        if (!parent) {
            setRoot(node);
        } else if (goLeft) {
            setLeft(parent, node);
        } else {
            setRight(parent, node);
        }
    }

    // __rb_change_child: old's slot in parent (or the root) now holds nw.
    void changeChild(Node* old, Node* nw, Node* parent) {
        if (!parent) {
            setRoot(nw);
        } else if (parent->left_ == old) {
            setLeft(parent, nw);
        } else {
            setRight(parent, nw);
        }
    }

    // __rb_rotate_set_parents: nw takes old's parent and colour; old hangs under nw.
    void rotateSetParents(Node* old, Node* nw, Color color) {
        Node* parent = old->parent();
        setParentColor(nw, parent, old->color());
        setParentColor(old, nw, color);
        changeChild(old, nw, parent);
    }

    void recolor(Node* n, Color c, const char* fn) {
        rec_.step(StepKind::Recolor, fn, n);
        setColor(n, c);
    }

    // --- augment callbacks (RB_DECLARE_CALLBACKS_MAX) --------------------------------------
    void raise(Node* n, Index last, const char* fn) {
        if (n->subtreeLast_ < last) {
            rec_.step(StepKind::Augment, fn, n, nullptr,
                      static_cast<std::uint8_t>(AugmentKind::Raise));
            setSubtreeLast(n, last);
        }
    }
    void augmentTo(Node* n, Index v, AugmentKind kind, const char* fn) {
        if (n->subtreeLast_ == v) return;
        rec_.step(StepKind::Augment, fn, n, nullptr, static_cast<std::uint8_t>(kind));
        setSubtreeLast(n, v);
    }
    // compute_max: true when `exit` and the stored value is already right (stop climbing).
    bool computeMax(Node* n, bool exit, AugmentKind kind, const char* fn) {
        rec_.touch(n);  // reads n and its children's subtree_last even when nothing changes
        Index m = n->last;
        if (n->left_ && n->left_->subtreeLast_ > m) m = n->left_->subtreeLast_;
        if (n->right_ && n->right_->subtreeLast_ > m) m = n->right_->subtreeLast_;
        if (exit && n->subtreeLast_ == m) return true;
        augmentTo(n, m, kind, fn);
        return false;
    }
    void propagate(Node* rb, const Node* stop) {
        while (rb != stop) {
            if (computeMax(rb, true, AugmentKind::Propagate, kPropagateCb)) break;
            rb = rb->parent();
        }
    }
    // nw replaced old at the top of the same subtree: it inherits the value, old recomputes.
    void augmentRotate(Node* old, Node* nw) {
        augmentTo(nw, old->subtreeLast_, AugmentKind::Rotate, kRotateCb);
        computeMax(old, false, AugmentKind::Rotate, kRotateCb);
    }
    void augmentCopy(Node* old, Node* nw) {
        augmentTo(nw, old->subtreeLast_, AugmentKind::Copy, kCopyCb);
    }

    void fixupCase(const char* fn, Node* at, std::uint8_t c) {
        rec_.step(StepKind::FixupCase, fn, at, nullptr, c);
    }
    // Sides, so that each fix-up is written once for both mirror images (the kernel spells out
    // both; the steps taken are identical).
    enum Side : std::uint8_t { kLeft = 0, kRight = 1 };
    static Side other(Side s) { return s == kLeft ? kRight : kLeft; }
    static Node* child(const Node* n, Side s) { return s == kLeft ? n->left_ : n->right_; }
    void setChild(Node* n, Side s, Node* v) { s == kLeft ? setLeft(n, v) : setRight(n, v); }

    // A rotation at `at` bringing up `top`; `dir` kLeft when top was at's right child.
    void rotateStep(const char* fn, Node* at, Node* top, Side dir) {
        rec_.step(StepKind::Rotate, fn, at, top, dir);
    }

    // --- __rb_insert: node is red and linked ------------------------------------------------
    void insertColor(Node* node) {
        Node* parent = node->parent();
        for (;;) {
            if (!parent) {
                // The node is the root: the root is black.
                fixupCase(kInsertColorFn, node, 0);
                recolor(node, Color::Black, kInsertColorFn);
                return;
            }
            if (parent->isBlack()) {
                fixupCase(kInsertColorFn, node, 0);
                return;
            }
            Node* gparent = parent->parent();  // a red parent is never the root
            const Side ps = parent != gparent->right_ ? kLeft : kRight;  // parent's side
            const Side os = other(ps);
            Node* uncle = child(gparent, os);
            if (uncle && uncle->isRed()) {
                // Case 1: red uncle. Push blackness down from gparent and climb.
                fixupCase(kInsertColorFn, node, 1);
                rec_.step(StepKind::Recolor, kInsertColorFn, uncle);
                setColor(uncle, Color::Black);
                setColor(parent, Color::Black);
                setColor(gparent, Color::Red);
                node = gparent;
                parent = node->parent();
                continue;
            }
            Node* tmp = child(parent, os);
            if (node == tmp) {
                // Case 2: node is the inner child; rotate at parent so it becomes the outer one.
                fixupCase(kInsertColorFn, node, 2);
                rotateStep(kInsertColorFn, parent, node, ps);
                tmp = child(node, ps);
                setChild(parent, os, tmp);
                setChild(node, ps, parent);
                if (tmp) setParentColor(tmp, parent, Color::Black);
                setParentColor(parent, node, Color::Red);
                augmentRotate(parent, node);
                parent = node;
                tmp = child(node, os);
            }
            // Case 3: outer child; rotate at gparent the other way, parent becomes the black top.
            fixupCase(kInsertColorFn, parent, 3);
            rotateStep(kInsertColorFn, gparent, parent, os);
            setChild(gparent, ps, tmp);
            setChild(parent, os, gparent);
            if (tmp) setParentColor(tmp, gparent, Color::Black);
            rotateSetParents(gparent, parent, Color::Red);
            augmentRotate(gparent, parent);
            return;
        }
    }

    // --- __rb_erase_augmented: unlink node; returns where the colour fix-up starts ----------
    Node* eraseAugmented(Node* node) {
        Node* child = node->right_;
        Node* tmp = node->left_;
        Node* parent = nullptr;
        Node* rebalance = nullptr;
        if (!tmp || !child) {
            // Case 1: at most one child, which takes the node's place (and, being red under a
            // black node, its colour). A removed black leaf leaves its parent one black short.
            Node* only = tmp ? tmp : child;
            rec_.step(StepKind::EraseCase, kEraseFn, node, only, 1);
            parent = node->parent();
            const Color c = node->color();
            rec_.step(StepKind::Splice, kEraseFn, node, only);
            changeChild(node, only, parent);
            if (only) {
                setParentColor(only, parent, c);
            } else if (c == Color::Black) {
                rebalance = parent;
            }
            tmp = parent;
        } else {
            Node* successor = child;
            Node* child2 = nullptr;
            tmp = child->left_;
            if (!tmp) {
                // Case 2: the successor is the right child.
                rec_.step(StepKind::EraseCase, kEraseFn, node, successor, 2);
                parent = successor;
                child2 = successor->right_;
                augmentCopy(node, successor);
            } else {
                // Case 3: the successor is the leftmost of the right subtree; detach it first.
                do {
                    parent = successor;
                    successor = tmp;
                    tmp = tmp->left_;
                } while (tmp);
                rec_.step(StepKind::EraseCase, kEraseFn, node, successor, 3);
                child2 = successor->right_;
                rec_.step(StepKind::Splice, kEraseFn, successor, child2);
                setLeft(parent, child2);
                setRight(successor, child);
                setParent(child, successor);
                augmentCopy(node, successor);
                propagate(parent, successor);
            }
            rec_.step(StepKind::Splice, kEraseFn, node, successor);
            tmp = node->left_;
            setLeft(successor, tmp);
            setParent(tmp, successor);
            Node* nodeParent = node->parent();
            const Color nodeColor = node->color();
            changeChild(node, successor, nodeParent);
            if (child2) {
                setParentColor(child2, parent, Color::Black);
            } else if (successor->isBlack()) {
                rebalance = parent;
            }
            setParentColor(successor, nodeParent, nodeColor);
            tmp = successor;
        }
        propagate(tmp, nullptr);
        return rebalance;
    }

    // --- __rb_erase_color: the subtree under parent on node's side is one black short -------
    void eraseColor(Node* parent) {
        Node* node = nullptr;
        for (;;) {
            // A null node is on the side whose child is null: test against the right child.
            const Side ns = node != parent->right_ ? kLeft : kRight;
            const Side fs = other(ns);  // the sibling's side, and its far child's side
            Node* sibling = child(parent, fs);
            if (sibling->isRed()) {
                // Case 1: red sibling; rotate at parent towards node so the sibling is black.
                fixupCase(kEraseColorFn, parent, 1);
                rotateStep(kEraseColorFn, parent, sibling, ns);
                Node* tmp1 = child(sibling, ns);
                setChild(parent, fs, tmp1);
                setChild(sibling, ns, parent);
                setParentColor(tmp1, parent, Color::Black);
                rotateSetParents(parent, sibling, Color::Red);
                augmentRotate(parent, sibling);
                sibling = tmp1;
            }
            Node* tmp1 = child(sibling, fs);  // far child
            if (!tmp1 || tmp1->isBlack()) {
                Node* tmp2 = child(sibling, ns);  // near child
                if (!tmp2 || tmp2->isBlack()) {
                    // Case 2: black sibling with black children; recolour and climb.
                    fixupCase(kEraseColorFn, parent, 2);
                    recolor(sibling, Color::Red, kEraseColorFn);
                    if (parent->isRed()) {
                        setColor(parent, Color::Black);
                    } else {
                        node = parent;
                        parent = node->parent();
                        if (parent) continue;
                    }
                    return;
                }
                // Case 3: near child red; rotate at sibling away from node.
                fixupCase(kEraseColorFn, parent, 3);
                rotateStep(kEraseColorFn, sibling, tmp2, fs);
                tmp1 = child(tmp2, fs);
                setChild(sibling, ns, tmp1);
                setChild(tmp2, fs, sibling);
                setChild(parent, fs, tmp2);
                if (tmp1) setParentColor(tmp1, sibling, Color::Black);
                augmentRotate(sibling, tmp2);
                tmp1 = sibling;
                sibling = tmp2;
            }
            // Case 4: far child red; rotate at parent towards node and recolour. Done.
            fixupCase(kEraseColorFn, parent, 4);
            rotateStep(kEraseColorFn, parent, sibling, ns);
            Node* tmp2 = child(sibling, ns);
            setChild(parent, fs, tmp2);
            setChild(sibling, ns, parent);
            setParentColor(tmp1, sibling, Color::Black);
            if (tmp2) setParent(tmp2, parent);
            rotateSetParents(parent, sibling, Color::Black);
            augmentRotate(parent, sibling);
            return;
        }
    }

    IntervalTree& t_;
    Rec rec_;
};

}  // namespace immap::itree
