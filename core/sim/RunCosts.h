#pragma once
// The order a batch of independent runs is taken in, and the time it has left, from what each
// run costs. Each run has a phase (all of phase 0 is taken before any of phase 1, so that what
// is shown first comes first), a group (runs of one configuration under other seeds or
// parameters, which cost about the same) and a prior cost in arbitrary units (copies x window).
// Once a run of a group has finished, the group's measured wall time replaces the prior for
// its other runs; a group never run is its prior times the measured seconds per prior unit.
// Within a phase the costliest run is taken first, so that the last to finish is a short one
// and no thread idles at the end.
//
// Times are given by the caller (seconds on any monotonic clock), so that the estimate can be
// checked on a made-up clock. Not thread-safe: the caller holds its lock.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace immap::sim {

class RunCosts {
public:
    struct Run {
        unsigned phase = 0;
        std::size_t group = 0;
        double prior = 1;  // > 0
    };
    explicit RunCosts(std::vector<Run> runs);

    // The next run to start at `now`: the lowest phase left, the costliest estimate in it,
    // the lowest index among equals. Every run is taken once; call it at most size() times.
    std::size_t take(double now);
    // The run taken before has ended at `now`.
    void finish(std::size_t run, double now);

    // A run's expected wall time in seconds (in prior units while nothing has finished).
    double estimate(std::size_t run) const;
    // Seconds until every run has finished at the throughput measured so far: what is left of
    // the runs not finished (a run in flight counts its estimate less the time it has run,
    // never below 0) over the work done per second since the first run was taken (finished
    // runs' wall time plus the time run so far by those in flight: the threads busy). Nothing
    // finished yet: no estimate; everything finished: 0.
    std::optional<double> secondsLeft(double now) const;

    // What a progress line says of secondsLeft(): "about 18 s left" (rounded up, at least 1 s:
    // runs are still going), "about 3 min left" from 120 s, "time left: after the first run".
    static std::string leftText(std::optional<double> seconds);

    std::size_t size() const { return runs_.size(); }
    std::size_t finished() const { return finished_; }

private:
    enum class State { Waiting, Running, Done };
    std::vector<Run> runs_;
    std::vector<State> state_;
    std::vector<double> started_;
    std::vector<double> groupSeconds_;  // wall time of the group's finished runs
    std::vector<unsigned> groupDone_;
    double doneSeconds_ = 0;  // wall time of every finished run
    double donePrior_ = 0;    // their priors
    std::size_t finished_ = 0;
    std::optional<double> firstTaken_;
};

}  // namespace immap::sim
