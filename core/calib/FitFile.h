#pragma once
// The fit, kept with the session: format "immap-fit" version 1 (docs/measurements.md).
// `immap calibrate` writes it; `immap simulate --fit FILE` and `immap sweep --fit FILE` read its
// "params" back (every cost-model parameter by name, the fitted ones included).

#include <string>

#include "calib/Calibration.h"
#include "sim/CostParams.h"

namespace immap::calib {

struct FitSource {
    std::string topology;  // the spec the model ran on
    std::string measured;  // the measured file
    std::string host;      // where it was measured
    double durationMs = 0;
    unsigned long long seed = 1;
};

class FitFile {
public:
    static std::string toJson(const CalibrationResult& fit, const FitSource& source);
    // Throws CalibError "NAME: reason" for anything but an immap-fit v1 file whose params all
    // name known parameters with values in range.
    static sim::CostParams paramsFromJson(const std::string& json, const std::string& name);
    static sim::CostParams paramsFromFile(const std::string& path);
};

}  // namespace immap::calib
