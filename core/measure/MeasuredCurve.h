#pragma once
// Measured execs/s per copy count, as `immap bench execl --json` writes it and `immap calibrate`
// and the GUI's throughput view read it. Format "immap-measured" version 1, documented in
// docs/measurements.md.

#include <stdexcept>
#include <string>
#include <vector>

#include "io/InputError.h"

namespace immap::measure {

// Bad measured file or failed measurement: the message names the file (or the helper) and why.
// A bad measurements file, or a measurement that failed, as every reader's errors are.
class MeasureError : public io::InputError {
public:
    using io::InputError::InputError;
};

struct MeasuredPoint {
    unsigned copies = 0;
    double execsPerSecond = 0;  // mean over the repeats
    double stddev = 0;          // sample standard deviation over the repeats (0 for one)
    std::vector<double> runs;   // each repeat's execs/s
};

struct MeasuredCurve {
    std::string kind = "execl";
    std::string host;      // hostname
    std::string kernel;    // uname -r
    std::string topology;  // "host": the machine the figures were measured on
    unsigned pus = 0;
    unsigned nodes = 0;
    // /proc/loadavg's 1-minute figure before the first run: other work on the host takes CPUs
    // from the copies, and nothing in the model accounts for it.
    double loadAverage = -1;
    double seconds = 0;  // per run
    unsigned repeat = 0;
    std::string helper;  // the executable that was exec'ed
    std::vector<MeasuredPoint> points;

    std::string toJson() const;
    // Throws MeasureError "NAME: reason" (missing keys, no points, non-positive values).
    static MeasuredCurve fromJson(const std::string& json, const std::string& name);
    static MeasuredCurve fromFile(const std::string& path);
};

// The host's name, kernel release, and the mean and sample standard deviation of a list.
std::string hostName();
std::string kernelRelease();
double loadAverage1();  // -1 when unknown
void meanAndStddev(const std::vector<double>& v, double& mean, double& stddev);

}  // namespace immap::measure
