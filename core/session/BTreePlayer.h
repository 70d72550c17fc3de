#pragma once
// Plays recorded B-tree steps (BTreeRecorder's frames) on the transport bar, as StepPlayer plays
// the rbtree's: an update of every tree it touches (the single tree's first, then the split
// trees'), or an rmap walk's queries. Each position shows one frame; stepping back shows the
// frame before, so backwards is exact by construction. Headless.

#include <map>
#include <memory>
#include <vector>

#include "BTreeRecorder.h"
#include "Playback.h"
#include "TreeSet.h"

namespace immap::session {

class BTreePlayer : public Playback {
public:
    explicit BTreePlayer(const TreeSet& set) : set_(&set) {}
    BTreePlayer(const BTreePlayer&) = delete;
    BTreePlayer& operator=(const BTreePlayer&) = delete;

    // Recording: the recorder of tree t (made on first use, picturing the tree as it is then);
    // run the update or query with it as the index's step hook, then endOp(t).
    BTreeRecorder& beginOp(TreeId t);
    void endOp(TreeId t);

    std::size_t count() const override { return order_.size(); }
    std::size_t position() const override { return pos_; }
    bool forward() override;
    bool backward() override;
    void seek(std::size_t position) override;
    std::string caption() const override;
    int stepMillis() const override { return query_ ? 350 : 700; }
    // A query's steps (an rmap walk) rather than updates.
    void setQuery(bool on) { query_ = on; }
    bool isQuery() const { return query_; }

    bool touches(TreeId t) const { return tracks_.count(t) != 0; }
    TreeId currentTree() const { return pos_ == 0 ? -1 : order_[pos_ - 1].tree; }
    // Tree t as the current position leaves it (only for trees this player touches).
    const DrawBTree& draw(TreeId t) const;
    // What to mark in tree t: the current frame's marks if it is t's.
    BTreeHighlight highlight(TreeId t) const;
    const BTreeFrame* current() const;

private:
    struct Ref {
        TreeId tree;
        std::size_t frame;
    };
    // The frame of tree t shown at the current position, or null (its initial picture).
    const BTreeFrame* shown(TreeId t) const;

    const TreeSet* set_;
    std::map<TreeId, std::unique_ptr<BTreeRecorder>> tracks_;
    std::map<TreeId, std::size_t> opStart_;
    std::vector<Ref> order_;
    std::size_t pos_ = 0;
    bool query_ = false;
};

}  // namespace immap::session
