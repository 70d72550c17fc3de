#pragma once
// Which recorded step an animation shows. The trees are updated at once (with a recorder per
// tree); the player keeps a ReplayTree per touched tree, started from the state before the first
// update, and moves through the recorded steps in the order they were made: forward applies a
// step's changes, backward reverts them. The algorithm never runs again, so stepping back is
// exact and cheap. Headless: views ask it what to draw and what to highlight.

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "DrawTree.h"
#include "Playback.h"
#include "TreeSet.h"
#include "itree/ReplayTree.h"
#include "itree/StepRecorder.h"

namespace immap::session {

// What the current step points at, as TreeSet entry ids, in the tree being changed.
struct StepHighlight {
    TreeId tree = -1;            // -1 before the first step
    std::vector<int> path;       // nodes the current op descended through so far
    std::vector<int> focus;      // the step's nodes (a, b)
    std::vector<int> flash;      // nodes whose subtree_last the step wrote
    std::vector<int> recolored;  // nodes whose colour the step changed
    int pending = -1;            // a node being inserted, not linked yet
    DrawNode pendingNode;        // its interval and colour, to draw it floating
};

class StepPlayer : public Playback {
public:
    explicit StepPlayer(const TreeSet& set) : set_(&set) {}
    StepPlayer(const StepPlayer&) = delete;
    StepPlayer& operator=(const StepPlayer&) = delete;

    // Recording: call before updating tree t with the returned recorder, then endOp(t).
    itree::StepRecorder& beginOp(TreeId t);
    void endOp(TreeId t);

    std::size_t count() const override { return order_.size(); }
    std::size_t position() const override { return pos_; }  // steps applied, 0..count()
    // False, changing nothing, at either end; also false if a recording does not fit (a bug).
    bool forward() override;
    bool backward() override;
    void seek(std::size_t position) override;

    // The last applied step (null at the start) and its tree.
    const itree::Step* current() const;
    TreeId currentTree() const;
    std::string caption() const override;
    StepHighlight highlight() const;

    bool touches(TreeId t) const { return tracks_.count(t) != 0; }
    std::vector<TreeId> trees() const;
    // The tree as the current step leaves it (only for trees this player touches).
    DrawTree draw(TreeId t) const;
    const itree::ReplayTree& replay(TreeId t) const { return tracks_.at(t)->replay; }

private:
    struct Track {
        itree::ReplayTree replay;
        itree::StepRecorder rec;
        std::size_t opStart = 0;
    };
    struct Ref {
        TreeId tree;
        std::uint32_t step;  // index into that track's recorder
    };
    const itree::Step& stepAt(std::size_t i) const;
    // The first step of the op containing global step i.
    std::size_t opBegin(std::size_t i) const;

    const TreeSet* set_;
    std::map<TreeId, std::unique_ptr<Track>> tracks_;
    std::vector<Ref> order_;
    std::size_t pos_ = 0;
    bool ok_ = true;
};

}  // namespace immap::session
