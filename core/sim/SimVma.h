#pragma once
// A VMA as the simulator keeps it: a node of one file's i_mmap tree (an rbtree node, or an item
// of the B-tree index, as the policy's structure says), with the NUMA node it is homed on (the
// node of the CPU that mapped it; split pieces inherit it, nothing re-homes it) and which of
// the file's trees it lives in under the policy.

#include <cstdint>

#include "btree/Item.h"
#include "itree/Node.h"
#include "sim/CacheLine.h"

namespace immap::sim {

// The line's state sits right after the rb node's fields, so that a priced touch of a VMA
// reads one host cache line: SimVma is 64-byte aligned and the two make its first 64 bytes.
struct SimVmaLine {
    // The node's cache line (its rb links, colour and subtree_last; with the B-tree, its back
    // pointer to its leaf): touched through the tree's observer, whose interface is const,
    // hence mutable.
    mutable CacheLine line;
};

struct alignas(64) SimVma : itree::Node, SimVmaLine, btree::Item {
    // The interval is the rb node's; FileTree copies it into the item as the VMA goes in.
    using itree::Node::last;
    using itree::Node::start;
    std::int32_t file = -1;   // index into the recipe's files
    std::int32_t tree = 0;    // which of that file's trees
    std::int32_t home = 0;    // logical NUMA node
    std::int32_t owner = -1;  // copy index; -1 for background processes
    std::uint32_t id = 0;     // unique over a run (traces name VMAs by it)
};
static_assert(sizeof(itree::Node) + sizeof(CacheLine) == 64 && sizeof(SimVma) == 128,
              "a touch of a VMA reads its first host cache line");

}  // namespace immap::sim
