#pragma once
// UnixBench execl on this host, for real: N processes each re-exec the immap-execl helper until
// a shared deadline (app/execl-helper), then report how many execs they did. The score is
// UnixBench's: the sum over copies of each copy's execs / its elapsed time.

#include <string>
#include <vector>

#include "measure/MeasuredCurve.h"

namespace immap::measure {

struct ExeclBenchConfig {
    std::string helper;  // absolute path of immap-execl
    std::vector<unsigned> copies;
    double seconds = 1;
    unsigned repeat = 1;
};

class ExeclBench {
public:
    // One run of `copies` processes for `seconds`: execs/s summed over copies. Throws
    // MeasureError when the helper cannot be started or a copy fails to report, or has not
    // reported `graceSeconds` after the deadline (the copies are then killed). The copies die
    // with this process (PR_SET_PDEATHSIG), however it ends.
    static double runOnce(const std::string& helper, unsigned copies, double seconds,
                          double graceSeconds = 10);
    // Every copy count, `repeat` times each (counts in the inner loop, so that a slow drift of
    // the host's load spreads over all of them). Host fields are filled in.
    static MeasuredCurve run(const ExeclBenchConfig& config);
};

}  // namespace immap::measure
