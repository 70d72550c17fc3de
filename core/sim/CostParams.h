#pragma once
// Every number the cost model uses, named, with its unit, default and the reasoning or source
// for the default (the table is also docs/simulator.md's parameter table and the GUI's
// parameters panel). Defaults stand on their own sources; none is tuned to reproduce the
// proposal's claimed gains.

#include <string>
#include <string_view>
#include <vector>

namespace immap::sim {

struct CostParams {
    double unlockedNsPerExec = 888'000;
    double memLocalNs = 50;
    double memPerDistanceNs = 6.4;
    double cacheHitNs = 5;
    double writeFraction = 0.5;
    double treeOpNs = 5;
    double lockAtomicNs = 10;
    double splitStoreNs = 200;
    double anonVmaLockNs = 120;
    double wakeupNs = 3'000;
    double handoffTimeoutNs = 4'000'000;
    double schedSliceNs = 2'800'000;
    double walkerVmaNs = 250;
    double walkerPages = 1;
    double walkerTrylock = 0.9;
    double cacheL1HitNs = 1.5;
    double l1Lines = 512;
    double l1Ways = 8;
    double workLinesPerUs = 10;
    // Shared lines an exec touches besides i_mmap (SharedLines.h); 0 lines turns one off.
    double pcpuLockLines = 10;
    double percpuCountersLockLines = 3;
    double pgdLockLines = 3;
    double binfmtLockTouches = 4;
    double iWritecountLines = 1;
    double dentryLockrefLines = 1;
    double vmaCountLines = 1;
    double folioPages = 1;
    double faultAroundPages = 16;
    double folioTouchesPerPage = 3;
    double percpuLoopLinesPerCpu = 4;
    double percpuLoopMlp = 8;
    double smtThreadShare = 0.6;
    double backgroundProcesses = 250;
    double warmupMs = 5;
    double warmupExecs = 3;
    double warmupMaxMs = 5'000;
    double windowExecs = 20;
    double windowTotalExecs = 400;
    double windowMaxMs = 5'000;

    struct Info {
        const char* name;
        const char* unit;
        double CostParams::*field;
        double defaultValue;
        double min;  // valid: what the model accepts
        double max;
        // Plausible: where the source puts the value on the machines the model is for (equal
        // to the default for the measurement's own settings, which are not uncertain).
        double low;
        double high;
        const char* meaning;
        const char* source;
    };
    static const std::vector<Info>& table();

    // NAME=VALUE from the command line or a session. False with the reason when the name is
    // unknown or the value is not a number in range.
    bool set(std::string_view name, double value, std::string& error);
    bool setFromText(std::string_view assignment, std::string& error);
    double get(std::string_view name) const;  // NaN for an unknown name

    // Every shared-line component off (the model of i_mmap alone, as before they came).
    void clearSharedLines();

    // The price of touching a cache line homed at SLIT distance `distance`.
    double memoryNs(unsigned distance) const {
        return memLocalNs + (static_cast<double>(distance) - 10.0) * memPerDistanceNs;
    }
};

}  // namespace immap::sim
