#include "WalkPlayer.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "StepCaption.h"

namespace immap::session {

namespace {
std::string hex(std::uint64_t v) {
    return StepCaption::hex(v);
}
}  // namespace

WalkPlayer::WalkPlayer(const TreeSet& set, itree::Index first, itree::Index last)
    : set_(&set), first_(first), last_(last) {
    for (TreeId t = 0; t < static_cast<TreeId>(set.treeCount()); ++t) {
        walks_.push_back({t, RmapWalk::run(set.tree(t), first, last)});
        for (std::size_t e = 0; e < walks_.back().result.events.size(); ++e)
            order_.push_back({walks_.size() - 1, e});
    }
}

std::size_t WalkPlayer::singleVisited() const {
    return walks_.front().result.visited;
}

std::size_t WalkPlayer::singleMatches() const {
    return walks_.front().result.matches.size();
}

std::size_t WalkPlayer::splitVisited() const {
    std::size_t n = 0;
    for (std::size_t i = 1; i < walks_.size(); ++i)
        n += walks_[i].result.visited;
    return n;
}

std::size_t WalkPlayer::splitMatches() const {
    std::size_t n = 0;
    for (std::size_t i = 1; i < walks_.size(); ++i)
        n += walks_[i].result.matches.size();
    return n;
}

std::size_t WalkPlayer::splitTreesWithMatches() const {
    return static_cast<std::size_t>(std::count_if(
        walks_.begin() + 1, walks_.end(), [](auto& w) { return !w.result.matches.empty(); }));
}

std::string WalkPlayer::summary() const {
    // A stream rather than operator+: GCC 12 warns falsely (-Wrestrict) on long + chains.
    std::ostringstream o;
    o << "rmap walk of pages [" << hex(first_) << ", " << hex(last_) << "]: single tree "
      << singleVisited() << " nodes visited for " << singleMatches()
      << " VMAs; split: " << splitTrees() << " trees locked and walked (" << splitTreesWithMatches()
      << " with a hit), " << splitVisited() << " nodes visited for " << splitMatches() << " VMAs";
    return o.str();
}

bool WalkPlayer::stopsAt(std::size_t applied) const {
    if (applied == 0 || applied >= order_.size() || stride_ == Stride::Node) return true;
    const Ref& last = order_[applied - 1];
    if (order_[applied].walk != last.walk) return true;  // a tree's walk ends here
    if (stride_ == Stride::Tree) return false;
    const WalkEvent::Kind k = walks_[last.walk].result.events[last.event].kind;
    return k == WalkEvent::Kind::Prune || k == WalkEvent::Kind::Match;
}

bool WalkPlayer::forward() {
    if (pos_ >= order_.size()) return false;
    do
        ++pos_;
    while (!stopsAt(pos_));
    return true;
}

bool WalkPlayer::backward() {
    if (pos_ == 0) return false;
    do
        --pos_;
    while (!stopsAt(pos_));
    return true;
}

TreeId WalkPlayer::currentTree() const {
    return pos_ == 0 ? -1 : walks_[order_[pos_ - 1].walk].tree;
}

WalkPlayer::State WalkPlayer::state(TreeId t) const {
    State s;
    for (std::size_t i = 0; i < pos_; ++i) {
        const Ref& r = order_[i];
        if (walks_[r.walk].tree != t) continue;
        const WalkEvent& e = walks_[r.walk].result.events[r.event];
        switch (e.kind) {
            case WalkEvent::Kind::Visit:
                s.visited.push_back(e.id);
                break;
            case WalkEvent::Kind::Match:
                s.matches.push_back(e.id);
                break;
            case WalkEvent::Kind::Prune:
                s.pruned.push_back(e.id);
                break;
        }
        s.current = e.id;
    }
    return s;
}

std::string WalkPlayer::caption() const {
    if (pos_ == 0) return summary() + ". Press Space to watch it.";
    const Ref& r = order_[pos_ - 1];
    const TreeWalk& w = walks_[r.walk];
    const WalkEvent& e = w.result.events[r.event];
    // Until the first match the kernel is in iter_first, afterwards in iter_next.
    bool matched = false;
    for (std::size_t k = 0; k < r.event; ++k)
        matched = matched || w.result.events[k].kind == WalkEvent::Kind::Match;
    const std::string fn = matched ? "vma_interval_tree_iter_next" : "vma_interval_tree_iter_first";
    const itree::Node* n = set_->node(e.id, w.tree);
    const std::string name = StepCaption::nodeName(*set_, n);
    std::ostringstream o;
    o << StepCaption::treeName(*set_, w.tree) << ", " << fn << ": ";
    switch (e.kind) {
        case WalkEvent::Kind::Visit:
            o << "visit " << name;
            break;
        case WalkEvent::Kind::Prune:
            o << "skip the subtree of " << name << ": its subtree_last "
              << hex(n ? n->subtreeLast() : 0) << " < first page " << hex(first_);
            break;
        case WalkEvent::Kind::Match:
            o << "found " << name << ": it maps the range";
            break;
    }
    if (pos_ == order_.size() || order_[pos_].walk != r.walk)
        o << "; this tree done: " << w.result.visited << " nodes visited, "
          << w.result.matches.size() << " VMAs found";
    if (pos_ == order_.size()) o << "\n" << summary();
    return o.str();
}

}  // namespace immap::session
