#include "StepPlayer.h"

#include <algorithm>

#include "StepCaption.h"

namespace immap::session {

itree::StepRecorder& StepPlayer::beginOp(TreeId t) {
    auto& track = tracks_[t];
    if (!track) {
        // The replay starts from the tree as it is before this player's first update of it.
        track = std::make_unique<Track>();
        track->replay = itree::ReplayTree(set_->tree(t));
    }
    track->opStart = track->rec.steps().size();
    return track->rec;
}

void StepPlayer::endOp(TreeId t) {
    Track& track = *tracks_.at(t);
    for (std::size_t i = track.opStart; i < track.rec.steps().size(); ++i)
        order_.push_back({t, static_cast<std::uint32_t>(i)});
}

const itree::Step& StepPlayer::stepAt(std::size_t i) const {
    const Ref& r = order_[i];
    return tracks_.at(r.tree)->rec.steps()[r.step];
}

bool StepPlayer::forward() {
    if (pos_ >= order_.size()) return false;
    const Ref& r = order_[pos_];
    Track& t = *tracks_.at(r.tree);
    ok_ = t.replay.forward(t.rec, t.rec.steps()[r.step]) && ok_;
    ++pos_;
    return ok_;
}

bool StepPlayer::backward() {
    if (pos_ == 0) return false;
    --pos_;
    const Ref& r = order_[pos_];
    Track& t = *tracks_.at(r.tree);
    ok_ = t.replay.backward(t.rec, t.rec.steps()[r.step]) && ok_;
    return ok_;
}

void StepPlayer::seek(std::size_t position) {
    position = std::min(position, order_.size());
    while (pos_ < position && forward()) {
    }
    while (pos_ > position && backward()) {
    }
}

const itree::Step* StepPlayer::current() const {
    return pos_ == 0 ? nullptr : &stepAt(pos_ - 1);
}

TreeId StepPlayer::currentTree() const {
    return pos_ == 0 ? -1 : order_[pos_ - 1].tree;
}

std::vector<TreeId> StepPlayer::trees() const {
    std::vector<TreeId> out;
    for (const auto& [t, track] : tracks_)
        out.push_back(t);
    return out;
}

DrawTree StepPlayer::draw(TreeId t) const {
    return DrawTree::of(tracks_.at(t)->replay, *set_);
}

std::size_t StepPlayer::opBegin(std::size_t i) const {
    const TreeId tree = order_[i].tree;
    while (i > 0 && order_[i - 1].tree == tree && stepAt(i).kind != itree::StepKind::Begin)
        --i;
    return i;
}

std::string StepPlayer::caption() const {
    if (pos_ == 0)
        return order_.empty() ? std::string()
                              : "ready: " + std::to_string(order_.size()) +
                                    " recorded steps; press Space to play";
    const std::size_t i = pos_ - 1;
    const std::size_t begin = opBegin(i);
    const itree::Step* context = nullptr;  // the fix-up or erase case this step belongs to
    for (std::size_t k = begin; k < i; ++k) {
        const itree::Step& s = stepAt(k);
        if (s.kind == itree::StepKind::FixupCase || s.kind == itree::StepKind::EraseCase)
            context = &s;
    }
    return StepCaption::text(*set_, order_[i].tree, stepAt(i), context);
}

StepHighlight StepPlayer::highlight() const {
    StepHighlight h;
    if (pos_ == 0) return h;
    const std::size_t i = pos_ - 1;
    const Ref& r = order_[i];
    const Track& track = *tracks_.at(r.tree);
    h.tree = r.tree;
    const std::size_t begin = opBegin(i);
    bool linked = false;
    for (std::size_t k = begin; k <= i; ++k) {
        const itree::Step& s = stepAt(k);
        if (s.kind == itree::StepKind::Descend) h.path.push_back(TreeSet::idOf(s.a));
        if (s.kind == itree::StepKind::Link) linked = true;
    }
    const itree::Step& first = stepAt(begin);
    if (first.kind == itree::StepKind::Begin && first.op != itree::Op::Remove && !linked) {
        h.pending = TreeSet::idOf(first.a);
        const VmaEntry& e = set_->entry(h.pending);
        h.pendingNode.start = first.a->start;
        h.pendingNode.last = first.a->last;
        h.pendingNode.subtreeLast = first.a->last;
        h.pendingNode.red = true;  // a new node is linked red
        h.pendingNode.id = h.pending;
        h.pendingNode.homeNode = e.vma.homeNode;
        h.pendingNode.pid = e.vma.pid;
    }
    const itree::Step& s = stepAt(i);
    if (s.a) h.focus.push_back(TreeSet::idOf(s.a));
    if (s.b) h.focus.push_back(TreeSet::idOf(s.b));
    for (const itree::Change& c : track.rec.changes(s)) {
        if (!c.node) continue;
        if (c.field == itree::Field::SubtreeLast) h.flash.push_back(TreeSet::idOf(c.node));
        if (c.field == itree::Field::Color) h.recolored.push_back(TreeSet::idOf(c.node));
    }
    return h;
}

}  // namespace immap::session
