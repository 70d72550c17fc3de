#pragma once
// A leaf of the B-tree interval index: up to kFanout items in order, their starts and lasts in
// separate arrays (a scan reads only the keys it compares; each array of 16 is two cache lines
// and four AVX2 compares), the items' addresses in a third, and a header line.
//
// Why 16: an insert or a query reads one header line and two key lines per level; 16 keys per
// node give a 1,000,000-VMA tree 5-6 levels against the rbtree's 20-40 dependent node reads,
// while a leaf insert shifts at most 15 entries of each array (a few hundred bytes, in lines
// the search has just read). 8 would double the levels; 32 would double the shifting and the
// lines a query reads per node.

#include <cstdint>

#include "Item.h"

namespace immap::btree {

inline constexpr int kFanout = 16;
// Fewer than this many entries in a node that is not the root: borrow one from a sibling, or
// merge with it (3 + 4 <= 16). A quarter, not the textbook half: every item a merge, borrow or
// split moves to another leaf costs a write to its VMA's back pointer, a cache miss in a big
// file, and libc's churn (random exits, appends at the end of a run of equal starts) would
// keep half-full leaves splitting and merging.
inline constexpr int kMinFill = kFanout / 4;

class Inner;

class alignas(64) Leaf {
public:
    // Header: what a search reads before the keys. `max` is the largest `last` here (the
    // parent's maxLast for this leaf): an update that does not move it stops without reading
    // the parent, as most of libc's do (thousands of items share each last).
    Inner* parent = nullptr;
    int count = 0;
    Index max = 0;

    alignas(64) Index start[kFanout] = {};
    Index last[kFanout] = {};
    Item* item[kFanout] = {};
};

}  // namespace immap::btree
