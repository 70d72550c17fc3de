#pragma once
// What an operation on the B-tree index reads and writes, as it happens: byte ranges of its
// own nodes, and the caller's items (the VMA's interval as it goes in, its back pointer). A
// counter (LineCounter) counts the distinct lines; the simulator prices each touch by where
// the line is (sim::Pricer), as it prices the rbtree's node touches (itree::TouchObserver).

#include <cstddef>

#include "Item.h"

namespace immap::btree {

class TouchObserver {
public:
    virtual ~TouchObserver() = default;
    // Bytes [p, p + bytes) of one of the index's nodes were read, or written.
    virtual void read(const void* p, std::size_t bytes) = 0;
    virtual void write(const void* p, std::size_t bytes) = 0;
    // The item's own fields were read: its interval as it goes in, its back pointer as it
    // leaves.
    virtual void readItem(const Item* item) = 0;
    // The item's back pointer was rewritten (it moved to another leaf, or went in): a write to
    // the caller's object, a VMA's line.
    virtual void backPointer(const Item* item) = 0;
    // A node was made, fresh or reused from the spare list: [p, p + bytes) now holds a new
    // node, written by this operation (its writes follow).
    virtual void created(const void* p, std::size_t bytes) {
        (void)p;
        (void)bytes;
    }
};

}  // namespace immap::btree
