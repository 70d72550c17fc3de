#pragma once
// An rmap walk of a page range over every tree of the set (the single tree, then each split
// tree, as a whole-file walker under split-locks must take every lock and walk every tree),
// stepped one event at a time: nodes examined, subtrees pruned by subtree_last, VMAs found.
// A step may also run to the next decision (a pruned subtree or a VMA found) or through a whole
// tree, so that a 6,000-node walk can be shown live in a talk.

#include <string>
#include <vector>

#include "Playback.h"
#include "RmapWalk.h"
#include "TreeSet.h"

namespace immap::session {

struct TreeWalk {
    TreeId tree = 0;
    WalkResult result;
};

class WalkPlayer : public Playback {
public:
    // How far forward() and backward() go: one event; to the next event that prunes a subtree
    // or finds a VMA (or ends a tree); to the end of the current tree.
    enum class Stride { Node, Decision, Tree };

    WalkPlayer(const TreeSet& set, itree::Index first, itree::Index last);

    itree::Index first() const { return first_; }
    itree::Index last() const { return last_; }
    const std::vector<TreeWalk>& walks() const { return walks_; }

    // What the whole walk costs: the single tree, and the split trees together.
    std::size_t singleVisited() const;
    std::size_t singleMatches() const;
    std::size_t splitVisited() const;
    std::size_t splitMatches() const;
    std::size_t splitTrees() const { return walks_.size() - 1; }  // all walked (and locked)
    std::size_t splitTreesWithMatches() const;
    std::string summary() const;

    std::size_t count() const override { return order_.size(); }
    std::size_t position() const override { return pos_; }
    bool forward() override;
    bool backward() override;
    void seek(std::size_t position) override { pos_ = std::min(position, order_.size()); }
    std::string caption() const override;
    int stepMillis() const override { return 120; }
    void setStride(Stride s) { stride_ = s; }
    Stride stride() const { return stride_; }

    // The events of tree t applied so far, as entry ids.
    struct State {
        std::vector<int> visited, matches, pruned;
        int current = -1;  // the node of the last applied event, if it is in this tree
    };
    State state(TreeId t) const;
    TreeId currentTree() const;

private:
    // Whether a step of the current stride may stop with `applied` events applied.
    bool stopsAt(std::size_t applied) const;

    struct Ref {
        std::size_t walk;
        std::size_t event;
    };
    const TreeSet* set_;
    itree::Index first_, last_;
    std::vector<TreeWalk> walks_;
    std::vector<Ref> order_;
    std::size_t pos_ = 0;
    Stride stride_ = Stride::Node;
};

}  // namespace immap::session
