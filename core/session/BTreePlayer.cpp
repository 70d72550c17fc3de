#include "BTreePlayer.h"

#include <algorithm>

#include "StepCaption.h"

namespace immap::session {

BTreeRecorder& BTreePlayer::beginOp(TreeId t) {
    auto& rec = tracks_[t];
    if (!rec)
        rec = std::make_unique<BTreeRecorder>(
            set_->btree(t), [set = set_](const btree::Item* item, int& id, int& home) {
                set->describe(item, id, home);
            });
    opStart_[t] = rec->frames().size();
    return *rec;
}

void BTreePlayer::endOp(TreeId t) {
    const BTreeRecorder& rec = *tracks_.at(t);
    for (std::size_t i = opStart_.at(t); i < rec.frames().size(); ++i)
        order_.push_back({t, i});
}

bool BTreePlayer::forward() {
    if (pos_ >= order_.size()) return false;
    ++pos_;
    return true;
}

bool BTreePlayer::backward() {
    if (pos_ == 0) return false;
    --pos_;
    return true;
}

void BTreePlayer::seek(std::size_t position) {
    pos_ = std::min(position, order_.size());
}

const BTreeFrame* BTreePlayer::shown(TreeId t) const {
    for (std::size_t i = pos_; i > 0; --i)
        if (order_[i - 1].tree == t) return &tracks_.at(t)->frames()[order_[i - 1].frame];
    return nullptr;
}

const DrawBTree& BTreePlayer::draw(TreeId t) const {
    const BTreeFrame* f = shown(t);
    return f ? *f->tree : *tracks_.at(t)->initial();
}

BTreeHighlight BTreePlayer::highlight(TreeId t) const {
    if (t != currentTree()) return {};
    return current()->mark;
}

const BTreeFrame* BTreePlayer::current() const {
    if (pos_ == 0) return nullptr;
    const Ref& r = order_[pos_ - 1];
    return &tracks_.at(r.tree)->frames()[r.frame];
}

std::string BTreePlayer::caption() const {
    if (pos_ == 0)
        return order_.empty() ? std::string()
                              : "ready: " + std::to_string(order_.size()) +
                                    " recorded B-tree steps; press Space to play";
    return StepCaption::treeName(*set_, currentTree()) + ": " + current()->caption;
}

}  // namespace immap::session
