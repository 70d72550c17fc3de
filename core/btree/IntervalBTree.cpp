#include "IntervalBTree.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace immap::btree {

namespace {

// Opens slot `pos` in the first `count` entries of an array.
template <class T>
void openAt(T* a, int count, int pos) {
    std::memmove(a + pos + 1, a + pos, sizeof(T) * static_cast<std::size_t>(count - pos));
}
template <class T>
void closeAt(T* a, int count, int pos) {
    std::memmove(a + pos, a + pos + 1, sizeof(T) * static_cast<std::size_t>(count - pos - 1));
}

}  // namespace

IntervalBTree::~IntervalBTree() {
    if (root_) destroy(root_, height_);
}

void IntervalBTree::destroy(void* node, int level) {
    if (level == 1) {
        delete static_cast<Leaf*>(node);
        return;
    }
    auto* n = static_cast<Inner*>(node);
    for (int i = 0; i < n->count; ++i)
        destroy(n->child[i], level - 1);
    delete n;
}

Leaf* IntervalBTree::newLeaf() {
    ++leaves_;
    Leaf* l = pool_.leaf();
    if (observer_) observer_->created(l, sizeof(Leaf));
    return l;
}
Inner* IntervalBTree::newInner(bool leaves) {
    ++inners_;
    Inner* n = pool_.inner();
    n->leaves = leaves;
    if (observer_) observer_->created(n, sizeof(Inner));
    return n;
}
void IntervalBTree::free(Leaf* l) {
    --leaves_;
    pool_.give(l);
}
void IntervalBTree::free(Inner* n) {
    --inners_;
    pool_.give(n);
}

void IntervalBTree::report(StepKind kind, const void* node, int slot, const Item* item) const {
    hook_->step(kind, node, slot, item);
}

int IntervalBTree::childFor(const Inner* n, Index start) {
    int i = n->count - 1;
    while (i > 0 && n->sep[i] > start)
        --i;
    return i;
}

// The descent an insert is about to make, as steps (it changes nothing, so it can be told
// first; the untraced descent then pays nothing for it).
void IntervalBTree::noteDescent(Index start) const {
    const void* node = root_;
    for (int level = height_; level > 1; --level) {
        const auto* n = static_cast<const Inner*>(node);
        const int i = childFor(n, start);
        note(StepKind::Descend, n, i);
        node = n->child[i];
    }
}

void IntervalBTree::moved(Item* item, Leaf* to) {
    item->leaf_ = to;
    if (observer_) observer_->backPointer(item);
}

int IntervalBTree::slotOf(const Inner* parent, const void* child) {
    int i = 0;
    while (parent->child[i] != child)
        ++i;
    return i;
}

Index IntervalBTree::maxOf(void* node, bool leaf) const {
    // Recomputed from the node's entries, and kept in its header.
    Index m = 0;
    if (leaf) {
        auto* l = static_cast<Leaf*>(node);
        rd(l->last, sizeof(Index) * static_cast<std::size_t>(l->count));
        for (int i = 0; i < l->count; ++i)
            m = std::max(m, l->last[i]);
        if (l->max != m) wr(l, 64);
        l->max = m;
    } else {
        auto* n = static_cast<Inner*>(node);
        rd(n->maxLast, sizeof(Index) * static_cast<std::size_t>(n->count));
        for (int i = 0; i < n->count; ++i)
            m = std::max(m, n->maxLast[i]);
        if (n->max != m) wr(n, 64);
        n->max = m;
    }
    return m;
}

void IntervalBTree::insert(Item* item) {
    if (observer_) observer_->readItem(item);
    note(StepKind::Begin, nullptr, -1, item);
    if (!root_) {
        Leaf* l = newLeaf();
        root_ = l;
        height_ = 1;
        insertAt(l, 0, item);
        return;
    }
    // Down to the last child whose lower bound is at or before the start: everything after
    // it starts later, so the item goes after every equal start.
    if (hook_) [[unlikely]]
        noteDescent(item->start);
    void* node = root_;
    for (int level = height_; level > 1; --level) {
        auto* n = static_cast<Inner*>(node);
        rd(n, 64);
        rd(n->sep, sizeof(Index) * static_cast<std::size_t>(n->count));
        const int i = childFor(n, item->start);
        rd(&n->child[i], sizeof(void*));
        node = n->child[i];
    }
    auto* l = static_cast<Leaf*>(node);
    rd(l, 64);
    rd(l->start, sizeof(Index) * static_cast<std::size_t>(l->count));
    const int pos =
        static_cast<int>(std::upper_bound(l->start, l->start + l->count, item->start) - l->start);
    insertAt(l, pos, item);
}

bool IntervalBTree::insertAfter(Item* item, Item* prev) {
    if (!prev->leaf_ || item->start != prev->start) return false;
    if (observer_) {
        observer_->readItem(item);
        observer_->readItem(prev);
    }
    note(StepKind::Begin, nullptr, -1, item);
    Leaf* l = prev->leaf_;
    rd(l, 64);
    rd(l->item, sizeof(Item*) * static_cast<std::size_t>(l->count));
    int pos = 0;
    while (l->item[pos] != prev)
        ++pos;
    insertAt(l, pos + 1, item);
    return true;
}

void IntervalBTree::insertAt(Leaf* l, int pos, Item* item) {
    ++size_;
    if (l->count == kFanout) {
        // Split where the item goes, as far as both halves keep kMinFill: an insert at the end
        // of a run of equal starts (every exec's, in libc's runs) then moves the fewest items
        // (and back pointers), and the run's end gets room for the appends that follow.
        Leaf* r = newLeaf();
        const int half = std::clamp(pos, kMinFill, kFanout - kMinFill);
        r->count = kFanout - half;
        const auto moving = static_cast<std::size_t>(r->count);
        rd(l->start + half, sizeof(Index) * moving);
        rd(l->last + half, sizeof(Index) * moving);
        rd(l->item + half, sizeof(Item*) * moving);
        std::memcpy(r->start, l->start + half, sizeof(Index) * moving);
        std::memcpy(r->last, l->last + half, sizeof(Index) * moving);
        std::memcpy(r->item, l->item + half, sizeof(Item*) * moving);
        wr(r, sizeof(Leaf));
        for (int i = 0; i < r->count; ++i)
            moved(r->item[i], r);
        l->count = half;
        wr(l, 64);
        Leaf* into = l;
        if (pos > half) {
            into = r;
            pos -= half;
        }
        const auto shifted = static_cast<std::size_t>(into->count - pos + 1);
        wr(into->start + pos, sizeof(Index) * shifted);
        wr(into->last + pos, sizeof(Index) * shifted);
        wr(into->item + pos, sizeof(Item*) * shifted);
        openAt(into->start, into->count, pos);
        openAt(into->last, into->count, pos);
        openAt(into->item, into->count, pos);
        into->start[pos] = item->start;
        into->last[pos] = item->last;
        into->item[pos] = item;
        ++into->count;
        moved(item, into);
        link(l->parent, l, r, r->start[0], true);
        note(StepKind::Split, l, into == l ? pos : -1, item);
        // The split nodes' max-last are exact now, the levels above them not yet: raise all
        // the way (covered levels cannot be skipped here: the split's top may be under them).
        raise(into, item->last, false);
        return;
    }
    wr(l, 64);
    const auto shifted = static_cast<std::size_t>(l->count - pos + 1);
    wr(l->start + pos, sizeof(Index) * shifted);
    wr(l->last + pos, sizeof(Index) * shifted);
    wr(l->item + pos, sizeof(Item*) * shifted);
    openAt(l->start, l->count, pos);
    openAt(l->last, l->count, pos);
    openAt(l->item, l->count, pos);
    l->start[pos] = item->start;
    l->last[pos] = item->last;
    l->item[pos] = item;
    ++l->count;
    moved(item, l);
    note(StepKind::Place, l, pos, item);
    raise(l, item->last, true);
}

void IntervalBTree::link(Inner* parent, void* left, void* right, Index sep, bool leaves) {
    auto setParent = [&](void* node, Inner* p) {
        if (leaves)
            static_cast<Leaf*>(node)->parent = p;
        else
            static_cast<Inner*>(node)->parent = p;
        wr(node, 64);
    };
    if (!parent) {
        // The root split: a new root over both halves.
        Inner* root = newInner(leaves);
        root->count = 2;
        root->child[0] = left;
        root->child[1] = right;
        root->sep[1] = sep;
        root->maxLast[0] = maxOf(left, leaves);
        root->maxLast[1] = maxOf(right, leaves);
        root->max = std::max(root->maxLast[0], root->maxLast[1]);
        wr(root, sizeof(Inner));
        setParent(left, root);
        setParent(right, root);
        root_ = root;
        ++height_;
        return;
    }
    rd(parent, 64);
    rd(parent->child, sizeof(void*) * static_cast<std::size_t>(parent->count));
    int at = slotOf(parent, left) + 1;
    if (parent->count == kFanout) {
        // Split the parent too, then put `right` into the half `at` falls in.
        Inner* pr = newInner(leaves);
        const int half = kFanout / 2;
        pr->count = kFanout - half;
        const auto moving = static_cast<std::size_t>(pr->count);
        rd(parent->sep + half, sizeof(Index) * moving);
        rd(parent->maxLast + half, sizeof(Index) * moving);
        rd(parent->child + half, sizeof(void*) * moving);
        std::memcpy(pr->sep, parent->sep + half,
                    sizeof(Index) * static_cast<std::size_t>(pr->count));
        std::memcpy(pr->maxLast, parent->maxLast + half,
                    sizeof(Index) * static_cast<std::size_t>(pr->count));
        std::memcpy(pr->child, parent->child + half,
                    sizeof(void*) * static_cast<std::size_t>(pr->count));
        wr(pr, sizeof(Inner));
        for (int i = 0; i < pr->count; ++i)
            setParent(pr->child[i], pr);
        parent->count = half;
        wr(parent, 64);
        const Index prSep = pr->sep[0];  // the bound of the moved first child
        Inner* into = parent;
        if (at > half) {
            into = pr;
            at -= half;
        }
        const auto shifted = static_cast<std::size_t>(into->count - at + 1);
        wr(into->sep + at, sizeof(Index) * shifted);
        wr(into->maxLast + at - 1, sizeof(Index) * (shifted + 1));
        wr(into->child + at, sizeof(void*) * shifted);
        openAt(into->sep, into->count, at);
        openAt(into->maxLast, into->count, at);
        openAt(into->child, into->count, at);
        into->sep[at] = sep;
        into->child[at] = right;
        ++into->count;
        setParent(right, into);
        into->maxLast[at - 1] = maxOf(left, leaves);
        into->maxLast[at] = maxOf(right, leaves);
        // at == half + 1 put `right` first in pr... never: at > half moves it to pr at >= 1.
        link(parent->parent, parent, pr, prSep, false);
        return;
    }
    const auto shifted = static_cast<std::size_t>(parent->count - at + 1);
    wr(parent, 64);
    wr(parent->sep + at, sizeof(Index) * shifted);
    wr(parent->maxLast + at - 1, sizeof(Index) * (shifted + 1));
    wr(parent->child + at, sizeof(void*) * shifted);
    openAt(parent->sep, parent->count, at);
    openAt(parent->maxLast, parent->count, at);
    openAt(parent->child, parent->count, at);
    parent->sep[at] = sep;
    parent->child[at] = right;
    ++parent->count;
    setParent(right, parent);
    parent->maxLast[at - 1] = maxOf(left, leaves);
    parent->maxLast[at] = maxOf(right, leaves);
}

template <bool Traced>
void IntervalBTree::raise(Leaf* leaf, Index last, bool stopWhenCovered) {
    // The item's last into every max on the way up. Where a node's max already covers it, so
    // do all above it (unless a split has just rewritten the levels below): stop there, read
    // from the header, without reading the parent.
    rd(leaf, 64);
    if (stopWhenCovered && leaf->max >= last) {
        if constexpr (Traced) note(StepKind::Covered, leaf);
        return;
    }
    if (leaf->max < last) {
        leaf->max = last;
        wr(leaf, 64);
    }
    void* child = leaf;
    for (Inner* p = leaf->parent; p; child = p, p = p->parent) {
        rd(p, 64);
        rd(p->child, sizeof(void*) * static_cast<std::size_t>(p->count));
        const int i = slotOf(p, child);
        rd(&p->maxLast[i], sizeof(Index));
        if (p->maxLast[i] < last) {
            p->maxLast[i] = last;
            wr(&p->maxLast[i], sizeof(Index));
            if constexpr (Traced) note(StepKind::MaxLast, p, i);
        }
        if (stopWhenCovered && p->max >= last) {
            if constexpr (Traced) note(StepKind::Covered, p);
            return;
        }
        if (p->max < last) {
            p->max = last;
            wr(p, 64);
        }
    }
}

template <bool Traced>
void IntervalBTree::refresh(Leaf* leaf, Index removedLast) {
    // Only a node whose max was the removed item's last can change; it stays when another
    // entry has the same last. Each level up the same (the kernel's augment propagation
    // stops the same way).
    if (removedLast < leaf->max) return;
    Index m = maxOf(leaf, true);
    if (m == removedLast) return;
    void* node = leaf;
    for (Inner* p = leaf->parent; p; node = p, p = p->parent) {
        rd(p, 64);
        rd(p->child, sizeof(void*) * static_cast<std::size_t>(p->count));
        const int i = slotOf(p, node);
        wr(&p->maxLast[i], sizeof(Index));
        p->maxLast[i] = m;
        if constexpr (Traced) note(StepKind::MaxLast, p, i);
        if (removedLast < p->max) return;
        const Index pm = maxOf(p, false);
        if (pm == removedLast) return;
        m = pm;
    }
}

void IntervalBTree::remove(Item* item) {
    Leaf* l = item->leaf_;
    assert(l);
    if (observer_) observer_->readItem(item);
    note(StepKind::Begin, nullptr, -1, item);
    rd(l, 64);
    rd(l->item, sizeof(Item*) * static_cast<std::size_t>(l->count));
    int pos = 0;
    while (l->item[pos] != item)
        ++pos;
    const auto shifted = static_cast<std::size_t>(l->count - pos);
    wr(l, 64);
    wr(l->start + pos, sizeof(Index) * shifted);
    wr(l->last + pos, sizeof(Index) * shifted);
    wr(l->item + pos, sizeof(Item*) * shifted);
    closeAt(l->start, l->count, pos);
    closeAt(l->last, l->count, pos);
    closeAt(l->item, l->count, pos);
    --l->count;
    --size_;
    // Not reported: clearing the pointer is this index's hygiene; the kernel's erase leaves
    // the leaving VMA's links as they are.
    item->leaf_ = nullptr;
    if (l == root_ && l->count == 0) {
        free(l);
        root_ = nullptr;
        height_ = 0;
        note(StepKind::Unplace, nullptr, pos, item);
        return;
    }
    note(StepKind::Unplace, l, pos, item);
    refresh(l, item->last);
    if (l != root_ && l->count < kMinFill) rebalance(l);
}

void IntervalBTree::rebalance(Leaf* l) {
    Inner* p = l->parent;
    rd(p, 64);
    rd(p->child, sizeof(void*) * static_cast<std::size_t>(p->count));
    const int i = slotOf(p, l);
    Leaf* left = i > 0 ? p->leaf(i - 1) : nullptr;
    Leaf* right = i + 1 < p->count ? p->leaf(i + 1) : nullptr;
    if (right) rd(right, 64);
    if (right && right->count > kMinFill) {
        // Borrow right's first: its new first start bounds it from below.
        wr(right, sizeof(Leaf));  // every entry shifts down one
        wr(l, 64);
        wr(&l->start[l->count], sizeof(Index));
        wr(&l->last[l->count], sizeof(Index));
        wr(&l->item[l->count], sizeof(Item*));
        l->start[l->count] = right->start[0];
        l->last[l->count] = right->last[0];
        l->item[l->count] = right->item[0];
        moved(l->item[l->count], l);
        ++l->count;
        closeAt(right->start, right->count, 0);
        closeAt(right->last, right->count, 0);
        closeAt(right->item, right->count, 0);
        --right->count;
        wr(&p->sep[i + 1], sizeof(Index));
        wr(&p->maxLast[i], 2 * sizeof(Index));
        p->sep[i + 1] = right->start[0];
        p->maxLast[i] = maxOf(l, true);
        p->maxLast[i + 1] = maxOf(right, true);
        note(StepKind::Borrow, l, 1);
        return;
    }
    if (left) rd(left, 64);
    if (left && left->count > kMinFill) {
        // Borrow left's last: it is now this leaf's lower bound.
        wr(left, 64);
        rd(&left->start[left->count - 1], sizeof(Index));
        rd(&left->last[left->count - 1], sizeof(Index));
        rd(&left->item[left->count - 1], sizeof(Item*));
        wr(l, sizeof(Leaf));  // every entry shifts up one
        openAt(l->start, l->count, 0);
        openAt(l->last, l->count, 0);
        openAt(l->item, l->count, 0);
        --left->count;
        l->start[0] = left->start[left->count];
        l->last[0] = left->last[left->count];
        l->item[0] = left->item[left->count];
        moved(l->item[0], l);
        ++l->count;
        wr(&p->sep[i], sizeof(Index));
        wr(&p->maxLast[i - 1], 2 * sizeof(Index));
        p->sep[i] = l->start[0];
        p->maxLast[i - 1] = maxOf(left, true);
        p->maxLast[i] = maxOf(l, true);
        note(StepKind::Borrow, l, 0);
        return;
    }
    // Merge with a sibling: the right one of the pair moves into the left one.
    Leaf* a = left ? left : l;
    Leaf* b = left ? l : right;
    const int bi = left ? i : i + 1;
    const auto moving = static_cast<std::size_t>(b->count);
    rd(b->start, sizeof(Index) * moving);
    rd(b->last, sizeof(Index) * moving);
    rd(b->item, sizeof(Item*) * moving);
    wr(a, 64);
    wr(a->start + a->count, sizeof(Index) * moving);
    wr(a->last + a->count, sizeof(Index) * moving);
    wr(a->item + a->count, sizeof(Item*) * moving);
    std::memcpy(a->start + a->count, b->start, sizeof(Index) * moving);
    std::memcpy(a->last + a->count, b->last, sizeof(Index) * moving);
    std::memcpy(a->item + a->count, b->item, sizeof(Item*) * moving);
    for (int k = 0; k < b->count; ++k)
        moved(b->item[k], a);
    a->count += b->count;
    unlinkChild(p, bi);
    p->maxLast[bi - 1] = maxOf(a, true);
    free(b);
    note(StepKind::Merge, a);
    rebalance(p);
}

// Closes child slot `bi` of `p` (a merged-away node), with the writes it makes.
void IntervalBTree::unlinkChild(Inner* p, int bi) {
    const auto shifted = static_cast<std::size_t>(p->count - bi);
    wr(p, 64);
    wr(p->sep + bi, sizeof(Index) * shifted);
    wr(p->maxLast + bi - 1, sizeof(Index) * (shifted + 1));
    wr(p->child + bi, sizeof(void*) * shifted);
    closeAt(p->sep, p->count, bi);
    closeAt(p->maxLast, p->count, bi);
    closeAt(p->child, p->count, bi);
    --p->count;
}

void IntervalBTree::rebalance(Inner* n) {
    if (n == root_) {
        if (n->count == 1) {
            // The root has one child left: that child is the root.
            void* only = n->child[0];
            if (n->leaves)
                static_cast<Leaf*>(only)->parent = nullptr;
            else
                static_cast<Inner*>(only)->parent = nullptr;
            wr(only, 64);
            free(n);
            root_ = only;
            --height_;
            note(StepKind::Shrink, only);
        }
        return;
    }
    if (n->count >= kMinFill) return;
    Inner* p = n->parent;
    rd(p, 64);
    rd(p->child, sizeof(void*) * static_cast<std::size_t>(p->count));
    const int i = slotOf(p, n);
    Inner* left = i > 0 ? p->inner(i - 1) : nullptr;
    Inner* right = i + 1 < p->count ? p->inner(i + 1) : nullptr;
    auto adopt = [&](void* child, Inner* by) {
        if (by->leaves)
            static_cast<Leaf*>(child)->parent = by;
        else
            static_cast<Inner*>(child)->parent = by;
        wr(child, 64);
    };
    if (right) rd(right, 64);
    if (right && right->count > kMinFill) {
        // Right's first child moves to this node's end; its bound was right's own.
        wr(right, sizeof(Inner));  // every entry shifts down one
        wr(n, 64);
        wr(&n->sep[n->count], sizeof(Index));
        wr(&n->maxLast[n->count], sizeof(Index));
        wr(&n->child[n->count], sizeof(void*));
        n->sep[n->count] = p->sep[i + 1];
        n->maxLast[n->count] = right->maxLast[0];
        n->child[n->count] = right->child[0];
        adopt(n->child[n->count], n);
        ++n->count;
        wr(&p->sep[i + 1], sizeof(Index));
        wr(&p->maxLast[i], 2 * sizeof(Index));
        p->sep[i + 1] = right->sep[1];
        closeAt(right->sep, right->count, 0);
        closeAt(right->maxLast, right->count, 0);
        closeAt(right->child, right->count, 0);
        --right->count;
        p->maxLast[i] = maxOf(n, false);
        p->maxLast[i + 1] = maxOf(right, false);
        note(StepKind::Borrow, n, 1);
        return;
    }
    if (left) rd(left, 64);
    if (left && left->count > kMinFill) {
        // Left's last child moves to this node's front and bounds it.
        wr(left, 64);
        rd(&left->sep[left->count - 1], sizeof(Index));
        rd(&left->maxLast[left->count - 1], sizeof(Index));
        rd(&left->child[left->count - 1], sizeof(void*));
        wr(n, sizeof(Inner));  // every entry shifts up one
        openAt(n->sep, n->count, 0);
        openAt(n->maxLast, n->count, 0);
        openAt(n->child, n->count, 0);
        --left->count;
        n->sep[1] = p->sep[i];
        n->maxLast[0] = left->maxLast[left->count];
        n->child[0] = left->child[left->count];
        adopt(n->child[0], n);
        ++n->count;
        wr(&p->sep[i], sizeof(Index));
        wr(&p->maxLast[i - 1], 2 * sizeof(Index));
        p->sep[i] = left->sep[left->count];
        p->maxLast[i - 1] = maxOf(left, false);
        p->maxLast[i] = maxOf(n, false);
        note(StepKind::Borrow, n, 0);
        return;
    }
    Inner* a = left ? left : n;
    Inner* b = left ? n : right;
    const int bi = left ? i : i + 1;
    const auto moving = static_cast<std::size_t>(b->count);
    rd(b->sep, sizeof(Index) * moving);
    rd(b->maxLast, sizeof(Index) * moving);
    rd(b->child, sizeof(void*) * moving);
    wr(a, 64);
    wr(a->sep + a->count, sizeof(Index) * moving);
    wr(a->maxLast + a->count, sizeof(Index) * moving);
    wr(a->child + a->count, sizeof(void*) * moving);
    b->sep[0] = p->sep[bi];  // b's first child keeps b's bound
    std::memcpy(a->sep + a->count, b->sep, sizeof(Index) * moving);
    std::memcpy(a->maxLast + a->count, b->maxLast, sizeof(Index) * moving);
    std::memcpy(a->child + a->count, b->child, sizeof(void*) * moving);
    for (int k = 0; k < b->count; ++k)
        adopt(b->child[k], a);
    a->count += b->count;
    unlinkChild(p, bi);
    p->maxLast[bi - 1] = maxOf(a, false);
    free(b);
    note(StepKind::Merge, a);
    rebalance(p);
}

std::vector<Item*> IntervalBTree::overlapping(Index start, Index last) const {
    std::vector<Item*> out;
    forOverlapping(start, last, [&](Item* it) { out.push_back(it); });
    return out;
}

}  // namespace immap::btree
