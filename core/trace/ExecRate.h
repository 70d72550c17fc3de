#pragma once
// A trace's exec throughput, said one way by every reader of a trace (the Replay tab's
// statistics, `immap trace stats`, `immap trace replay` when the trace has no measured window):
// completed execs (exec_end events) per second of trace time. A bpftrace recording marks only
// where each exec begins, so for a trace without exec ends the rate counts exec begins instead,
// and says so: an execl loop begins one exec per loop, so it reads the same loops per second,
// give or take the one exec in flight per process at each end.

#include <cstdint>
#include <string>

namespace immap::trace {

struct ExecRate {
    std::uint64_t begins = 0;
    std::uint64_t ends = 0;
    std::int64_t spanNs = 0;  // the time the counts were taken over

    bool countsBegins() const { return ends == 0 && begins > 0; }
    std::uint64_t counted() const { return countsBegins() ? begins : ends; }
    double perSecond() const {
        return spanNs > 0 ? static_cast<double>(counted()) * 1e9 / static_cast<double>(spanNs)
                          : 0.0;
    }
    // "1,002 exec begins in 781.3 ms: 1,282 /s (the trace records no exec ends)" or
    // "4,012 execs completed in 120.0 ms: 33,433 execs/s".
    std::string text() const;
};

}  // namespace immap::trace
