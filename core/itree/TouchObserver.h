#pragma once
// What an update costs in memory traffic: the nodes it reads and the nodes it writes, as they
// happen. The simulator prices each touch by the NUMA distance between the updating CPU and
// the node's home, so the cost comes from the real path through the real tree, not a formula.
// Cheaper than a StepRecorder: no allocation, no old values.

#include "Node.h"

namespace immap::itree {

class TouchObserver {
public:
    virtual ~TouchObserver() = default;
    // A node's fields were read on the way: the insert descent, the erase successor search,
    // augment recomputation on the way up, the fix-up's neighbours.
    virtual void read(const Node* node) = 0;
    // One field of `node` was written (link, colour, subtree_last). A node written several
    // times in one update is reported each time; the observer decides what a repeat costs.
    virtual void write(const Node* node) = 0;
};

}  // namespace immap::itree
