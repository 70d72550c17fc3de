#include "DrawBTree.h"

#include <algorithm>

namespace immap::session {

DrawBTree DrawBTree::of(const btree::IntervalBTree& tree,
                        const std::function<void(const btree::Item*, int&, int&)>& describe) {
    DrawBTree out;
    out.height = tree.height();
    out.items = tree.size();
    out.linkBytes = tree.linkBytes();
    if (!tree.root()) return out;
    // Breadth first: a level's nodes are contiguous and left to right, so a layout reads
    // them in order.
    std::vector<const void*> level{tree.root()};
    std::vector<std::pair<int, int>> parents{{-1, -1}};
    for (int depth = 0; depth < tree.height(); ++depth) {
        const bool leaf = depth == tree.height() - 1;
        std::vector<const void*> next;
        std::vector<std::pair<int, int>> nextParents;
        for (std::size_t k = 0; k < level.size(); ++k) {
            const int index = static_cast<int>(out.nodes.size());
            DrawBNode d;
            d.leaf = leaf;
            d.level = depth;
            d.parent = parents[k].first;
            d.parentSlot = parents[k].second;
            d.address = level[k];
            if (d.parent >= 0)
                out.nodes[static_cast<std::size_t>(d.parent)]
                    .child[static_cast<std::size_t>(d.parentSlot)] = index;
            if (leaf) {
                const auto* l = static_cast<const btree::Leaf*>(level[k]);
                for (int i = 0; i < l->count; ++i) {
                    d.key.push_back(l->start[i]);
                    d.last.push_back(l->last[i]);
                    int id = -1, home = 0;
                    describe(l->item[i], id, home);
                    d.id.push_back(id);
                    d.home.push_back(home);
                }
            } else {
                const auto* n = static_cast<const btree::Inner*>(level[k]);
                for (int i = 0; i < n->count; ++i) {
                    d.key.push_back(n->sep[i]);
                    d.last.push_back(n->maxLast[i]);
                    d.child.push_back(-1);
                    next.push_back(n->child[i]);
                    nextParents.emplace_back(index, i);
                }
            }
            out.nodes.push_back(std::move(d));
        }
        level = std::move(next);
        parents = std::move(nextParents);
    }
    return out;
}

int DrawBTree::indexOf(const void* address) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].address == address) return static_cast<int>(i);
    return -1;
}

std::pair<int, int> DrawBTree::slotOfId(int id) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (std::size_t s = 0; s < nodes[i].id.size(); ++s)
            if (nodes[i].id[s] == id) return {static_cast<int>(i), static_cast<int>(s)};
    return {-1, -1};
}

std::vector<int> DrawBTree::leaves() const {
    std::vector<int> out;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].leaf) out.push_back(static_cast<int>(i));
    return out;
}

int DrawBTree::stepFrom(int id, int step) const {
    std::vector<int> order;
    for (int i : leaves())
        for (int x : nodes[static_cast<std::size_t>(i)].id)
            order.push_back(x);
    if (order.empty()) return -1;
    const auto it = std::find(order.begin(), order.end(), id);
    if (it == order.end()) return order.front();
    const auto at = std::clamp<std::ptrdiff_t>(it - order.begin() + step, 0,
                                               static_cast<std::ptrdiff_t>(order.size()) - 1);
    return order[static_cast<std::size_t>(at)];
}

bool operator==(const DrawBNode& a, const DrawBNode& b) {
    // The address is identity, not content: a node reused from the spare list is the same
    // picture.
    return a.leaf == b.leaf && a.level == b.level && a.parent == b.parent &&
           a.parentSlot == b.parentSlot && a.key == b.key && a.last == b.last &&
           a.child == b.child && a.id == b.id && a.home == b.home;
}

bool operator==(const DrawBTree& a, const DrawBTree& b) {
    return a.height == b.height && a.items == b.items && a.nodes == b.nodes;
}

}  // namespace immap::session
