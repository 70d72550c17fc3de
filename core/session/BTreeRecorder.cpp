#include "BTreeRecorder.h"

#include "StepCaption.h"

#include <algorithm>

namespace immap::session {

namespace {

std::string hex(btree::Index v) {
    return StepCaption::hex(v);
}

// Whether the step changes the tree (a new picture) or only reads it (the last one again).
bool writes(btree::StepKind k) {
    switch (k) {
        case btree::StepKind::Place:
        case btree::StepKind::Split:
        case btree::StepKind::Unplace:
        case btree::StepKind::MaxLast:
        case btree::StepKind::Borrow:
        case btree::StepKind::Merge:
        case btree::StepKind::Shrink:
            return true;
        default:
            return false;
    }
}

std::string levelName(const DrawBTree& t, int i) {
    if (i < 0) return "node";
    const DrawBNode& n = t.nodes[static_cast<std::size_t>(i)];
    if (n.leaf) return n.level == 0 ? "the root leaf" : "leaf";
    return n.level == 0 ? "the root" : "inner node (level " + std::to_string(n.level) + ")";
}

}  // namespace

BTreeRecorder::BTreeRecorder(const btree::IntervalBTree& tree, Describe describe)
    : tree_(&tree),
      describe_(std::move(describe)),
      initial_(std::make_shared<const DrawBTree>(DrawBTree::of(tree, describe_))) {}

void BTreeRecorder::begin(std::string what, btree::Index first, btree::Index last) {
    what_ = std::move(what);
    first_ = first;
    last_ = last;
    path_.clear();
    item_ = nullptr;
    visited_.clear();
    pruned_.clear();
    matches_.clear();
}

std::string BTreeRecorder::itemName(const btree::Item* item) const {
    if (!item) return "?";
    std::string s = "[";
    s += hex(item->start);
    s += ", " + hex(item->last) + "]";
    return s;
}

void BTreeRecorder::step(btree::StepKind kind, const void* node, int slot,
                         const btree::Item* item) {
    using K = btree::StepKind;
    switch (kind) {
        case K::Begin:
            path_.clear();
            item_ = item;
            break;
        case K::Descend:
            path_.push_back(node);
            break;
        case K::Place:
        case K::Unplace:
            if (node) path_.push_back(node);
            break;
        case K::Split:
            if (std::find(path_.begin(), path_.end(), node) == path_.end()) path_.push_back(node);
            break;
        case K::Visit:
            visited_.push_back(node);
            break;
        case K::Prune:
            pruned_.emplace_back(node, slot);
            break;
        case K::Match:
            matches_.emplace_back(node, slot);
            break;
        default:
            break;
    }
    const DrawBTree& before = latest();
    BTreeFrame f;
    f.tree = writes(kind)      ? std::make_shared<const DrawBTree>(DrawBTree::of(*tree_, describe_))
             : frames_.empty() ? initial_
                               : frames_.back().tree;
    const DrawBTree& now = *f.tree;
    for (const void* p : path_)
        if (const int i = now.indexOf(p); i >= 0) f.mark.path.push_back(i);
    for (const void* p : visited_)
        if (const int i = now.indexOf(p); i >= 0) f.mark.visited.push_back(i);
    for (const auto& [p, s] : pruned_)
        if (const int i = now.indexOf(p); i >= 0) f.mark.pruned.push_back({i, s});
    for (const auto& [p, s] : matches_)
        if (const int i = now.indexOf(p); i >= 0) f.mark.matches.push_back({i, s});
    f.mark.focus = {now.indexOf(node), slot};
    if (kind == K::MaxLast) f.mark.flash.push_back(f.mark.focus);
    if (kind == K::Split || kind == K::Borrow) f.mark.focus.slot = -1;
    // A split's new node, a borrow's sibling, and their parent are written too.
    if (const int i = f.mark.focus.node;
        i >= 0 && (kind == K::Split || kind == K::Borrow || kind == K::Merge)) {
        const DrawBNode& n = now.nodes[static_cast<std::size_t>(i)];
        if (n.parent >= 0) {
            const DrawBNode& p = now.nodes[static_cast<std::size_t>(n.parent)];
            const int side = kind == K::Borrow && slot == 0 ? -1 : 1;
            const int sib = n.parentSlot + side;
            if (kind != K::Merge && sib >= 0 && sib < p.count())
                f.mark.touched.push_back(p.child[static_cast<std::size_t>(sib)]);
            f.mark.touched.push_back(n.parent);
        }
    }
    f.caption = text(kind, before, now, node, slot, item);
    frames_.push_back(std::move(f));
}

std::string BTreeRecorder::text(btree::StepKind kind, const DrawBTree& before, const DrawBTree& now,
                                const void* node, int slot, const btree::Item* item) const {
    using K = btree::StepKind;
    const int i = now.indexOf(node);
    const DrawBNode* n = i >= 0 ? &now.nodes[static_cast<std::size_t>(i)] : nullptr;
    const int was = before.indexOf(node);
    const DrawBNode* old = was >= 0 ? &before.nodes[static_cast<std::size_t>(was)] : nullptr;
    const std::string where = levelName(now, i);
    const std::string head = what_ + ": ";
    auto at = [&](int s) {
        return n && s >= 0 && s < n->count() ? n->key[static_cast<std::size_t>(s)] : 0;
    };
    switch (kind) {
        case K::Begin:
            if (what_.rfind("remove", 0) == 0)
                return head + "the VMA's back pointer names its leaf: no search from the root";
            return head + (now.height == 0
                               ? "the index is empty: a first leaf is made"
                               : "descend from the root by start " + hex(item ? item->start : 0));
        case K::Descend:
            return head + where + ": child " + std::to_string(slot) +
                   (slot > 0 ? " is the last whose lower bound " + hex(at(slot)) + " <= start"
                             : ": every later child's lower bound is above start") +
                   "; go down";
        case K::Place:
            return head + where + " has room: entries from slot " + std::to_string(slot) +
                   " shift right, the item goes in; its back pointer names this leaf";
        case K::Split: {
            // The new node is the one after this in the parent (linked right after it).
            int moved = 0;
            if (n && n->parent >= 0) {
                const DrawBNode& p = now.nodes[static_cast<std::size_t>(n->parent)];
                const auto next = static_cast<std::size_t>(n->parentSlot + 1);
                if (next < p.child.size())
                    moved = now.nodes[static_cast<std::size_t>(p.child[next])].count();
                if (slot < 0) --moved;  // the new item is there too
            }
            std::string s = head + where + " was full (" + std::to_string(btree::kFanout) +
                            "): split; " + std::to_string(n ? n->count() : 0) + " entries here, " +
                            std::to_string(moved) +
                            " move to a new leaf linked after it (each moved VMA's back pointer " +
                            "rewritten); the item went " + (slot >= 0 ? "left" : "right");
            if (now.height > before.height)
                s += "; the root split too: a new root, height " + std::to_string(before.height) +
                     " -> " + std::to_string(now.height);
            return s;
        }
        case K::Unplace:
            return head + (n ? where + ": slot " + std::to_string(slot) +
                                   " closed, later entries shift left"
                             : "the last entry left: the index is empty");
        case K::MaxLast: {
            const btree::Index to = n ? n->last[static_cast<std::size_t>(slot)] : 0;
            const btree::Index from =
                old && slot < old->count() ? old->last[static_cast<std::size_t>(slot)] : to;
            return head + where + ": max-last of child " + std::to_string(slot) + " " + hex(from) +
                   " -> " + hex(to) + " (propagating up)";
        }
        case K::Covered:
            return head + where + "'s max-last already covers " + hex(item_ ? item_->last : 0) +
                   (n && n->level == 0 ? ": nothing to propagate"
                    : n && n->leaf     ? ": its parent's does too, nothing above is written"
                                       : ": every level above covers it too; stop");
        case K::Borrow:
            return head + where + " fell under " + std::to_string(btree::kMinFill) +
                   " entries: it takes one from its " + (slot == 1 ? "right" : "left") +
                   " sibling (a moved VMA's back pointer is rewritten); the parent's bound and " +
                   "max-last follow";
        case K::Merge:
            return head + where + " and its under-full sibling merge into one (" +
                   std::to_string(n ? n->count() : 0) +
                   " entries; the moved VMAs' back pointers rewritten); the parent loses a slot";
        case K::Shrink:
            return head + "the root had one child left: that child is the root, height " +
                   std::to_string(before.height) + " -> " + std::to_string(now.height);
        case K::Visit:
            return head + "enter " + where;
        case K::Prune:
            return head + where + ": child " + std::to_string(slot) + "'s max-last " +
                   hex(n ? n->last[static_cast<std::size_t>(slot)] : 0) + " < " + hex(first_) +
                   ": nothing under it reaches the range, skipped unread";
        case K::Match:
            return head + where + " slot " + std::to_string(slot) + " " + itemName(item) +
                   " overlaps: found (" + std::to_string(matches_.size()) + " so far)";
    }
    return head;
}

}  // namespace immap::session
