#include "sim/RunCosts.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace immap::sim {

RunCosts::RunCosts(std::vector<Run> runs)
    : runs_(std::move(runs)), state_(runs_.size(), State::Waiting), started_(runs_.size(), 0) {
    std::size_t groups = 0;
    for (const Run& r : runs_)
        groups = std::max(groups, r.group + 1);
    groupSeconds_.assign(groups, 0);
    groupDone_.assign(groups, 0);
}

double RunCosts::estimate(std::size_t run) const {
    const Run& r = runs_[run];
    if (groupDone_[r.group] > 0) return groupSeconds_[r.group] / groupDone_[r.group];
    return donePrior_ > 0 ? r.prior * doneSeconds_ / donePrior_ : r.prior;
}

std::size_t RunCosts::take(double now) {
    // A linear scan: a sweep has at most a few thousand runs, each costing milliseconds or more.
    std::size_t best = runs_.size();
    double bestCost = 0;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        if (state_[i] != State::Waiting) continue;
        if (best == runs_.size() || runs_[i].phase < runs_[best].phase) {
            best = i;
            bestCost = estimate(i);
            continue;
        }
        if (runs_[i].phase > runs_[best].phase) continue;
        if (const double c = estimate(i); c > bestCost) {
            best = i;
            bestCost = c;
        }
    }
    if (best == runs_.size()) throw std::logic_error("RunCosts::take: every run was taken");
    state_[best] = State::Running;
    started_[best] = now;
    if (!firstTaken_) firstTaken_ = now;
    return best;
}

void RunCosts::finish(std::size_t run, double now) {
    if (state_[run] != State::Running) throw std::logic_error("RunCosts::finish: not running");
    state_[run] = State::Done;
    const double seconds = std::max(0.0, now - started_[run]);
    groupSeconds_[runs_[run].group] += seconds;
    ++groupDone_[runs_[run].group];
    doneSeconds_ += seconds;
    donePrior_ += runs_[run].prior;
    ++finished_;
}

std::optional<double> RunCosts::secondsLeft(double now) const {
    if (finished_ == 0 || !firstTaken_) return std::nullopt;
    if (finished_ == runs_.size()) return 0.0;
    const double elapsed = now - *firstTaken_;
    // Seconds of work done (finished runs and the part run so far of those in flight) per
    // second of wall time: how many threads have actually been busy.
    double work = doneSeconds_;
    double left = 0;
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        if (state_[i] == State::Done) continue;
        const double e = estimate(i);
        if (state_[i] == State::Running) {
            work += now - started_[i];
            left += std::max(0.0, e - (now - started_[i]));
        } else {
            left += e;
        }
    }
    if (work <= 0 || elapsed <= 0) return std::nullopt;
    return left * elapsed / work;
}

std::string RunCosts::leftText(std::optional<double> seconds) {
    if (!seconds) return "time left: after the first run";
    const auto s = std::max(1LL, static_cast<long long>(std::ceil(*seconds)));
    return "about " +
           (s >= 120 ? std::to_string((s + 59) / 60) + " min" : std::to_string(s) + " s") + " left";
}

}  // namespace immap::sim
