#pragma once
// Takes a picture of a B-tree at every primitive step of its updates and queries (the index's
// StepHook), so that the animation can play them forwards and backwards without running the
// algorithm again: each frame is the whole tree as that step left it, with the step's nodes
// marked and its caption. A split, a merge or a borrow is one frame, taken once the tree is
// whole again; each max-last write is one, so its propagation is seen level by level.

#include <functional>
#include <string>
#include <vector>

#include "BTreeFrame.h"
#include "btree/StepHook.h"

namespace immap::session {

class BTreeRecorder : public btree::StepHook {
public:
    using Describe = std::function<void(const btree::Item*, int& id, int& home)>;
    // The tree's picture as it is now is the first frame's "before".
    BTreeRecorder(const btree::IntervalBTree& tree, Describe describe);

    // An update or query starts: `what` names it in every caption of its steps
    // ("insert pid 12 [0x0, 0x1c]"). For a query, [first, last] is what it looks for.
    void begin(std::string what, btree::Index first = 0, btree::Index last = 0);
    void step(btree::StepKind kind, const void* node, int slot, const btree::Item* item) override;

    const std::shared_ptr<const DrawBTree>& initial() const { return initial_; }
    const std::vector<BTreeFrame>& frames() const { return frames_; }

private:
    const DrawBTree& latest() const { return frames_.empty() ? *initial_ : *frames_.back().tree; }
    std::string text(btree::StepKind kind, const DrawBTree& before, const DrawBTree& now,
                     const void* node, int slot, const btree::Item* item) const;
    std::string itemName(const btree::Item* item) const;

    const btree::IntervalBTree* tree_;
    Describe describe_;
    std::shared_ptr<const DrawBTree> initial_;
    std::vector<BTreeFrame> frames_;
    std::string what_;
    const btree::Item* item_ = nullptr;  // the update's item, from its Begin
    btree::Index first_ = 0, last_ = 0;
    // Of the current update or query, by node address (pictures are resolved per frame).
    std::vector<const void*> path_, visited_;
    std::vector<std::pair<const void*, int>> pruned_, matches_;
};

}  // namespace immap::session
