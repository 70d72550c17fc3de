#include "trace/TraceCursor.h"

#include "trace/TraceError.h"

namespace immap::trace {

TraceCursor::TraceCursor(const std::string& path, std::uint64_t every)
    : reader_(path), replay_(std::make_unique<TraceReplay>(reader_.header())) {
    if (every == 0) every = 1;
    checkpoints_.push_back({0, reader_.bytesRead(), reader_.line(), replay_->snapshot()});
    sim::SimEvent e;
    while (reader_.next(e)) {
        apply(e);
        if (applied_ % every == 0)
            checkpoints_.push_back(
                {applied_, reader_.bytesRead(), reader_.line(), replay_->snapshot()});
    }
    events_ = applied_;
    error_ = reader_.error();
    if (!reader_.complete()) {
        cutAt_ = reader_.lastTime();
        replay_->endsEarlyAt(cutAt_);
    }
}

void TraceCursor::apply(const sim::SimEvent& e) {
    std::string reason;
    if (!replay_->apply(e, reason)) throw TraceError(reader_.path(), reader_.line(), reason);
    ++applied_;
    last_ = e;
}

void TraceCursor::seek(std::uint64_t applied) {
    applied = std::min(applied, events_);
    // The last checkpoint at or before the target. Going back, or past a checkpoint, starts
    // from it; a short way forward just reads on.
    std::size_t lo = 0, hi = checkpoints_.size();
    while (hi - lo > 1) {
        const std::size_t mid = (lo + hi) / 2;
        (checkpoints_[mid].applied <= applied ? lo : hi) = mid;
    }
    const Checkpoint& c = checkpoints_[lo];
    if (applied < applied_ || c.applied > applied_) {
        replay_->restore(*c.state);
        if (cutAt_ >= 0) replay_->endsEarlyAt(cutAt_);
        reader_.seek(c.offset, c.line, c.applied);
        applied_ = c.applied;
        last_ = sim::SimEvent{};
    }
    sim::SimEvent e;
    while (applied_ < applied && reader_.next(e))
        apply(e);
}

bool TraceCursor::step(sim::SimEvent& e) {
    if (applied_ >= events_ || !reader_.next(e)) return false;
    apply(e);
    return true;
}

}  // namespace immap::trace
