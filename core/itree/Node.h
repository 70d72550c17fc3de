#pragma once
// One node of the i_mmap interval tree, embedded by the caller (intrusive, like the kernel's
// vm_area_struct::shared.rb): derive from Node and hand the tree a pointer. The tree never
// allocates and never owns nodes.

#include <cstdint>

namespace immap::itree {

// pgoff_t: a page offset into the file.
using Index = std::uint64_t;

enum class Color : std::uint8_t { Red = 0, Black = 1 };

class IntervalTree;

class Node {
public:
    Node() = default;
    Node(Index s, Index l) : start(s), last(l) {}
    // Nodes are linked by address; copying one would copy links that point into the tree.
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;

    // The key: the closed interval [start, last] (for a VMA, [vm_pgoff, vm_pgoff + pages - 1]).
    // Must not change while the node is in a tree.
    Index start = 0;
    Index last = 0;

    Node* parent() const { return reinterpret_cast<Node*>(parentColor_ & ~std::uintptr_t{3}); }
    Node* left() const { return left_; }
    Node* right() const { return right_; }
    Color color() const { return static_cast<Color>(parentColor_ & 1); }
    bool isRed() const { return color() == Color::Red; }
    bool isBlack() const { return color() == Color::Black; }
    // Max `last` over this node's subtree: the augmentation the pruned queries rely on.
    Index subtreeLast() const { return subtreeLast_; }

private:
    friend class IntervalTree;
    template <class Rec>
    friend class TreeWriter;

    // The kernel's 32 bytes of linkage: parent pointer and colour share one word (bit 0 is the
    // colour; nodes are 8-byte aligned), then the two children and the augmented value.
    std::uintptr_t parentColor_ = 0;
    Node* right_ = nullptr;
    Node* left_ = nullptr;
    Index subtreeLast_ = 0;
};

// What the tree itself adds to a node, as in the kernel (rb_node + rb_subtree_last).
inline constexpr std::size_t kLinkageBytes = sizeof(Node) - 2 * sizeof(Index);
static_assert(kLinkageBytes == 4 * sizeof(void*), "linkage must stay three pointers + max");

}  // namespace immap::itree
